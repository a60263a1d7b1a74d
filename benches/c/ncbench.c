/* ncbench: the netcdf-c side of purecdf's side-by-side benchmark (benches/run.sh).
 *
 * Usage: ncbench OP PATH [NT NY NX]
 *   create   PATH  create a classic (CDF-2, 64-bit offset) file holding one float variable
 *                  data(t, y, x) of NT*NY*NX floats, fill mode on (enddef writes the fill)
 *   write    PATH  open PATH for writing and write the whole variable, one t-slab per call
 *   read     PATH  read the whole variable in one call into one buffer
 *   strided  PATH  read every 2nd element of the last two dimensions in one call
 *   mkdump   PATH  create a ~100 MB classic file of mixed types for the ncdump timing
 *   mkrecs   PATH  create a classic file of 157,201 small records (three float record
 *                  variables, 12 bytes a record) for the many-records ncdump timing
 * Prints "OP SECONDS CHECKSUM"; the checksum (sum of the values read or written) must match
 * the Rust side's (crates/purecdf/benches/ncbench.rs), which computes the same data pattern.
 * Default shape: 64 x 2048 x 2048 floats = 1 GiB.
 */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        int status_ = (call);                                                    \
        if (status_ != NC_NOERR) {                                               \
            fprintf(stderr, "ncbench: %s: %s\n", #call, nc_strerror(status_));   \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The value stored at flat index i: small integers, exact in float, so sums are exact. */
static float value_at(size_t i) { return (float)(i % 1021) - 510.0f; }

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "ncbench: cannot allocate %zu bytes\n", n);
        exit(1);
    }
    return p;
}

static void create(const char *path, size_t nt, size_t ny, size_t nx) {
    int ncid, dims[3], varid;
    CHECK(nc_create(path, NC_CLOBBER | NC_64BIT_OFFSET, &ncid));
    CHECK(nc_def_dim(ncid, "t", nt, &dims[0]));
    CHECK(nc_def_dim(ncid, "y", ny, &dims[1]));
    CHECK(nc_def_dim(ncid, "x", nx, &dims[2]));
    CHECK(nc_def_var(ncid, "data", NC_FLOAT, 3, dims, &varid));
    CHECK(nc_enddef(ncid));
    CHECK(nc_close(ncid));
}

static double write_all(const char *path, size_t nt, size_t ny, size_t nx) {
    int ncid, varid;
    size_t plane = ny * nx;
    float *buf = xmalloc(plane * sizeof(float));
    double sum = 0;
    CHECK(nc_open(path, NC_WRITE, &ncid));
    CHECK(nc_inq_varid(ncid, "data", &varid));
    for (size_t t = 0; t < nt; t++) {
        for (size_t j = 0; j < plane; j++) {
            buf[j] = value_at(t * plane + j);
            sum += buf[j];
        }
        size_t start[3] = {t, 0, 0}, count[3] = {1, ny, nx};
        CHECK(nc_put_vara_float(ncid, varid, start, count, buf));
    }
    CHECK(nc_close(ncid));
    free(buf);
    return sum;
}

static double read_all(const char *path, size_t nt, size_t ny, size_t nx) {
    int ncid, varid;
    size_t n = nt * ny * nx;
    float *buf = xmalloc(n * sizeof(float));
    double sum = 0;
    CHECK(nc_open(path, NC_NOWRITE, &ncid));
    CHECK(nc_inq_varid(ncid, "data", &varid));
    CHECK(nc_get_var_float(ncid, varid, buf));
    CHECK(nc_close(ncid));
    for (size_t i = 0; i < n; i++) sum += buf[i];
    free(buf);
    return sum;
}

static double read_strided(const char *path, size_t nt, size_t ny, size_t nx) {
    int ncid, varid;
    size_t cy = (ny + 1) / 2, cx = (nx + 1) / 2, n = nt * cy * cx;
    float *buf = xmalloc(n * sizeof(float));
    double sum = 0;
    size_t start[3] = {0, 0, 0}, count[3] = {nt, cy, cx};
    ptrdiff_t stride[3] = {1, 2, 2};
    CHECK(nc_open(path, NC_NOWRITE, &ncid));
    CHECK(nc_inq_varid(ncid, "data", &varid));
    CHECK(nc_get_vars_float(ncid, varid, start, count, stride, buf));
    CHECK(nc_close(ncid));
    for (size_t i = 0; i < n; i++) sum += buf[i];
    free(buf);
    return sum;
}

/* ~100 MB classic file for ncdump: a record variable of doubles, ints, shorts and text. */
static void mkdump(const char *path) {
    int ncid, d_time, d_y, d_x, d_len, v_d, v_i, v_s, v_c;
    const size_t nrec = 145, ny = 250, nx = 200, len = 16;
    CHECK(nc_create(path, NC_CLOBBER, &ncid));
    CHECK(nc_def_dim(ncid, "time", NC_UNLIMITED, &d_time));
    CHECK(nc_def_dim(ncid, "y", ny, &d_y));
    CHECK(nc_def_dim(ncid, "x", nx, &d_x));
    CHECK(nc_def_dim(ncid, "len", len, &d_len));
    int dd[3] = {d_time, d_y, d_x}, dc[2] = {d_y, d_len};
    CHECK(nc_def_var(ncid, "temperature", NC_DOUBLE, 3, dd, &v_d));
    CHECK(nc_def_var(ncid, "count", NC_INT, 3, dd, &v_i));
    CHECK(nc_def_var(ncid, "flag", NC_SHORT, 3, dd, &v_s));
    CHECK(nc_def_var(ncid, "label", NC_CHAR, 2, dc, &v_c));
    CHECK(nc_put_att_text(ncid, v_d, "units", 1, "K"));
    CHECK(nc_enddef(ncid));
    size_t plane = ny * nx;
    double *d = xmalloc(plane * sizeof(double));
    int *iv = xmalloc(plane * sizeof(int));
    short *sv = xmalloc(plane * sizeof(short));
    for (size_t r = 0; r < nrec; r++) {
        for (size_t j = 0; j < plane; j++) {
            size_t k = r * plane + j;
            d[j] = 250.0 + (double)(k % 9973) / 97.0;
            iv[j] = (int)(k % 100003) - 50000;
            sv[j] = (short)(k % 601) - 300;
        }
        size_t start[3] = {r, 0, 0}, count[3] = {1, ny, nx};
        CHECK(nc_put_vara_double(ncid, v_d, start, count, d));
        CHECK(nc_put_vara_int(ncid, v_i, start, count, iv));
        CHECK(nc_put_vara_short(ncid, v_s, start, count, sv));
    }
    char *text = xmalloc(ny * len);
    for (size_t j = 0; j < ny; j++) snprintf(text + j * len, len, "row %zu", j);
    size_t s2[2] = {0, 0}, c2[2] = {ny, len};
    CHECK(nc_put_vara_text(ncid, v_c, s2, c2, text));
    CHECK(nc_close(ncid));
    free(d); free(iv); free(sv); free(text);
}

static void mkrecs(const char *path) {
    int ncid, d_time, v[3];
    const size_t nrec = 157201;
    const char *names[3] = {"lat", "lon", "height"};
    CHECK(nc_create(path, NC_CLOBBER, &ncid));
    CHECK(nc_def_dim(ncid, "time", NC_UNLIMITED, &d_time));
    for (int k = 0; k < 3; k++) CHECK(nc_def_var(ncid, names[k], NC_FLOAT, 1, &d_time, &v[k]));
    CHECK(nc_enddef(ncid));
    float *buf = xmalloc(nrec * sizeof(float));
    for (int k = 0; k < 3; k++) {
        for (size_t r = 0; r < nrec; r++) buf[r] = (float)((r * (k + 3)) % 10007) / 8.0f - 600.0f;
        size_t start = 0, count = nrec;
        CHECK(nc_put_vara_float(ncid, v[k], &start, &count, buf));
    }
    CHECK(nc_close(ncid));
    free(buf);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 6) {
        fprintf(stderr, "usage: ncbench create|write|read|strided|mkdump|mkrecs PATH [NT NY NX]\n");
        return 2;
    }
    const char *op = argv[1], *path = argv[2];
    size_t nt = 64, ny = 2048, nx = 2048;
    if (argc == 6) {
        nt = strtoul(argv[3], NULL, 10);
        ny = strtoul(argv[4], NULL, 10);
        nx = strtoul(argv[5], NULL, 10);
    }
    double t0 = now(), sum = 0;
    if (!strcmp(op, "create")) create(path, nt, ny, nx);
    else if (!strcmp(op, "write")) sum = write_all(path, nt, ny, nx);
    else if (!strcmp(op, "read")) sum = read_all(path, nt, ny, nx);
    else if (!strcmp(op, "strided")) sum = read_strided(path, nt, ny, nx);
    else if (!strcmp(op, "mkdump")) mkdump(path);
    else if (!strcmp(op, "mkrecs")) mkrecs(path);
    else {
        fprintf(stderr, "ncbench: unknown operation %s\n", op);
        return 2;
    }
    printf("%s %.6f %.1f\n", op, now() - t0, sum);
    return 0;
}

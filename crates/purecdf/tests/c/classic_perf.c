/* Times netcdf-c on a 1 GiB float variable, for tests/classic_perf.rs.
 * Usage: classic_perf write <file> | read <file> | strided <file>
 * Prints the seconds the operation took (write includes nc_close). */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "line %d: %s\n", __LINE__, nc_strerror(s_)); exit(1); } } while (0)
#define NY 16384
#define NX 16384

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int nc, d[2], v;
    size_t n = (size_t)NY * NX;
    float *buf = malloc(n * sizeof(float));
    if (argc != 3 || !buf) return 2;
    if (argv[1][0] == 'w') {
        for (size_t i = 0; i < n; i++) buf[i] = (float)(i % 1000);
        double t0 = now();
        CHECK(nc_create(argv[2], NC_CLOBBER | NC_64BIT_OFFSET, &nc));
        CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
        CHECK(nc_def_dim(nc, "y", NY, &d[0]));
        CHECK(nc_def_dim(nc, "x", NX, &d[1]));
        CHECK(nc_def_var(nc, "v", NC_FLOAT, 2, d, &v));
        CHECK(nc_enddef(nc));
        CHECK(nc_put_var_float(nc, v, buf));
        CHECK(nc_close(nc));
        printf("%f\n", now() - t0);
    } else {
        double t0 = now();
        CHECK(nc_open(argv[2], NC_NOWRITE, &nc));
        CHECK(nc_inq_varid(nc, "v", &v));
        if (argv[1][0] == 'r') {
            CHECK(nc_get_var_float(nc, v, buf));
        } else {
            size_t st[2] = {0, 0}, ct[2] = {NY / 2, NX / 2};
            ptrdiff_t sd[2] = {2, 2};
            CHECK(nc_get_vars_float(nc, v, st, ct, sd, buf));
        }
        CHECK(nc_close(nc));
        printf("%f %f\n", now() - t0, (double)buf[12345]);
    }
    return 0;
}

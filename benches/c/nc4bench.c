/* netCDF-4 timing driver for benches/netcdf4.sh, linked with libnetcdf (the reference side).
 * Prints one line: the operation's wall time in seconds.
 *   create FILE        256 MiB float "data" (256x512x512, chunks 1x512x512, deflate 1 + shuffle)
 *                      plus "a" and "b" (64x512x512 each, same storage) for the thread test
 *   write FILE         only "data" of `create`, one 512x512 slab per call: the write benchmark
 *                      (time includes nc_close, which writes the rest out). With
 *                      NC4BENCH_FILTERS set (a _Filter list, e.g. "32015,3" or "2|307,9"),
 *                      those filters replace deflate 1 + shuffle.
 *   write-made FILE    the same with every value made before the clock starts (as the
 *                      nc_bench example's `write-made`): times the library alone
 *   create_many FILE N N small int variables with two attributes each
 *   read FILE VAR      read a float variable whole
 *   open FILE          open, count variables, close
 */
#include <netcdf.h>
#include <netcdf_aux.h>
#include <netcdf_filter.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "%s\n", nc_strerror(s_)); exit(1); } } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void def_chunked(int ncid, const char *name, int *dims, int *varid) {
    size_t chunks[3] = {1, 512, 512};
    CHECK(nc_def_var(ncid, name, NC_FLOAT, 3, dims, varid));
    CHECK(nc_def_var_chunking(ncid, *varid, NC_CHUNKED, chunks));
    const char *spec = getenv("NC4BENCH_FILTERS");
    if (spec == NULL || *spec == 0) {
        CHECK(nc_def_var_deflate(ncid, *varid, 1, 1, 1));
        return;
    }
    size_t n = 0;
    struct NC_H5_Filterspec **list = NULL;
    CHECK(ncaux_h5filterspec_parselist(spec, NULL, &n, &list));
    for (size_t i = 0; i < n; i++) {
        CHECK(nc_def_var_filter(ncid, *varid, list[i]->filterid, list[i]->nparams, list[i]->params));
        ncaux_h5filterspec_free(list[i]);
    }
    free(list);
}

/* Slab z of the benchmark variable: a smooth field plus pseudo-random low-order noise, which
 * compresses about as well as real gridded measurements (roughly 2:1 with shuffle + deflate 1),
 * not 15:1. */
static void make_slab(size_t z, float *slab) {
    uint32_t h = (uint32_t)z * 2654435761u + 1;
    for (size_t i = 0; i < 512 * 512; i++) {
        h ^= h << 13; h ^= h >> 17; h ^= h << 5;
        slab[i] = (float)((i % 512) * 0.01 + (i / 512) * 0.5 + z) + (float)(h % 100000) * 1e-5f;
    }
}

static void fill(int ncid, int varid, size_t nz) {
    float *slab = malloc(sizeof(float) * 512 * 512);
    for (size_t z = 0; z < nz; z++) {
        make_slab(z, slab);
        size_t start[3] = {z, 0, 0}, count[3] = {1, 512, 512};
        CHECK(nc_put_vara_float(ncid, varid, start, count, slab));
    }
    free(slab);
}

/* Creates FILE with "data" alone and enters data mode. */
static void create_data(const char *path, int *ncid, int *varid) {
    int dims[3];
    CHECK(nc_create(path, NC_NETCDF4 | NC_CLOBBER, ncid));
    CHECK(nc_def_dim(*ncid, "z", 256, &dims[0]));
    CHECK(nc_def_dim(*ncid, "y", 512, &dims[1]));
    CHECK(nc_def_dim(*ncid, "x", 512, &dims[2]));
    def_chunked(*ncid, "data", dims, varid);
    CHECK(nc_enddef(*ncid));
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: see source\n"); return 2; }
    double t = now();
    int ncid, varid, dims[3], nvars;
    if (!strcmp(argv[1], "create")) {
        CHECK(nc_create(argv[2], NC_NETCDF4 | NC_CLOBBER, &ncid));
        CHECK(nc_def_dim(ncid, "z", 256, &dims[0]));
        CHECK(nc_def_dim(ncid, "y", 512, &dims[1]));
        CHECK(nc_def_dim(ncid, "x", 512, &dims[2]));
        int d2[3];
        CHECK(nc_def_dim(ncid, "z2", 64, &d2[0]));
        d2[1] = dims[1]; d2[2] = dims[2];
        int a, b;
        def_chunked(ncid, "data", dims, &varid);
        def_chunked(ncid, "a", d2, &a);
        def_chunked(ncid, "b", d2, &b);
        CHECK(nc_enddef(ncid));
        fill(ncid, varid, 256);
        fill(ncid, a, 64);
        fill(ncid, b, 64);
        CHECK(nc_close(ncid));
    } else if (!strcmp(argv[1], "write")) {
        create_data(argv[2], &ncid, &varid);
        fill(ncid, varid, 256);
        CHECK(nc_close(ncid));
    } else if (!strcmp(argv[1], "write-made")) {
        float *all = malloc(sizeof(float) * 256 * 512 * 512);
        for (size_t z = 0; z < 256; z++) make_slab(z, all + z * 512 * 512);
        t = now();
        create_data(argv[2], &ncid, &varid);
        for (size_t z = 0; z < 256; z++) {
            size_t start[3] = {z, 0, 0}, count[3] = {1, 512, 512};
            CHECK(nc_put_vara_float(ncid, varid, start, count, all + z * 512 * 512));
        }
        CHECK(nc_close(ncid));
        printf("%.4f\n", now() - t);
        free(all);
        return 0;
    } else if (!strcmp(argv[1], "create_many")) {
        int n = atoi(argv[3]);
        CHECK(nc_create(argv[2], NC_NETCDF4 | NC_CLOBBER, &ncid));
        CHECK(nc_def_dim(ncid, "n", 4, &dims[0]));
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "v%05d", i);
            CHECK(nc_def_var(ncid, name, NC_INT, 1, dims, &varid));
            CHECK(nc_put_att_text(ncid, varid, "units", 1, "m"));
            CHECK(nc_put_att_int(ncid, varid, "index", NC_INT, 1, &i));
        }
        CHECK(nc_close(ncid));
    } else if (!strcmp(argv[1], "read")) {
        size_t len = 1, dimlen;
        int ndims, vdims[NC_MAX_VAR_DIMS];
        CHECK(nc_open(argv[2], NC_NOWRITE, &ncid));
        CHECK(nc_inq_varid(ncid, argv[3], &varid));
        CHECK(nc_inq_varndims(ncid, varid, &ndims));
        CHECK(nc_inq_vardimid(ncid, varid, vdims));
        for (int i = 0; i < ndims; i++) { CHECK(nc_inq_dimlen(ncid, vdims[i], &dimlen)); len *= dimlen; }
        float *buf = malloc(len * sizeof(float));
        CHECK(nc_get_var_float(ncid, varid, buf));
        printf("%.4f\n", now() - t);
        double sum = 0;
        for (size_t i = 0; i < len; i++) sum += buf[i];
        fprintf(stderr, "checksum %.6e\n", sum);
        free(buf);
        CHECK(nc_close(ncid));
        return 0;
    } else if (!strcmp(argv[1], "open")) {
        CHECK(nc_open(argv[2], NC_NOWRITE, &ncid));
        CHECK(nc_inq_nvars(ncid, &nvars));
        CHECK(nc_close(ncid));
    } else {
        return 2;
    }
    printf("%.4f\n", now() - t);
    return 0;
}

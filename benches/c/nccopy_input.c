/* Input file for benches/nccopy.sh, written with libnetcdf: a CDF-2 file holding one float
 * variable "data" of NT x NY x NX values (1 GiB at the default 64 x 2048 x 2048), either with a
 * fixed first dimension or (with "rec") as a record variable. The values are a smooth field plus
 * pseudo-random low-order noise, so deflate + shuffle compress them about 2:1, as real gridded
 * data, not 15:1.
 *   nccopy_input FILE NT NY NX [rec]
 */
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "%s\n", nc_strerror(s_)); exit(1); } } while (0)

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: nccopy_input FILE NT NY NX [rec]\n"); return 2; }
    size_t nt = strtoul(argv[2], NULL, 10), ny = strtoul(argv[3], NULL, 10), nx = strtoul(argv[4], NULL, 10);
    int rec = argc > 5 && !strcmp(argv[5], "rec");
    int ncid, dims[3], varid;
    CHECK(nc_create(argv[1], NC_CLOBBER | NC_64BIT_OFFSET, &ncid));
    CHECK(nc_set_fill(ncid, NC_NOFILL, NULL));
    CHECK(nc_def_dim(ncid, "t", rec ? NC_UNLIMITED : nt, &dims[0]));
    CHECK(nc_def_dim(ncid, "y", ny, &dims[1]));
    CHECK(nc_def_dim(ncid, "x", nx, &dims[2]));
    CHECK(nc_def_var(ncid, "data", NC_FLOAT, 3, dims, &varid));
    CHECK(nc_put_att_text(ncid, varid, "units", 1, "K"));
    CHECK(nc_enddef(ncid));
    float *slab = malloc(sizeof(float) * ny * nx);
    if (!slab) { fprintf(stderr, "out of memory\n"); return 1; }
    for (size_t t = 0; t < nt; t++) {
        uint32_t h = (uint32_t)t * 2654435761u + 1;
        for (size_t i = 0; i < ny * nx; i++) {
            h ^= h << 13; h ^= h >> 17; h ^= h << 5;
            slab[i] = (float)((i % nx) * 0.01 + (i / nx) * 0.5 + t) + (float)(h % 100000) * 1e-5f;
        }
        size_t start[3] = {t, 0, 0}, count[3] = {1, ny, nx};
        CHECK(nc_put_vara_float(ncid, varid, start, count, slab));
    }
    free(slab);
    CHECK(nc_close(ncid));
    return 0;
}

/* Prints every variable of a netCDF file as netcdf-c reads it: one line per variable,
 * "name type-code hex-of-native-bytes", for tests/classic_corpus.rs.
 * Usage: classic_dump <file>.  Built at test time: cc classic_dump.c -lnetcdf */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "line %d: %s\n", __LINE__, nc_strerror(s_)); exit(1); } } while (0)

int main(int argc, char **argv) {
    int nc, nvars;
    if (argc != 2) return 2;
    CHECK(nc_open(argv[1], NC_NOWRITE, &nc));
    CHECK(nc_inq_nvars(nc, &nvars));
    for (int v = 0; v < nvars; v++) {
        char name[NC_MAX_NAME + 1];
        nc_type t;
        int nd, dims[NC_MAX_VAR_DIMS];
        size_t n = 1, size;
        CHECK(nc_inq_var(nc, v, name, &t, &nd, dims, NULL));
        for (int i = 0; i < nd; i++) {
            size_t len;
            CHECK(nc_inq_dimlen(nc, dims[i], &len));
            n *= len;
        }
        CHECK(nc_inq_type(nc, t, NULL, &size));
        unsigned char *buf = malloc(n * size + 1);
        if (n > 0) CHECK(nc_get_var(nc, v, buf));
        printf("%s %d ", name, (int)t);
        for (size_t i = 0; i < n * size; i++) printf("%02x", buf[i]);
        printf("\n");
        free(buf);
    }
    CHECK(nc_close(nc));
    return 0;
}

/* The netcdf-c side of interop_append.rs's `purecdf_appends_to_netcdf_c_files`: opens an existing
 * netCDF-4 file for writing and makes the same changes the test makes through purecdf:
 *   - redef; a global text attribute "appended" = "purecd"; an int attribute "touched" = 1 on the
 *     root group's first variable; a new int variable "added_by_test" over the root group's first
 *     unlimited dimension (a scalar if there is none); enddef;
 *   - one record at index N (N = that dimension's current length) of every root-group variable
 *     whose first dimension it is, whose other dimensions are fixed and whose type is atomic and
 *     not a string: element i gets i % 100 (through nc_put_vara_double), or for char 'a' + i % 26;
 *   - "added_by_test" gets 3*i for i in 0..=N (or 7 when scalar).
 * Usage: nc4_append FILE. Exit status 0, or 1 with netcdf-c's message. */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                               \
    do {                                                                          \
        int rc_ = (call);                                                         \
        if (rc_ != NC_NOERR) {                                                    \
            fprintf(stderr, "%s: %s\n", #call, nc_strerror(rc_));                 \
            return 1;                                                             \
        }                                                                         \
    } while (0)

int main(int argc, char **argv) {
    int ncid, nvars, unlim, newv, one = 1;
    size_t reclen = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: nc4_append FILE\n");
        return 2;
    }
    CHECK(nc_open(argv[1], NC_WRITE, &ncid));
    CHECK(nc_redef(ncid));
    CHECK(nc_put_att_text(ncid, NC_GLOBAL, "appended", 6, "purecd"));
    CHECK(nc_inq_nvars(ncid, &nvars));
    if (nvars > 0)
        CHECK(nc_put_att_int(ncid, 0, "touched", NC_INT, 1, &one));
    CHECK(nc_inq_unlimdim(ncid, &unlim));
    CHECK(nc_def_var(ncid, "added_by_test", NC_INT, unlim >= 0 ? 1 : 0, &unlim, &newv));
    CHECK(nc_enddef(ncid));
    if (unlim >= 0)
        CHECK(nc_inq_dimlen(ncid, unlim, &reclen));
    for (int v = 0; v < nvars; v++) {
        nc_type type;
        int ndims, dimids[NC_MAX_VAR_DIMS], natts, skip = 0;
        size_t start[NC_MAX_VAR_DIMS], count[NC_MAX_VAR_DIMS], n = 1;
        CHECK(nc_inq_var(ncid, v, NULL, &type, &ndims, dimids, &natts));
        if (unlim < 0 || ndims == 0 || dimids[0] != unlim || type > NC_MAX_ATOMIC_TYPE ||
            type == NC_STRING)
            continue;
        start[0] = reclen;
        count[0] = 1;
        for (int d = 1; d < ndims; d++) {
            CHECK(nc_inq_dimlen(ncid, dimids[d], &count[d]));
            start[d] = 0;
            n *= count[d];
        }
        /* Skip variables with a second unlimited dimension (their record shape is not fixed). */
        {
            int nu, uids[NC_MAX_DIMS];
            CHECK(nc_inq_unlimdims(ncid, &nu, uids));
            for (int d = 1; d < ndims; d++)
                for (int k = 0; k < nu; k++)
                    if (dimids[d] == uids[k]) skip = 1;
        }
        if (skip || n == 0)
            continue;
        if (type == NC_CHAR) {
            char *buf = malloc(n);
            for (size_t i = 0; i < n; i++) buf[i] = (char)('a' + i % 26);
            CHECK(nc_put_vara_text(ncid, v, start, count, buf));
            free(buf);
        } else {
            double *buf = malloc(n * sizeof(double));
            for (size_t i = 0; i < n; i++) buf[i] = (double)(i % 100);
            CHECK(nc_put_vara_double(ncid, v, start, count, buf));
            free(buf);
        }
    }
    if (unlim >= 0) {
        size_t s = 0, c = reclen + 1;
        int *buf = malloc(c * sizeof(int));
        for (size_t i = 0; i < c; i++) buf[i] = (int)(3 * i);
        CHECK(nc_put_vara_int(ncid, newv, &s, &c, buf));
        free(buf);
    } else {
        int seven = 7;
        CHECK(nc_put_var_int(ncid, newv, &seven));
    }
    CHECK(nc_close(ncid));
    return 0;
}

#include <stdio.h>
#include <stdlib.h>
#include <netcdf.h>


#define nanf (0.0f/0.0f)
#define nan  (0.0/0.0)
#define inff (1.0f/0.0f)
#define inf  (1.0/0.0)
#define infinityf inff
#define infinity  inf


void
check_err(const int stat, int line, const char* file, const char* func) {
    if (stat != NC_NOERR) {
        (void)fprintf(stderr,"line %d of %s.%s: %s\n", line, file, func, nc_strerror(stat));
        fflush(stderr);
        exit(1);
    }
}

#define CHECK_ERR(err) check_err(err, __LINE__, __FILE__, __func__)

int
make_records() {/* create records.nc */

    int  stat;  /* return status */
    int  ncid;  /* netCDF id */

    /* dimension ids */
    int time_dim;
    int x_dim;
    int len_dim;

    /* dimension lengths */
    size_t time_len = NC_UNLIMITED;
    size_t x_len = 3;
    size_t len_len = 4;

    /* variable ids */
    int time_id;
    int a_MINUS_b_id;
    int DIGIT_4_LFTX_id;
    int name_id;
    int initial_id;
    int flags_id;
    int count_id;
    int big_id;

    /* rank (number of dimensions) for each variable */
#   define RANK_time 1
#   define RANK_a_MINUS_b 2
#   define RANK_DIGIT_4_LFTX 1
#   define RANK_name 2
#   define RANK_initial 0
#   define RANK_flags 1
#   define RANK_count 0
#   define RANK_big 2

    /* variable shapes */
    int time_dims[RANK_time];
    int a_MINUS_b_dims[RANK_a_MINUS_b];
    int DIGIT_4_LFTX_dims[RANK_DIGIT_4_LFTX];
    int name_dims[RANK_name];
    int flags_dims[RANK_flags];
    int big_dims[RANK_big];

    /* enter define mode */
    stat = nc_create("records.nc", NC_CLOBBER, &ncid);
    CHECK_ERR(stat);

    /* define dimensions */
    stat = nc_def_dim(ncid, "time", time_len, &time_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "x", x_len, &x_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "len", len_len, &len_dim);
    CHECK_ERR(stat);

    /* define variables */

    time_dims[0] = time_dim;
    stat = nc_def_var(ncid, "time", NC_DOUBLE, RANK_time, time_dims, &time_id);
    CHECK_ERR(stat);

    a_MINUS_b_dims[0] = time_dim;
    a_MINUS_b_dims[1] = x_dim;
    stat = nc_def_var(ncid, "a-b", NC_FLOAT, RANK_a_MINUS_b, a_MINUS_b_dims, &a_MINUS_b_id);
    CHECK_ERR(stat);

    DIGIT_4_LFTX_dims[0] = x_dim;
    stat = nc_def_var(ncid, "4LFTX", NC_SHORT, RANK_DIGIT_4_LFTX, DIGIT_4_LFTX_dims, &DIGIT_4_LFTX_id);
    CHECK_ERR(stat);

    name_dims[0] = time_dim;
    name_dims[1] = len_dim;
    stat = nc_def_var(ncid, "name", NC_CHAR, RANK_name, name_dims, &name_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "initial", NC_CHAR, RANK_initial, 0, &initial_id);
    CHECK_ERR(stat);

    flags_dims[0] = x_dim;
    stat = nc_def_var(ncid, "flags", NC_BYTE, RANK_flags, flags_dims, &flags_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "count", NC_INT, RANK_count, 0, &count_id);
    CHECK_ERR(stat);

    big_dims[0] = x_dim;
    big_dims[1] = len_dim;
    stat = nc_def_var(ncid, "big", NC_DOUBLE, RANK_big, big_dims, &big_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "title", 22, "records for ncgen -l c");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "empty", 1, "");
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    stat = nc_put_att_text(ncid, time_id, "units", 21, "days since 2000-01-01");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, time_id, "note", 1, "");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, time_id, "note", 24, "tab\there, quote \" and é");
    CHECK_ERR(stat);
    }

    {
    static const float records__FillValue_att[1] = {((float)-1)} ;
    stat = nc_put_att_float(ncid, a_MINUS_b_id, "_FillValue", NC_FLOAT, 1, records__FillValue_att);
    CHECK_ERR(stat);
    }

    {
    static const float records_range_att[2] = {((float)-inf), ((float)3.4028235e+38)} ;
    stat = nc_put_att_float(ncid, a_MINUS_b_id, "range", NC_FLOAT, 2, records_range_att);
    CHECK_ERR(stat);
    }

    {
    static const short records_valid_att[2] = {0, 32767} ;
    stat = nc_put_att_short(ncid, DIGIT_4_LFTX_id, "valid", NC_SHORT, 2, records_valid_att);
    CHECK_ERR(stat);
    }

    {
    static const signed char records_masks_att[3] = {1, 2, -128} ;
    stat = nc_put_att_schar(ncid, flags_id, "masks", NC_BYTE, 3, records_masks_att);
    CHECK_ERR(stat);
    }

    /* don't initialize variables with fill values */
    CHECK_ERR(stat);

    /* leave define mode */
    stat = nc_enddef (ncid);
    CHECK_ERR(stat);
    stat = nc_close(ncid);
    CHECK_ERR(stat);
    return 0;
}

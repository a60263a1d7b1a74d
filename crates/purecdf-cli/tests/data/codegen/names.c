#include <stdio.h>
#include <stdlib.h>
#include <netcdf.h>


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
main() {/* create names.nc */

    int  stat;  /* return status */
    int  ncid;  /* netCDF id */

    /* dimension ids */
    int caf_XC3_XA9_dim;
    int d_SPACE_1_dim;

    /* dimension lengths */
    size_t caf_XC3_XA9_len = 2;
    size_t d_SPACE_1_len = 1;

    /* variable ids */
    int cafe_XCC_X81x_id;
    int DIGIT_1_st_id;
    int data_id;
    int x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1_id;

    /* rank (number of dimensions) for each variable */
#   define RANK_cafe_XCC_X81x 1
#   define RANK_DIGIT_1_st 1
#   define RANK_data 0
#   define RANK_x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1 0

    /* variable shapes */
    int cafe_XCC_X81x_dims[RANK_cafe_XCC_X81x];
    int DIGIT_1_st_dims[RANK_DIGIT_1_st];

    /* enter define mode */
    stat = nc_create("names.nc", NC_CLOBBER, &ncid);
    CHECK_ERR(stat);

    /* define dimensions */
    stat = nc_def_dim(ncid, "café", caf_XC3_XA9_len, &caf_XC3_XA9_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "d 1", d_SPACE_1_len, &d_SPACE_1_dim);
    CHECK_ERR(stat);

    /* define variables */

    cafe_XCC_X81x_dims[0] = caf_XC3_XA9_dim;
    stat = nc_def_var(ncid, "caféx", NC_INT, RANK_cafe_XCC_X81x, cafe_XCC_X81x_dims, &cafe_XCC_X81x_id);
    CHECK_ERR(stat);

    DIGIT_1_st_dims[0] = d_SPACE_1_dim;
    stat = nc_def_var(ncid, "1st", NC_FLOAT, RANK_DIGIT_1_st, DIGIT_1_st_dims, &DIGIT_1_st_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "data", NC_INT, RANK_data, 0, &data_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "x-y.z@w+1", NC_INT, RANK_x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1, 0, &x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "g att", 3, "€");
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    static const int names_a_COLON_b_att[1] = {1} ;
    stat = nc_put_att_int(ncid, cafe_XCC_X81x_id, "a:b", NC_INT, 1, names_a_COLON_b_att);
    CHECK_ERR(stat);
    }


    /* leave define mode */
    stat = nc_enddef (ncid);
    CHECK_ERR(stat);

    /* assign variable data */

    {
    int cafe_XCC_X81x_data[2] = {1, 2} ;
    size_t cafe_XCC_X81x_startset[1] = {0} ;
    size_t cafe_XCC_X81x_countset[1] = {2};
    stat = nc_put_vara(ncid, cafe_XCC_X81x_id, cafe_XCC_X81x_startset, cafe_XCC_X81x_countset, cafe_XCC_X81x_data);
    CHECK_ERR(stat);
    }


    {
    float DIGIT_1_st_data[1] = {((float)3)} ;
    size_t DIGIT_1_st_startset[1] = {0} ;
    size_t DIGIT_1_st_countset[1] = {1};
    stat = nc_put_vara(ncid, DIGIT_1_st_id, DIGIT_1_st_startset, DIGIT_1_st_countset, DIGIT_1_st_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static int data_data[1] = {4};
    stat = nc_put_var1(ncid, data_id, &count, data_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static int x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1_data[1] = {5};
    stat = nc_put_var1(ncid, x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1_id, &count, x_MINUS_y_PERIOD_z_ATSIGN_w_PLUS_1_data);
    CHECK_ERR(stat);
    }


    stat = nc_close(ncid);
    CHECK_ERR(stat);
    return 0;
}

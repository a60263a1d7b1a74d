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
main() {/* create made.nc */

    int  stat;  /* return status */
    int  ncid;  /* netCDF id */

    /* group ids */
    int records_grp;

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
    stat = nc_create("made.nc", NC_CLOBBER|NC_NETCDF4, &ncid);
    CHECK_ERR(stat);
    records_grp = ncid;

    /* define dimensions */
    stat = nc_def_dim(records_grp, "time", time_len, &time_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(records_grp, "x", x_len, &x_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(records_grp, "len", len_len, &len_dim);
    CHECK_ERR(stat);

    /* define variables */

    time_dims[0] = time_dim;
    stat = nc_def_var(records_grp, "time", NC_DOUBLE, RANK_time, time_dims, &time_id);
    CHECK_ERR(stat);

    a_MINUS_b_dims[0] = time_dim;
    a_MINUS_b_dims[1] = x_dim;
    stat = nc_def_var(records_grp, "a-b", NC_FLOAT, RANK_a_MINUS_b, a_MINUS_b_dims, &a_MINUS_b_id);
    CHECK_ERR(stat);

    DIGIT_4_LFTX_dims[0] = x_dim;
    stat = nc_def_var(records_grp, "4LFTX", NC_SHORT, RANK_DIGIT_4_LFTX, DIGIT_4_LFTX_dims, &DIGIT_4_LFTX_id);
    CHECK_ERR(stat);

    name_dims[0] = time_dim;
    name_dims[1] = len_dim;
    stat = nc_def_var(records_grp, "name", NC_CHAR, RANK_name, name_dims, &name_id);
    CHECK_ERR(stat);

    stat = nc_def_var(records_grp, "initial", NC_CHAR, RANK_initial, 0, &initial_id);
    CHECK_ERR(stat);

    flags_dims[0] = x_dim;
    stat = nc_def_var(records_grp, "flags", NC_BYTE, RANK_flags, flags_dims, &flags_id);
    CHECK_ERR(stat);

    stat = nc_def_var(records_grp, "count", NC_INT, RANK_count, 0, &count_id);
    CHECK_ERR(stat);

    big_dims[0] = x_dim;
    big_dims[1] = len_dim;
    stat = nc_def_var(records_grp, "big", NC_DOUBLE, RANK_big, big_dims, &big_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(records_grp, NC_GLOBAL, "title", 22, "records for ncgen -l c");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(records_grp, NC_GLOBAL, "empty", 1, "");
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    stat = nc_put_att_text(records_grp, time_id, "units", 21, "days since 2000-01-01");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(records_grp, time_id, "note", 1, "");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(records_grp, time_id, "note", 24, "tab\there, quote \" and é");
    CHECK_ERR(stat);
    }

    {
    static const float _FillValue_att[1] = {((float)-1)} ;
    stat = nc_put_att_float(records_grp, a_MINUS_b_id, "_FillValue", NC_FLOAT, 1, _FillValue_att);
    CHECK_ERR(stat);
    }

    {
    static const float range_att[2] = {((float)-inf), ((float)3.4028235e+38)} ;
    stat = nc_put_att_float(records_grp, a_MINUS_b_id, "range", NC_FLOAT, 2, range_att);
    CHECK_ERR(stat);
    }

    {
    static const short valid_att[2] = {0, 32767} ;
    stat = nc_put_att_short(records_grp, DIGIT_4_LFTX_id, "valid", NC_SHORT, 2, valid_att);
    CHECK_ERR(stat);
    }

    {
    static const signed char masks_att[3] = {1, 2, -128} ;
    stat = nc_put_att_schar(records_grp, flags_id, "masks", NC_BYTE, 3, masks_att);
    CHECK_ERR(stat);
    }


    /* leave define mode */
    stat = nc_enddef (records_grp);
    CHECK_ERR(stat);

    /* assign variable data */

    {
    double time_data[2] = {((double)0), ((double)1.5)} ;
    size_t time_startset[1] = {0} ;
    size_t time_countset[1] = {2};
    stat = nc_put_vara(records_grp, time_id, time_startset, time_countset, time_data);
    CHECK_ERR(stat);
    }


    {
    float a_MINUS_b_data[3] = {((float)1), ((float)-1), ((float)3)} ;
    size_t a_MINUS_b_startset[2] = {0, 0} ;
    size_t a_MINUS_b_countset[2] = {1, 3};
    stat = nc_put_vara(records_grp, a_MINUS_b_id, a_MINUS_b_startset, a_MINUS_b_countset, a_MINUS_b_data);
    CHECK_ERR(stat);
    }


    {
    float a_MINUS_b_data[3] = {((float)-0), ((float)1e-30), ((float)123456.79)} ;
    size_t a_MINUS_b_startset[2] = {1, 0} ;
    size_t a_MINUS_b_countset[2] = {1, 3};
    stat = nc_put_vara(records_grp, a_MINUS_b_id, a_MINUS_b_startset, a_MINUS_b_countset, a_MINUS_b_data);
    CHECK_ERR(stat);
    }


    {
    short DIGIT_4_LFTX_data[3] = {-32768, 0, 32767} ;
    size_t DIGIT_4_LFTX_startset[1] = {0} ;
    size_t DIGIT_4_LFTX_countset[1] = {3};
    stat = nc_put_vara(records_grp, DIGIT_4_LFTX_id, DIGIT_4_LFTX_startset, DIGIT_4_LFTX_countset, DIGIT_4_LFTX_data);
    CHECK_ERR(stat);
    }


    {
    char* name_data = "ab\000\000c'd\001" ;
    size_t name_startset[2] = {0, 0} ;
    size_t name_countset[2] = {2, 4};
    stat = nc_put_vara(records_grp, name_id, name_startset, name_countset, name_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static char initial_data[1] = {'\''};
    stat = nc_put_var1(records_grp, initial_id, &count, initial_data);
    CHECK_ERR(stat);
    }


    {
    signed char flags_data[3] = {0, -1, 127} ;
    size_t flags_startset[1] = {0} ;
    size_t flags_countset[1] = {3};
    stat = nc_put_vara(records_grp, flags_id, flags_startset, flags_countset, flags_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static int count_data[1] = {7};
    stat = nc_put_var1(records_grp, count_id, &count, count_data);
    CHECK_ERR(stat);
    }


    {
    double big_data[4] = {((double)1e+300), ((double)-2.5e-300), ((double)0.1), ((double)1)} ;
    size_t big_startset[2] = {0, 0} ;
    size_t big_countset[2] = {1, 4};
    stat = nc_put_vara(records_grp, big_id, big_startset, big_countset, big_data);
    CHECK_ERR(stat);
    }


    {
    double big_data[4] = {((double)2), ((double)3), ((double)4), ((double)5)} ;
    size_t big_startset[2] = {1, 0} ;
    size_t big_countset[2] = {1, 4};
    stat = nc_put_vara(records_grp, big_id, big_startset, big_countset, big_data);
    CHECK_ERR(stat);
    }


    {
    double big_data[4] = {((double)6), ((double)9.969209968386869e+36), ((double)9.969209968386869e+36), ((double)9.969209968386869e+36)} ;
    size_t big_startset[2] = {2, 0} ;
    size_t big_countset[2] = {1, 4};
    stat = nc_put_vara(records_grp, big_id, big_startset, big_countset, big_data);
    CHECK_ERR(stat);
    }


    stat = nc_close(records_grp);
    CHECK_ERR(stat);
    return 0;
}

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
main() {/* create sample.nc */

    int  stat;  /* return status */
    int  ncid;  /* netCDF id */

    /* dimension ids */
    int time_dim;
    int lat_dim;
    int lon_dim;
    int name_len_dim;

    /* dimension lengths */
    size_t time_len = NC_UNLIMITED;
    size_t lat_len = 4;
    size_t lon_len = 5;
    size_t name_len_len = 8;

    /* variable ids */
    int time_id;
    int lat_id;
    int lon_id;
    int temp_id;
    int flag_id;
    int station_id;
    int count_id;

    /* rank (number of dimensions) for each variable */
#   define RANK_time 1
#   define RANK_lat 1
#   define RANK_lon 1
#   define RANK_temp 3
#   define RANK_flag 2
#   define RANK_station 2
#   define RANK_count 0

    /* variable shapes */
    int time_dims[RANK_time];
    int lat_dims[RANK_lat];
    int lon_dims[RANK_lon];
    int temp_dims[RANK_temp];
    int flag_dims[RANK_flag];
    int station_dims[RANK_station];

    /* enter define mode */
    stat = nc_create("sample.nc", NC_CLOBBER, &ncid);
    CHECK_ERR(stat);

    /* define dimensions */
    stat = nc_def_dim(ncid, "time", time_len, &time_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "lat", lat_len, &lat_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "lon", lon_len, &lon_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "name_len", name_len_len, &name_len_dim);
    CHECK_ERR(stat);

    /* define variables */

    time_dims[0] = time_dim;
    stat = nc_def_var(ncid, "time", NC_DOUBLE, RANK_time, time_dims, &time_id);
    CHECK_ERR(stat);

    lat_dims[0] = lat_dim;
    stat = nc_def_var(ncid, "lat", NC_FLOAT, RANK_lat, lat_dims, &lat_id);
    CHECK_ERR(stat);

    lon_dims[0] = lon_dim;
    stat = nc_def_var(ncid, "lon", NC_FLOAT, RANK_lon, lon_dims, &lon_id);
    CHECK_ERR(stat);

    temp_dims[0] = time_dim;
    temp_dims[1] = lat_dim;
    temp_dims[2] = lon_dim;
    stat = nc_def_var(ncid, "temp", NC_SHORT, RANK_temp, temp_dims, &temp_id);
    CHECK_ERR(stat);

    flag_dims[0] = lat_dim;
    flag_dims[1] = lon_dim;
    stat = nc_def_var(ncid, "flag", NC_BYTE, RANK_flag, flag_dims, &flag_id);
    CHECK_ERR(stat);

    station_dims[0] = lat_dim;
    station_dims[1] = name_len_dim;
    stat = nc_def_var(ncid, "station", NC_CHAR, RANK_station, station_dims, &station_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "count", NC_INT, RANK_count, 0, &count_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "Conventions", 6, "CF-1.8");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "title", 14, "purecdf sample");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "history", 39, "made with ncgen from samples/sample.cdl");
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    stat = nc_put_att_text(ncid, time_id, "units", 31, "hours since 2024-01-01 00:00:00");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, time_id, "calendar", 8, "standard");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, lat_id, "units", 13, "degrees_north");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, lon_id, "units", 12, "degrees_east");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, temp_id, "long_name", 19, "surface temperature");
    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, temp_id, "units", 1, "K");
    CHECK_ERR(stat);
    }

    {
    static const float sample_scale_factor_att[1] = {((float)0.0099999998)} ;
    stat = nc_put_att_float(ncid, temp_id, "scale_factor", NC_FLOAT, 1, sample_scale_factor_att);
    CHECK_ERR(stat);
    }

    {
    static const float sample_add_offset_att[1] = {((float)273.14999)} ;
    stat = nc_put_att_float(ncid, temp_id, "add_offset", NC_FLOAT, 1, sample_add_offset_att);
    CHECK_ERR(stat);
    }

    {
    static const short sample__FillValue_att[1] = {-32767} ;
    stat = nc_put_att_short(ncid, temp_id, "_FillValue", NC_SHORT, 1, sample__FillValue_att);
    CHECK_ERR(stat);
    }

    {
    static const signed char sample_valid_range_att[2] = {0, 3} ;
    stat = nc_put_att_schar(ncid, flag_id, "valid_range", NC_BYTE, 2, sample_valid_range_att);
    CHECK_ERR(stat);
    }


    /* leave define mode */
    stat = nc_enddef (ncid);
    CHECK_ERR(stat);

    /* assign variable data */

    {
    double time_data[3] = {((double)0), ((double)6), ((double)12)} ;
    size_t time_startset[1] = {0} ;
    size_t time_countset[1] = {3};
    stat = nc_put_vara(ncid, time_id, time_startset, time_countset, time_data);
    CHECK_ERR(stat);
    }


    {
    float lat_data[4] = {((float)-45), ((float)-15), ((float)15), ((float)45)} ;
    size_t lat_startset[1] = {0} ;
    size_t lat_countset[1] = {4};
    stat = nc_put_vara(ncid, lat_id, lat_startset, lat_countset, lat_data);
    CHECK_ERR(stat);
    }


    {
    float lon_data[5] = {((float)0), ((float)72), ((float)144), ((float)216), ((float)288)} ;
    size_t lon_startset[1] = {0} ;
    size_t lon_countset[1] = {5};
    stat = nc_put_vara(ncid, lon_id, lon_startset, lon_countset, lon_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {1000, 1100, 1200, 1300, 1400} ;
    size_t temp_startset[3] = {0, 0, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {-500, -400, -32767, -200, -100} ;
    size_t temp_startset[3] = {0, 1, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {2000, 2100, 2200, 2300, 2400} ;
    size_t temp_startset[3] = {0, 2, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {0, 1, 2, 3, 4} ;
    size_t temp_startset[3] = {0, 3, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {1005, 1105, 1205, 1305, 1405} ;
    size_t temp_startset[3] = {1, 0, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {-505, -405, -305, -205, -105} ;
    size_t temp_startset[3] = {1, 1, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {2005, 2105, 2205, 2305, 2405} ;
    size_t temp_startset[3] = {1, 2, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {5, 6, 7, 8, 9} ;
    size_t temp_startset[3] = {1, 3, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {1010, 1110, 1210, 1310, 1410} ;
    size_t temp_startset[3] = {2, 0, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {-510, -410, -310, -210, -110} ;
    size_t temp_startset[3] = {2, 1, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {2010, 2110, 2210, 2310, 2410} ;
    size_t temp_startset[3] = {2, 2, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    short temp_data[5] = {10, 11, 12, 13, -32767} ;
    size_t temp_startset[3] = {2, 3, 0} ;
    size_t temp_countset[3] = {1, 1, 5};
    stat = nc_put_vara(ncid, temp_id, temp_startset, temp_countset, temp_data);
    CHECK_ERR(stat);
    }


    {
    signed char flag_data[20] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3} ;
    size_t flag_startset[2] = {0, 0} ;
    size_t flag_countset[2] = {4, 5};
    stat = nc_put_vara(ncid, flag_id, flag_startset, flag_countset, flag_data);
    CHECK_ERR(stat);
    }


    {
    char* station_data = "Alpha\000\000\000Bravo\000\000\000Charlie\000Delta\000\000\000" ;
    size_t station_startset[2] = {0, 0} ;
    size_t station_countset[2] = {4, 8};
    stat = nc_put_vara(ncid, station_id, station_startset, station_countset, station_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static int count_data[1] = {42};
    stat = nc_put_var1(ncid, count_id, &count, count_data);
    CHECK_ERR(stat);
    }


    stat = nc_close(ncid);
    CHECK_ERR(stat);
    return 0;
}

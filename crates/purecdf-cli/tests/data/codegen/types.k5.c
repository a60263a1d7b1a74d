#include <stdio.h>
#include <stdlib.h>
#include <netcdf.h>


#define nanf (0.0f/0.0f)
#define nan  (0.0/0.0)
#define inff (1.0f/0.0f)
#define inf  (1.0/0.0)
#define infinityf inff
#define infinity  inf


#define col_PERIOD_RED ((signed char)1)
#define col_PERIOD_GREEN ((signed char)2)
typedef signed char col;
typedef unsigned char op[3];
typedef nc_vlen_t vl;
typedef struct cmp {
    int cmp_PERIOD_f1;
    float cmp_PERIOD_f2[2];
    char cmp_PERIOD_nm[3];
} cmp;

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
main() {/* create types.nc */

    int  stat;  /* return status */
    int  ncid;  /* netCDF id */

    /* dimension ids */
    int d_dim;
    int d2_dim;

    /* dimension lengths */
    size_t d_len = 2;
    size_t d2_len = 1;

    /* variable ids */
    int v_id;
    int e_id;
    int o_id;
    int x_id;
    int c_id;
    int s_id;
    int w_id;

    /* rank (number of dimensions) for each variable */
#   define RANK_v 1
#   define RANK_e 1
#   define RANK_o 0
#   define RANK_x 1
#   define RANK_c 0
#   define RANK_s 0
#   define RANK_w 1

    /* variable shapes */
    int v_dims[RANK_v];
    int e_dims[RANK_e];
    int x_dims[RANK_x];
    int w_dims[RANK_w];

    /* enter define mode */
    stat = nc_create("types.nc", NC_CLOBBER, &ncid);
    CHECK_ERR(stat);

    {
    signed char econst;
    stat = nc_def_enum(ncid, NC_BYTE, "col", &col_typ);
    CHECK_ERR(stat);
    econst = 1;
    stat = nc_insert_enum(ncid, col_typ, "RED", &econst);
    econst = 2;
    stat = nc_insert_enum(ncid, col_typ, "GREEN", &econst);
    }

    stat = nc_def_opaque(ncid, 3, "op", &op_typ);
    CHECK_ERR(stat);

    stat = nc_def_vlen(ncid, "vl", NC_INT, &vl_typ);    CHECK_ERR(stat);

    stat = nc_def_compound(ncid, sizeof(cmp), "cmp", &cmp_typ);    CHECK_ERR(stat);
    {
    static int cmp_PERIOD_f2_dims[1] = {
2};    static int cmp_PERIOD_nm_dims[1] = {
3};    stat = nc_insert_compound(ncid, cmp_typ, "f1", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_f1), NC_INT);    CHECK_ERR(stat);
    stat = nc_insert_array_compound(ncid, cmp_typ, "f2", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_f2), NC_FLOAT, 1, cmp_PERIOD_f2_dims);    CHECK_ERR(stat);
    stat = nc_insert_array_compound(ncid, cmp_typ, "nm", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_nm), NC_CHAR, 1, cmp_PERIOD_nm_dims);    CHECK_ERR(stat);
    }


    /* define dimensions */
    stat = nc_def_dim(ncid, "d", d_len, &d_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(ncid, "d2", d2_len, &d2_dim);
    CHECK_ERR(stat);

    /* define variables */

    v_dims[0] = d_dim;
    stat = nc_def_var(ncid, "v", NC_INT, RANK_v, v_dims, &v_id);
    CHECK_ERR(stat);

    e_dims[0] = d_dim;
    stat = nc_def_var(ncid, "e", col_typ, RANK_e, e_dims, &e_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "o", op_typ, RANK_o, 0, &o_id);
    CHECK_ERR(stat);

    x_dims[0] = d_dim;
    stat = nc_def_var(ncid, "x", vl_typ, RANK_x, x_dims, &x_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "c", cmp_typ, RANK_c, 0, &c_id);
    CHECK_ERR(stat);

    stat = nc_def_var(ncid, "s", NC_STRING, RANK_s, 0, &s_id);
    CHECK_ERR(stat);

    w_dims[0] = d2_dim;
    stat = nc_def_var(ncid, "w", NC_DOUBLE, RANK_w, w_dims, &w_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "g", 1, "x");
    CHECK_ERR(stat);
    }

    {
    static const unsigned char types_u_att[2] = {1U, 2U} ;
    stat = nc_put_att_ubyte(ncid, NC_GLOBAL, "u", NC_UBYTE, 2, types_u_att);    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(ncid, NC_GLOBAL, "s", 3, "ab\n");
    CHECK_ERR(stat);
    }

    {
    static const short g1_ga_att[1] = {3} ;
    stat = nc_put_att_short(ncid, NC_GLOBAL, "ga", NC_SHORT, 1, g1_ga_att);
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    static const int types_a_att[1] = {1} ;
    stat = nc_put_att_int(ncid, v_id, "a", NC_INT, 1, types_a_att);
    CHECK_ERR(stat);
    }

    {
    static const double g1_b_att[1] = {((double)2.5)} ;
    stat = nc_put_att_double(ncid, w_id, "b", NC_DOUBLE, 1, g1_b_att);
    CHECK_ERR(stat);
    }

    {
    static const double g1_c_att[1] = {nan} ;
    stat = nc_put_att_double(ncid, w_id, "c", NC_DOUBLE, 1, g1_c_att);
    CHECK_ERR(stat);
    }


    /* leave define mode */
    stat = nc_enddef (ncid);
    CHECK_ERR(stat);

    /* assign variable data */

    {
    int v_data[2] = {1, 2} ;
    size_t v_startset[1] = {0} ;
    size_t v_countset[1] = {2};
    stat = nc_put_vara(ncid, v_id, v_startset, v_countset, v_data);
    CHECK_ERR(stat);
    }


    {
    col e_data[2] = {1, 2} ;
    size_t e_startset[1] = {0} ;
    size_t e_countset[1] = {2};
    stat = nc_put_vara(ncid, e_id, e_startset, e_countset, e_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static op o_data[1] = {"\xabcdef\xcdef\xef"};
    stat = nc_put_var1(ncid, o_id, &count, o_data);
    CHECK_ERR(stat);
    }


    {
    static const int vlen_9[] = {1, 2} ;
    static const int vlen_10[] = {3} ;
    vl x_data[2] = {{2, (void*)vlen_9}, {1, (void*)vlen_10}} ;
    size_t x_startset[1] = {0} ;
    size_t x_countset[1] = {2};
    stat = nc_put_vara(ncid, x_id, x_startset, x_countset, x_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static cmp c_data[1] = {{7, {((float)1.5), ((float)2)}, ab}};
    stat = nc_put_var1(ncid, c_id, &count, c_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static char* s_data[1] = {"hi"};
    stat = nc_put_var1(ncid, s_id, &count, s_data);
    CHECK_ERR(stat);
    }


    {
    double w_data[1] = {((double)1)} ;
    size_t w_startset[1] = {0} ;
    size_t w_countset[1] = {1};
    stat = nc_put_vara(ncid, w_id, w_startset, w_countset, w_data);
    CHECK_ERR(stat);
    }


    stat = nc_close(ncid);
    CHECK_ERR(stat);
    return 0;
}

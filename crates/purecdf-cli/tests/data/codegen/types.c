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

static size_t v_chunksizes[1] = {2} ;
static unsigned int v_0_filterparams[1] = {9U} ;

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

    /* group ids */
    int types_grp;
    int g1_grp;

    /* type ids */
    int col_typ;
    int op_typ;
    int vl_typ;
    int cmp_typ;

    /* dimension ids */
    int d_dim;
    int g1_SLASH_d2_dim;

    /* dimension lengths */
    size_t d_len = 2;
    size_t g1_SLASH_d2_len = 1;

    /* variable ids */
    int v_id;
    int e_id;
    int o_id;
    int x_id;
    int c_id;
    int s_id;
    int g1_SLASH_w_id;

    /* rank (number of dimensions) for each variable */
#   define RANK_v 1
#   define RANK_e 1
#   define RANK_o 0
#   define RANK_x 1
#   define RANK_c 0
#   define RANK_s 0
#   define RANK_g1_SLASH_w 1

    /* variable shapes */
    int v_dims[RANK_v];
    int e_dims[RANK_e];
    int x_dims[RANK_x];
    int g1_SLASH_w_dims[RANK_g1_SLASH_w];

    /* enter define mode */
    stat = nc_create("types.nc", NC_CLOBBER|NC_NETCDF4, &ncid);
    CHECK_ERR(stat);
    types_grp = ncid;
    stat = nc_def_grp(types_grp, "g1", &g1_grp);
    CHECK_ERR(stat);

    {
    signed char econst;
    stat = nc_def_enum(types_grp, NC_BYTE, "col", &col_typ);
    CHECK_ERR(stat);
    econst = 1;
    stat = nc_insert_enum(types_grp, col_typ, "RED", &econst);
    econst = 2;
    stat = nc_insert_enum(types_grp, col_typ, "GREEN", &econst);
    }

    stat = nc_def_opaque(types_grp, 3, "op", &op_typ);
    CHECK_ERR(stat);

    stat = nc_def_vlen(types_grp, "vl", NC_INT, &vl_typ);    CHECK_ERR(stat);

    stat = nc_def_compound(types_grp, sizeof(cmp), "cmp", &cmp_typ);    CHECK_ERR(stat);
    {
    static int cmp_PERIOD_f2_dims[1] = {
2};    static int cmp_PERIOD_nm_dims[1] = {
3};    stat = nc_insert_compound(types_grp, cmp_typ, "f1", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_f1), NC_INT);    CHECK_ERR(stat);
    stat = nc_insert_array_compound(types_grp, cmp_typ, "f2", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_f2), NC_FLOAT, 1, cmp_PERIOD_f2_dims);    CHECK_ERR(stat);
    stat = nc_insert_array_compound(types_grp, cmp_typ, "nm", NC_COMPOUND_OFFSET(cmp,cmp_PERIOD_nm), NC_CHAR, 1, cmp_PERIOD_nm_dims);    CHECK_ERR(stat);
    }


    /* define dimensions */
    stat = nc_def_dim(types_grp, "d", d_len, &d_dim);
    CHECK_ERR(stat);
    stat = nc_def_dim(g1_grp, "d2", g1_SLASH_d2_len, &g1_SLASH_d2_dim);
    CHECK_ERR(stat);

    /* define variables */

    v_dims[0] = d_dim;
    stat = nc_def_var(types_grp, "v", NC_INT, RANK_v, v_dims, &v_id);
    CHECK_ERR(stat);
    stat = nc_def_var_chunking(types_grp, v_id, NC_CHUNKED, v_chunksizes);
    CHECK_ERR(stat);
    stat = nc_def_var_fill(types_grp, v_id, NC_NOFILL, NULL);
    CHECK_ERR(stat);
    stat = nc_def_var_filter(types_grp, v_id, 307, 1, v_0_filterparams);
    CHECK_ERR(stat);

    e_dims[0] = d_dim;
    stat = nc_def_var(types_grp, "e", col_typ, RANK_e, e_dims, &e_id);
    CHECK_ERR(stat);

    stat = nc_def_var(types_grp, "o", op_typ, RANK_o, 0, &o_id);
    CHECK_ERR(stat);

    x_dims[0] = d_dim;
    stat = nc_def_var(types_grp, "x", vl_typ, RANK_x, x_dims, &x_id);
    CHECK_ERR(stat);

    stat = nc_def_var(types_grp, "c", cmp_typ, RANK_c, 0, &c_id);
    CHECK_ERR(stat);

    stat = nc_def_var(types_grp, "s", NC_STRING, RANK_s, 0, &s_id);
    CHECK_ERR(stat);

    g1_SLASH_w_dims[0] = g1_SLASH_d2_dim;
    stat = nc_def_var(g1_grp, "w", NC_DOUBLE, RANK_g1_SLASH_w, g1_SLASH_w_dims, &g1_SLASH_w_id);
    CHECK_ERR(stat);

    /* assign global attributes */

    {
    stat = nc_put_att_text(types_grp, NC_GLOBAL, "g", 1, "x");
    CHECK_ERR(stat);
    }

    {
    static const unsigned char u_att[2] = {1U, 2U} ;
    stat = nc_put_att_ubyte(types_grp, NC_GLOBAL, "u", NC_UBYTE, 2, u_att);    CHECK_ERR(stat);
    }

    {
    stat = nc_put_att_text(types_grp, NC_GLOBAL, "s", 3, "ab\n");
    CHECK_ERR(stat);
    }

    {
    static const short g1_ga_att[1] = {3} ;
    stat = nc_put_att_short(g1_grp, NC_GLOBAL, "ga", NC_SHORT, 1, g1_ga_att);
    CHECK_ERR(stat);
    }


    /* assign per-variable attributes */

    {
    static const int a_att[1] = {1} ;
    stat = nc_put_att_int(types_grp, v_id, "a", NC_INT, 1, a_att);
    CHECK_ERR(stat);
    }

    {
    static const double g1_b_att[1] = {((double)2.5)} ;
    stat = nc_put_att_double(g1_grp, g1_SLASH_w_id, "b", NC_DOUBLE, 1, g1_b_att);
    CHECK_ERR(stat);
    }

    {
    static const double g1_c_att[1] = {nan} ;
    stat = nc_put_att_double(g1_grp, g1_SLASH_w_id, "c", NC_DOUBLE, 1, g1_c_att);
    CHECK_ERR(stat);
    }


    /* leave define mode */
    stat = nc_enddef (types_grp);
    CHECK_ERR(stat);

    /* assign variable data */

    {
    int v_data[2] = {1, 2} ;
    size_t v_startset[1] = {0} ;
    size_t v_countset[1] = {2};
    stat = nc_put_vara(types_grp, v_id, v_startset, v_countset, v_data);
    CHECK_ERR(stat);
    }


    {
    col e_data[2] = {1, 2} ;
    size_t e_startset[1] = {0} ;
    size_t e_countset[1] = {2};
    stat = nc_put_vara(types_grp, e_id, e_startset, e_countset, e_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static op o_data[1] = {"\xabcdef\xcdef\xef"};
    stat = nc_put_var1(types_grp, o_id, &count, o_data);
    CHECK_ERR(stat);
    }


    {
    static const int vlen_9[] = {1, 2} ;
    static const int vlen_10[] = {3} ;
    vl x_data[2] = {{2, (void*)vlen_9}, {1, (void*)vlen_10}} ;
    size_t x_startset[1] = {0} ;
    size_t x_countset[1] = {2};
    stat = nc_put_vara(types_grp, x_id, x_startset, x_countset, x_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static cmp c_data[1] = {{7, {((float)1.5), ((float)2)}, ab}};
    stat = nc_put_var1(types_grp, c_id, &count, c_data);
    CHECK_ERR(stat);
    }


    {
    size_t count = 0;
    static char* s_data[1] = {"hi"};
    stat = nc_put_var1(types_grp, s_id, &count, s_data);
    CHECK_ERR(stat);
    }


    {
    double g1_SLASH_w_data[1] = {((double)1)} ;
    size_t g1_SLASH_w_startset[1] = {0} ;
    size_t g1_SLASH_w_countset[1] = {1};
    stat = nc_put_vara(g1_grp, g1_SLASH_w_id, g1_SLASH_w_startset, g1_SLASH_w_countset, g1_SLASH_w_data);
    CHECK_ERR(stat);
    }


    stat = nc_close(types_grp);
    CHECK_ERR(stat);
    return 0;
}

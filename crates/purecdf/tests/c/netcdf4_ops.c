/* Drives netcdf-c through the netCDF-4 scenarios of tests/netcdf4_ops.rs, which repeats each one
 * with purecdf; the test compares netcdf-c's `ncdump -s` of the two files (less _NCProperties)
 * and, where a scenario prints error codes, the codes.
 * Usage: netcdf4_ops <scenario> <output file>
 * Built at test time: cc netcdf4_ops.c -lnetcdf */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "line %d: %s\n", __LINE__, nc_strerror(s_)); exit(1); } } while (0)
#define CODE(e) printf("%d\n", (e))

/* Every atomic type in variables and attributes, strings, default and custom fills, no-fill. */
static void types(const char *p) {
    int nc, x, v[12], nf, s;
    signed char b[3] = {-1, 0, 1};
    short sh[3] = {-300, 0, 300};
    int in[3] = {-70000, 0, 70000};
    float fl[3] = {-1.5f, 0, 2.25f};
    double db[3] = {-1e300, 0, 1e-300};
    unsigned char ub[3] = {0, 128, 255};
    unsigned short us[3] = {0, 40000, 65535};
    unsigned int ui[3] = {0, 3000000000u, 4294967295u};
    long long i8[3] = {-9000000000000LL, 0, 9000000000000LL};
    unsigned long long u8[3] = {0, 1, 18000000000000000000ULL};
    const char *str[3] = {"", "two", "three é"};
    int fillv = -9;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "x", 3, &x));
    CHECK(nc_def_var(nc, "b", NC_BYTE, 1, &x, &v[0]));
    CHECK(nc_def_var(nc, "c", NC_CHAR, 1, &x, &v[1]));
    CHECK(nc_def_var(nc, "s", NC_SHORT, 1, &x, &v[2]));
    CHECK(nc_def_var(nc, "i", NC_INT, 1, &x, &v[3]));
    CHECK(nc_def_var(nc, "f", NC_FLOAT, 1, &x, &v[4]));
    CHECK(nc_def_var(nc, "d", NC_DOUBLE, 1, &x, &v[5]));
    CHECK(nc_def_var(nc, "ub", NC_UBYTE, 1, &x, &v[6]));
    CHECK(nc_def_var(nc, "us", NC_USHORT, 1, &x, &v[7]));
    CHECK(nc_def_var(nc, "ui", NC_UINT, 1, &x, &v[8]));
    CHECK(nc_def_var(nc, "i8", NC_INT64, 1, &x, &v[9]));
    CHECK(nc_def_var(nc, "u8", NC_UINT64, 1, &x, &v[10]));
    CHECK(nc_def_var(nc, "str", NC_STRING, 1, &x, &v[11]));
    CHECK(nc_def_var(nc, "filled", NC_INT, 1, &x, &nf));
    CHECK(nc_put_att_int(nc, nf, "_FillValue", NC_INT, 1, &fillv));
    CHECK(nc_def_var(nc, "nofill", NC_SHORT, 1, &x, &s));
    CHECK(nc_def_var_fill(nc, s, NC_NOFILL, NULL));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "title", 5, "types"));
    CHECK(nc_put_att_schar(nc, NC_GLOBAL, "ab", NC_BYTE, 3, b));
    CHECK(nc_put_att_short(nc, NC_GLOBAL, "as", NC_SHORT, 3, sh));
    CHECK(nc_put_att_int(nc, NC_GLOBAL, "ai", NC_INT, 3, in));
    CHECK(nc_put_att_float(nc, NC_GLOBAL, "af", NC_FLOAT, 3, fl));
    CHECK(nc_put_att_double(nc, NC_GLOBAL, "ad", NC_DOUBLE, 3, db));
    CHECK(nc_put_att_uchar(nc, NC_GLOBAL, "aub", NC_UBYTE, 3, ub));
    CHECK(nc_put_att_ushort(nc, NC_GLOBAL, "aus", NC_USHORT, 3, us));
    CHECK(nc_put_att_uint(nc, NC_GLOBAL, "aui", NC_UINT, 3, ui));
    CHECK(nc_put_att_longlong(nc, NC_GLOBAL, "ai8", NC_INT64, 3, i8));
    CHECK(nc_put_att_ulonglong(nc, NC_GLOBAL, "au8", NC_UINT64, 3, u8));
    CHECK(nc_put_att_string(nc, NC_GLOBAL, "astr", 3, str));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "empty", 0, ""));
    CHECK(nc_put_att_int(nc, NC_GLOBAL, "noints", NC_INT, 0, in));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_schar(nc, v[0], b));
    CHECK(nc_put_var_text(nc, v[1], "abc"));
    CHECK(nc_put_var_short(nc, v[2], sh));
    CHECK(nc_put_var_int(nc, v[3], in));
    CHECK(nc_put_var_float(nc, v[4], fl));
    CHECK(nc_put_var_double(nc, v[5], db));
    CHECK(nc_put_var_uchar(nc, v[6], ub));
    CHECK(nc_put_var_ushort(nc, v[7], us));
    CHECK(nc_put_var_uint(nc, v[8], ui));
    CHECK(nc_put_var_longlong(nc, v[9], i8));
    CHECK(nc_put_var_ulonglong(nc, v[10], u8));
    size_t st = 1, ct = 2;
    CHECK(nc_put_vara_string(nc, v[11], &st, &ct, str + 1));
    st = 2; ct = 1;
    CHECK(nc_put_vara_int(nc, nf, &st, &ct, in + 2));
    CHECK(nc_put_var_short(nc, s, sh));
    CHECK(nc_close(nc));
}

typedef struct { int id; double val; char tag[3]; short arr[2][2]; } rec_t;

/* Groups, dimensions of ancestors, user types (compound with arrays, vlen, enum, opaque). */
static void groups(const char *p) {
    int nc, g1, g2, t, x, y, cmp, vl, en, op, v1, v2, v3, v4, v5;
    rec_t r[2] = {{1, 1.5, "ab", {{1, 2}, {3, 4}}}, {2, -2.5, "cd", {{5, 6}, {7, 8}}}};
    int vl1[3] = {1, 2, 3}, vl2[1] = {4};
    nc_vlen_t vd[2] = {{3, vl1}, {1, vl2}};
    signed char ev[2] = {2, 0};
    unsigned char ov[2][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
    float dv[6] = {1, 2, 3, 4, 5, 6};
    int dims[3] = {3, 2, 2};
    int adims[2] = {2, 2};
    signed char e0 = 0, e1 = 1, e2 = 2;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "x", 2, &x));
    CHECK(nc_def_grp(nc, "g1", &g1));
    CHECK(nc_def_grp(g1, "g2", &g2));
    CHECK(nc_def_compound(g1, sizeof(rec_t), "rec_t", &cmp));
    CHECK(nc_insert_compound(g1, cmp, "id", offsetof(rec_t, id), NC_INT));
    CHECK(nc_insert_compound(g1, cmp, "val", offsetof(rec_t, val), NC_DOUBLE));
    dims[0] = 3;
    CHECK(nc_insert_array_compound(g1, cmp, "tag", offsetof(rec_t, tag), NC_CHAR, 1, dims));
    CHECK(nc_insert_array_compound(g1, cmp, "arr", offsetof(rec_t, arr), NC_SHORT, 2, adims));
    CHECK(nc_def_vlen(g1, "vlen_t", NC_INT, &vl));
    CHECK(nc_def_enum(nc, NC_BYTE, "color_t", &en));
    CHECK(nc_insert_enum(nc, en, "red", &e0));
    CHECK(nc_insert_enum(nc, en, "green", &e1));
    CHECK(nc_insert_enum(nc, en, "blue", &e2));
    CHECK(nc_def_opaque(g2, 5, "blob_t", &op));
    CHECK(nc_def_dim(g1, "y", 3, &y));
    CHECK(nc_def_var(g1, "recs", cmp, 1, &x, &v1));
    CHECK(nc_def_var(g1, "vl", vl, 1, &x, &v2));
    CHECK(nc_def_var(nc, "colors", en, 1, &x, &v3));
    CHECK(nc_def_var(g2, "blobs", op, 1, &x, &v4));
    int d2[2] = {t, y};
    CHECK(nc_def_var(g2, "data", NC_FLOAT, 2, d2, &v5));
    CHECK(nc_put_att(g1, v1, "first", cmp, 1, r));
    CHECK(nc_put_att_text(g2, NC_GLOBAL, "where", 6, "inside"));
    CHECK(nc_put_att(nc, NC_GLOBAL, "favourite", en, 1, &e2));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var(g1, v1, r));
    CHECK(nc_put_var(g1, v2, vd));
    CHECK(nc_put_var(nc, v3, ev));
    CHECK(nc_put_var(g2, v4, ov));
    size_t st[2] = {0, 0}, ct[2] = {2, 3};
    CHECK(nc_put_vara_float(g2, v5, st, ct, dv));
    CHECK(nc_close(nc));
}

/* Chunking, filters, byte order and compact storage as the API sets them. */
static void storage(const char *p) {
    int nc, t, x, y, a, b, c, d, e, f, g;
    size_t ch[2] = {2, 5};
    float fv[40];
    for (int i = 0; i < 40; i++) fv[i] = (float)i / 4;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "x", 4, &x));
    CHECK(nc_def_dim(nc, "y", 10, &y));
    int dd[2] = {x, y}, td[2] = {t, y};
    CHECK(nc_def_var(nc, "chunked", NC_FLOAT, 2, dd, &a));
    CHECK(nc_def_var_chunking(nc, a, NC_CHUNKED, ch));
    CHECK(nc_def_var(nc, "deflated", NC_FLOAT, 2, dd, &b));
    CHECK(nc_def_var_deflate(nc, b, 1, 1, 4));
    CHECK(nc_def_var(nc, "checked", NC_FLOAT, 2, td, &c));
    CHECK(nc_def_var_fletcher32(nc, c, 1));
    CHECK(nc_def_var_deflate(nc, c, 0, 1, 9));
    CHECK(nc_def_var(nc, "big", NC_INT, 2, dd, &d));
    CHECK(nc_def_var_endian(nc, d, NC_ENDIAN_BIG));
    CHECK(nc_def_var(nc, "compact", NC_SHORT, 1, &x, &e));
    CHECK(nc_def_var_chunking(nc, e, NC_COMPACT, NULL));
    CHECK(nc_def_var(nc, "contig", NC_DOUBLE, 2, dd, &f));
    CHECK(nc_def_var_chunking(nc, f, NC_CONTIGUOUS, NULL));
    CHECK(nc_def_var(nc, "shuffled", NC_INT, 1, &t, &g));
    CHECK(nc_def_var_deflate(nc, g, 1, 0, 0));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_float(nc, a, fv));
    CHECK(nc_put_var_float(nc, b, fv));
    size_t st[2] = {1, 0}, ct[2] = {2, 10};
    CHECK(nc_put_vara_float(nc, c, st, ct, fv));
    int iv[40];
    for (int i = 0; i < 40; i++) iv[i] = i * 1000 - 7;
    CHECK(nc_put_var_int(nc, d, iv));
    short sv[4] = {9, 8, 7, 6};
    CHECK(nc_put_var_short(nc, e, sv));
    size_t s1 = 3, c1 = 2;
    CHECK(nc_put_vara_int(nc, g, &s1, &c1, iv));
    CHECK(nc_close(nc));
}

/* Several unlimited dimensions, strided and partial writes, reopen and append. */
static void records(const char *p) {
    int nc, t, u, x, v, w;
    int iv[12];
    for (int i = 0; i < 12; i++) iv[i] = i;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "u", NC_UNLIMITED, &u));
    CHECK(nc_def_dim(nc, "x", 3, &x));
    int d3[3] = {t, u, x};
    CHECK(nc_def_var(nc, "v", NC_INT, 3, d3, &v));
    CHECK(nc_def_var(nc, "w", NC_DOUBLE, 1, &t, &w));
    CHECK(nc_enddef(nc));
    size_t st[3] = {1, 2, 0}, ct[3] = {2, 2, 3};
    ptrdiff_t sd[3] = {2, 1, 1};
    CHECK(nc_put_vars_int(nc, v, st, ct, sd, iv));
    double wv[2] = {0.5, 1.5};
    size_t ws = 4, wc = 2;
    CHECK(nc_put_vara_double(nc, w, &ws, &wc, wv));
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_inq_varid(nc, "w", &w));
    CHECK(nc_inq_varid(nc, "v", &v));
    ws = 7; wc = 1;
    CHECK(nc_put_vara_double(nc, w, &ws, &wc, wv));
    size_t s2[3] = {0, 0, 1}, c2[3] = {1, 1, 2};
    CHECK(nc_put_vara_int(nc, v, s2, c2, iv + 10));
    CHECK(nc_put_att_text(nc, w, "units", 1, "s"));
    int a;
    CHECK(nc_def_var(nc, "added", NC_SHORT, 1, &x, &a));
    short av[3] = {1, 2, 3};
    CHECK(nc_put_var_short(nc, a, av));
    CHECK(nc_close(nc));
}

/* Classic-model files: what netCDF-4 features are refused, and with which code. */
static void classic_model(const char *p) {
    int nc, x, t, u, v, g, ty;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4 | NC_CLASSIC_MODEL, &nc));
    CHECK(nc_def_dim(nc, "x", 2, &x));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CODE(nc_def_dim(nc, "u", NC_UNLIMITED, &u));
    CODE(nc_def_var(nc, "ub", NC_UBYTE, 1, &x, &v));
    CODE(nc_def_grp(nc, "g", &g));
    CODE(nc_def_opaque(nc, 3, "o", &ty));
    CHECK(nc_def_var(nc, "v", NC_INT, 1, &x, &v));
    CHECK(nc_put_att_text(nc, v, "units", 1, "m"));
    CHECK(nc_enddef(nc));
    CODE(nc_put_att_text(nc, v, "new", 1, "n"));
    CODE(nc_def_dim(nc, "late", 3, &u));
    int iv[2] = {4, 5};
    CHECK(nc_put_var_int(nc, v, iv));
    CHECK(nc_redef(nc));
    CODE(nc_put_var_int(nc, v, iv));
    CHECK(nc_put_att_text(nc, v, "new", 1, "n"));
    CHECK(nc_close(nc));
}

/* Error codes of netCDF-4 definitions. */
static void errors(const char *p) {
    int nc, x, v, s, sc, str;
    size_t big[1] = {5};
    size_t zero[1] = {0};
    short fill = 1;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "x", 3, &x));
    CHECK(nc_def_var(nc, "v", NC_INT, 1, &x, &v));
    CHECK(nc_def_var(nc, "sc", NC_INT, 0, NULL, &sc));
    CHECK(nc_def_var(nc, "str", NC_STRING, 1, &x, &str));
    CODE(nc_def_var_chunking(nc, v, NC_CHUNKED, big));
    CODE(nc_def_var_chunking(nc, sc, NC_CHUNKED, NULL));
    CODE(nc_def_var_deflate(nc, sc, 0, 1, 1));
    CODE(nc_def_var_deflate(nc, v, 0, 1, 10));
    CODE(nc_def_var_deflate(nc, str, 0, 1, 1));
    CODE(nc_def_var_endian(nc, str, NC_ENDIAN_BIG));
    CODE(nc_def_var_fill(nc, str, NC_NOFILL, NULL));
    CODE(nc_put_att_short(nc, v, "_FillValue", NC_SHORT, 1, &fill));
    /* netcdf-c 4.9.0 leaves an empty _FillValue behind after that NC_EBADTYPE; remove it. */
    nc_del_att(nc, v, "_FillValue");
    CODE(nc_def_var(nc, "v", NC_INT, 1, &x, &s));
    CODE(nc_def_grp(nc, "v", &s));
    CODE(nc_def_var_chunking(nc, v, NC_CHUNKED, zero));
    CHECK(nc_enddef(nc));
    CODE(nc_def_var_deflate(nc, v, 0, 1, 1));
    CODE(nc_def_var_chunking(nc, v, NC_CONTIGUOUS, NULL));
    int iv = 3;
    CODE(nc_put_att_int(nc, v, "_FillValue", NC_INT, 1, &iv));
    CHECK(nc_close(nc));
}

/* Renames before and after the objects exist, attribute rewrites. */
static void renames(const char *p) {
    int nc, x, v, w, g;
    int iv[2] = {1, 2};
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "x", 2, &x));
    CHECK(nc_def_var(nc, "v", NC_INT, 1, &x, &v));
    CHECK(nc_def_var(nc, "w", NC_INT, 1, &x, &w));
    CHECK(nc_def_grp(nc, "grp", &g));
    CHECK(nc_put_att_text(nc, v, "a1", 1, "1"));
    CHECK(nc_put_att_text(nc, v, "a2", 1, "2"));
    CHECK(nc_put_att_text(nc, v, "a3", 1, "3"));
    CHECK(nc_rename_var(nc, w, "w_early"));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_int(nc, v, iv));
    CHECK(nc_rename_var(nc, v, "v_late"));
    CHECK(nc_rename_att(nc, v, "a2", "b2"));
    CHECK(nc_put_att_text(nc, v, "a1", 3, "one"));
    CHECK(nc_rename_grp(g, "group"));
    CHECK(nc_del_att(nc, v, "a3"));
    CHECK(nc_close(nc));
}

/* Quantization of floats and doubles, with fill values and several writes. */
static void quantize(const char *p) {
    int nc, x, a, b, c, d, e;
    float fv[6] = {3.14159265f, 2.71828f, 1e10f, -0.333333f, 0, 123.456f};
    double dv[6] = {3.14159265, 2.71828, 1e10, -0.333333, 0, 123.456};
    float fill = 2.71828f;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &nc));
    CHECK(nc_def_dim(nc, "x", 6, &x));
    CHECK(nc_def_var(nc, "groom", NC_FLOAT, 1, &x, &a));
    CHECK(nc_def_var_quantize(nc, a, NC_QUANTIZE_BITGROOM, 3));
    CHECK(nc_def_var(nc, "granular", NC_DOUBLE, 1, &x, &b));
    CHECK(nc_def_var_quantize(nc, b, NC_QUANTIZE_GRANULARBR, 4));
    CHECK(nc_def_var(nc, "round", NC_FLOAT, 1, &x, &c));
    CHECK(nc_put_att_float(nc, c, "_FillValue", NC_FLOAT, 1, &fill));
    CHECK(nc_def_var_quantize(nc, c, NC_QUANTIZE_BITROUND, 9));
    CHECK(nc_def_var(nc, "dgroom", NC_DOUBLE, 1, &x, &d));
    CHECK(nc_def_var_quantize(nc, d, NC_QUANTIZE_BITGROOM, 5));
    CHECK(nc_put_att_text(nc, d, "units", 1, "K"));
    CHECK(nc_def_var(nc, "i", NC_INT, 1, &x, &e));
    CODE(nc_def_var_quantize(nc, e, NC_QUANTIZE_BITGROOM, 3));
    CODE(nc_def_var_quantize(nc, a, NC_QUANTIZE_BITGROOM, 8));
    CODE(nc_def_var_quantize(nc, b, NC_QUANTIZE_BITROUND, 53));
    CHECK(nc_enddef(nc));
    CODE(nc_def_var_quantize(nc, a, NC_QUANTIZE_BITGROOM, 2));
    size_t st = 1, ct = 5;
    CHECK(nc_put_vara_float(nc, a, &st, &ct, fv));
    CHECK(nc_put_var_double(nc, b, dv));
    CHECK(nc_put_var_float(nc, c, fv));
    st = 0; ct = 3;
    CHECK(nc_put_vara_double(nc, d, &st, &ct, dv));
    st = 3;
    CHECK(nc_put_vara_double(nc, d, &st, &ct, dv + 3));
    CHECK(nc_close(nc));
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: netcdf4_ops scenario file\n");
        return 2;
    }
    const char *s = argv[1], *p = argv[2];
    if (!strcmp(s, "types")) types(p);
    else if (!strcmp(s, "groups")) groups(p);
    else if (!strcmp(s, "storage")) storage(p);
    else if (!strcmp(s, "records")) records(p);
    else if (!strcmp(s, "classic_model")) classic_model(p);
    else if (!strcmp(s, "errors")) errors(p);
    else if (!strcmp(s, "renames")) renames(p);
    else if (!strcmp(s, "quantize")) quantize(p);
    else { fprintf(stderr, "unknown scenario %s\n", s); return 2; }
    return 0;
}

/* Drives netcdf-c through the scenarios of tests/classic_ops.rs, which repeats each one with
 * purecdf and compares the files byte for byte (and, for "errors", the error codes).
 * Usage: classic_ops <scenario> <output file>
 * Built at test time: cc classic_ops.c -lnetcdf */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(e) do { int s_ = (e); if (s_) { fprintf(stderr, "line %d: %s\n", __LINE__, nc_strerror(s_)); exit(1); } } while (0)
#define CODE(e) printf("%d\n", (e))

static void redef_grow(const char *p) {
    int nc, t, x, y, a, r, b, r2;
    int av[3] = {1, 2, 3};
    float rv[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    short bv[2] = {-5, 5};
    float more[3] = {10, 11, 12};
    size_t st[2] = {0, 0}, ct[2] = {3, 3};
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "time", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "x", 3, &x));
    CHECK(nc_def_var(nc, "a", NC_INT, 1, &x, &a));
    int rd[2] = {t, x};
    CHECK(nc_def_var(nc, "r", NC_FLOAT, 2, rd, &r));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_int(nc, a, av));
    CHECK(nc_put_vara_float(nc, r, st, ct, rv));
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_redef(nc));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "history", 40, "a long attribute that grows the header.."));
    CHECK(nc_def_dim(nc, "y", 2, &y));
    CHECK(nc_def_var(nc, "b", NC_SHORT, 1, &y, &b));
    CHECK(nc_def_var(nc, "r2", NC_DOUBLE, 1, &t, &r2));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_short(nc, b, bv));
    st[0] = 3; ct[0] = 1;
    CHECK(nc_put_vara_float(nc, r, st, ct, more));
    CHECK(nc_close(nc));
}

static void rename_datamode(const char *p) {
    int nc, d, v;
    double dv[2] = {1.5, 2.5};
    int iv[3] = {1, 2, 3}, iv2[2] = {9, 8};
    CHECK(nc_create(p, NC_CLOBBER | NC_64BIT_OFFSET, &nc));
    CHECK(nc_def_dim(nc, "dimension", 2, &d));
    CHECK(nc_def_var(nc, "longname", NC_DOUBLE, 1, &d, &v));
    CHECK(nc_put_att_int(nc, v, "attname", NC_INT, 3, iv));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "title", 5, "hello"));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_double(nc, v, dv));
    CHECK(nc_rename_var(nc, v, "short"));
    CHECK(nc_rename_att(nc, v, "attname", "a"));
    CHECK(nc_rename_dim(nc, d, "dim"));
    CHECK(nc_put_att_int(nc, v, "a", NC_INT, 2, iv2));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "title", 3, "bye"));
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_redef(nc));
    CHECK(nc_put_att_text(nc, v, "units", 1, "m"));
    CHECK(nc_enddef(nc));
    CHECK(nc_close(nc));
}

static void nofill_append(const char *p) {
    int nc, t, x, v, w, old;
    short sv[2] = {3, 4};
    size_t st[2] = {5, 0}, ct[2] = {1, 2};
    CHECK(nc_create(p, NC_CLOBBER | NC_64BIT_OFFSET, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, &old));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "x", 2, &x));
    int dd[2] = {t, x};
    CHECK(nc_def_var(nc, "v", NC_SHORT, 2, dd, &v));
    CHECK(nc_def_var(nc, "w", NC_BYTE, 1, &t, &w));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_vara_short(nc, v, st, ct, sv));
    CHECK(nc_close(nc));
}

static void cdf5_fill(const char *p) {
    int nc, t, n, v[6];
    unsigned char fub = 1;
    long long fi = -5;
    unsigned short usv[2] = {100, 200};
    unsigned long long u64v[2] = {1, 2};
    long long i64v[2] = {-1, 1};
    unsigned int uiv[2] = {7, 9};
    size_t st[2] = {1, 0}, ct[2] = {1, 2};
    ptrdiff_t sd[2] = {1, 2};
    CHECK(nc_create(p, NC_CLOBBER | NC_CDF5, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "n", 5, &n));
    int dd[2] = {t, n};
    CHECK(nc_def_var(nc, "ub", NC_UBYTE, 1, &n, &v[0]));
    CHECK(nc_put_att_uchar(nc, v[0], "_FillValue", NC_UBYTE, 1, &fub));
    CHECK(nc_def_var(nc, "us", NC_USHORT, 2, dd, &v[1]));
    CHECK(nc_def_var(nc, "ui", NC_UINT, 1, &n, &v[2]));
    CHECK(nc_def_var(nc, "i64", NC_INT64, 2, dd, &v[3]));
    CHECK(nc_put_att_longlong(nc, v[3], "_FillValue", NC_INT64, 1, &fi));
    CHECK(nc_def_var(nc, "u64", NC_UINT64, 1, &n, &v[4]));
    CHECK(nc_def_var(nc, "c", NC_CHAR, 2, dd, &v[5]));
    CHECK(nc_enddef(nc));
    /* strided: us[1, 0:4:2] */
    CHECK(nc_put_vars_ushort(nc, v[1], st, ct, sd, usv));
    size_t s1 = 1, c1 = 2; ptrdiff_t d1 = 2;
    CHECK(nc_put_vars_ulonglong(nc, v[4], &s1, &c1, &d1, u64v)); /* u64[1:4:2] */
    size_t st2[2] = {2, 3}, ct2[2] = {1, 2};
    CHECK(nc_put_vara_longlong(nc, v[3], st2, ct2, i64v));
    size_t s0 = 3, c0 = 2;
    CHECK(nc_put_vara_uint(nc, v[2], &s0, &c0, uiv));
    CHECK(nc_close(nc));
}

static void del_att_shrink(const char *p) {
    int nc, x, a, b, t, r;
    float av[4] = {1, 2, 3, 4};
    int rv[2] = {5, 6};
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "x", 4, &x));
    CHECK(nc_def_var(nc, "a", NC_FLOAT, 1, &x, &a));
    CHECK(nc_def_var(nc, "r", NC_INT, 1, &t, &r));
    CHECK(nc_put_att_text(nc, a, "comment", 30, "thirty characters of comment.."));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "g1", 20, "twenty characters..."));
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_float(nc, a, av));
    size_t st = 0, ct = 2;
    CHECK(nc_put_vara_int(nc, r, &st, &ct, rv));
    CHECK(nc_redef(nc));
    CHECK(nc_del_att(nc, a, "comment"));
    CHECK(nc_del_att(nc, NC_GLOBAL, "g1"));
    CHECK(nc_def_var(nc, "b", NC_BYTE, 1, &x, &b));
    CHECK(nc_enddef(nc));
    CHECK(nc_close(nc));
}

static void single_rec_redef(const char *p) {
    int nc, t, n, r, q;
    short rv[6] = {1, 2, 3, 4, 5, 6};
    size_t st[2] = {0, 0}, ct[2] = {3, 2};
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "n", 2, &n));
    int dd[2] = {t, n};
    CHECK(nc_def_var(nc, "r", NC_SHORT, 2, dd, &r)); /* 4 bytes per record: packed == padded */
    CHECK(nc_enddef(nc));
    CHECK(nc_put_vara_short(nc, r, st, ct, rv));
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_redef(nc));
    CHECK(nc_def_var(nc, "q", NC_BYTE, 1, &t, &q));
    CHECK(nc_enddef(nc));
    CHECK(nc_close(nc));
}

static void odd_rec(const char *p) {
    int nc, t, n, r, q;
    signed char rv[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    size_t st[2] = {0, 0}, ct[2] = {3, 3};
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "n", 3, &n));
    int dd[2] = {t, n};
    CHECK(nc_def_var(nc, "r", NC_BYTE, 2, dd, &r)); /* 3 bytes per record, packed */
    CHECK(nc_enddef(nc));
    CHECK(nc_put_vara_schar(nc, r, st, ct, rv));
    CHECK(nc_redef(nc));
    CHECK(nc_def_var(nc, "q", NC_SHORT, 1, &t, &q));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "note", 9, "grown now"));
    CHECK(nc_enddef(nc));
    CHECK(nc_close(nc));
}

static void big_cdf2(const char *p) {
    int nc, s, b, a, v, old;
    int av[3] = {1, 2, 3};
    float last = 7.5f;
    size_t at = 1199999999;
    CHECK(nc_create(p, NC_CLOBBER | NC_64BIT_OFFSET, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, &old));
    CHECK(nc_def_dim(nc, "small", 3, &s));
    CHECK(nc_def_dim(nc, "big", 1200000000, &b));
    CHECK(nc_def_var(nc, "a", NC_INT, 1, &s, &a));
    CHECK(nc_def_var(nc, "v", NC_FLOAT, 1, &b, &v)); /* 4.8 GB: over 4 GiB, last variable */
    CHECK(nc_enddef(nc));
    CHECK(nc_put_var_int(nc, a, av));
    CHECK(nc_put_var1_float(nc, v, &at, &last));
    CHECK(nc_close(nc));
}

static void errors(const char *p) {
    int nc, t, x, v, id, old;
    int dd[2];
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CODE(nc_def_dim(nc, "t2", NC_UNLIMITED, &id));          /* second unlimited */
    CHECK(nc_def_dim(nc, "x", 3, &x));
    CODE(nc_def_dim(nc, "x", 4, &id));                      /* name in use */
    CODE(nc_def_dim(nc, "bad/name", 4, &id));               /* bad name */
    CODE(nc_def_dim(nc, "big", 2147483645u, &id));          /* too long for CDF-1 */
    dd[0] = x; dd[1] = t;
    CODE(nc_def_var(nc, "v", NC_INT, 2, dd, &id));          /* unlimited not first */
    CODE(nc_def_var(nc, "v", NC_UINT, 1, &x, &id));         /* CDF-5 type in CDF-1 */
    CODE(nc_def_var(nc, "v", NC_STRING, 1, &x, &id));       /* string */
    dd[0] = 7;
    CODE(nc_def_var(nc, "v", NC_INT, 1, dd, &id));          /* bad dim id */
    CHECK(nc_def_var(nc, "v", NC_INT, 1, &x, &v));
    CODE(nc_def_var(nc, "v", NC_INT, 1, &x, &id));          /* var name in use */
    CODE(nc_put_att_uint(nc, v, "u", NC_UINT, 1, (unsigned[]){1})); /* CDF-5 att type */
    CODE(nc_put_att_int(nc, 9, "u", NC_INT, 1, (int[]){1}));         /* no such var */
    CODE(nc_del_att(nc, v, "nothere"));                     /* no such att */
    CODE(nc_put_var_int(nc, v, (int[]){1, 2, 3}));          /* write in define mode */
    CODE(nc_redef(nc));                                     /* already in define mode */
    CHECK(nc_enddef(nc));
    CODE(nc_enddef(nc));                                    /* not in define mode */
    CODE(nc_def_dim(nc, "y", 2, &id));                      /* define op in data mode */
    CODE(nc_put_att_int(nc, v, "new", NC_INT, 1, (int[]){1}));  /* new att in data mode */
    CODE(nc_rename_var(nc, v, "longer"));                   /* grows in data mode */
    CODE(nc_del_att(nc, v, "x"));                           /* del in data mode */
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_NOWRITE, &nc));
    CODE(nc_redef(nc));                                     /* read-only */
    CODE(nc_set_fill(nc, NC_NOFILL, &old));                 /* read-only */
    CHECK(nc_close(nc));
    /* CDF-1 variable too large: two huge fixed variables */
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_def_dim(nc, "h", 1000000000, &x));
    CHECK(nc_def_var(nc, "h1", NC_DOUBLE, 1, &x, &id));
    CHECK(nc_def_var(nc, "h2", NC_DOUBLE, 1, &x, &id));
    CODE(nc_enddef(nc));
    nc_abort(nc);
}


/* No-fill writes spanning several posixio blocks: gaps in a fixed variable, records written out
 * of order, a strided write, a sync in between. */
static void px_nofill_blocks(const char *p, int cmode) {
    int nc, t, n, m, big, r, rb, s, i;
    static short bv[5000];
    static float rv[3000];
    signed char b[3] = {1, 2, 3};
    short sv[1] = {-7};
    size_t st, ct, st2[2], ct2[2];
    ptrdiff_t sd = 2;
    for (i = 0; i < 5000; i++) bv[i] = (short)i;
    for (i = 0; i < 3000; i++) rv[i] = (float)i * 0.5f;
    CHECK(nc_create(p, NC_CLOBBER | cmode, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "n", 3000, &n));
    CHECK(nc_def_dim(nc, "m", 5000, &m));
    CHECK(nc_def_var(nc, "big", NC_SHORT, 1, &m, &big));
    int rd[2] = {t, n};
    CHECK(nc_def_var(nc, "r", NC_FLOAT, 2, rd, &r));
    CHECK(nc_def_var(nc, "rb", NC_BYTE, 1, &t, &rb));
    CHECK(nc_def_var(nc, "s", NC_SHORT, 1, &t, &s));
    CHECK(nc_enddef(nc));
    st = 3000; ct = 1500;
    CHECK(nc_put_vara_short(nc, big, &st, &ct, bv));
    st = 100; ct = 700;
    CHECK(nc_put_vara_short(nc, big, &st, &ct, bv));
    st2[0] = 2; st2[1] = 0; ct2[0] = 1; ct2[1] = 3000;
    CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
    st2[0] = 0; st2[1] = 100; ct2[1] = 2000;
    CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
    st = 1; ct = 3;
    CHECK(nc_put_vars_schar(nc, rb, &st, &ct, &sd, b));
    CHECK(nc_sync(nc));
    st = 4; ct = 1;
    CHECK(nc_put_vara_short(nc, s, &st, &ct, sv));
    st2[0] = 6; st2[1] = 2500; ct2[1] = 500;
    CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
    /* records in order, one record variable after the other, leaving `s` and the padding */
    for (i = 10; i < 15; i++) {
        st2[0] = i; st2[1] = 0; ct2[1] = 3000;
        CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
        st = i; ct = 1;
        CHECK(nc_put_vara_schar(nc, rb, &st, &ct, b));
    }
    CHECK(nc_close(nc));
}

/* The file of px_nofill_blocks reopened: appends, a read that moves the buffer, then a redef
 * whose header outgrows a block and moves every record. */
static void px_reopen_redef(const char *p) {
    int nc, r, s, q, i;
    static float rv[3000];
    static char text[9000];
    float got[10];
    short sv[2] = {11, 12};
    size_t st2[2], ct2[2], st, ct;
    px_nofill_blocks(p, NC_64BIT_DATA);
    for (i = 0; i < 3000; i++) rv[i] = (float)(3000 - i);
    memset(text, 'x', sizeof text);
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
    CHECK(nc_inq_varid(nc, "r", &r));
    CHECK(nc_inq_varid(nc, "s", &s));
    st2[0] = 8; st2[1] = 1000; ct2[0] = 1; ct2[1] = 1000;
    CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
    st2[0] = 2; st2[1] = 5; ct2[1] = 10;
    CHECK(nc_get_vara_float(nc, r, st2, ct2, got));
    st = 7; ct = 2;
    CHECK(nc_put_vara_short(nc, s, &st, &ct, sv));
    CHECK(nc_redef(nc));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "history", sizeof text, text));
    int dims[1] = {0};
    CHECK(nc_def_var(nc, "q", NC_INT, 1, dims, &q));
    CHECK(nc_enddef(nc));
    st2[0] = 9; st2[1] = 0; ct2[1] = 3000;
    CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
    CHECK(nc_close(nc));
}

/* A header of more than 4096 bytes read back at open: netcdf-c's header windows count bytes
 * past the end of the file as valid, and a small write near the header then lengthens it. */
static void px_reopen_big_header(const char *p) {
    int nc, d, v, i;
    static char text[4500];
    int iv[10];
    size_t st = 20, ct = 10;
    for (i = 0; i < 10; i++) iv[i] = i * i;
    memset(text, 'y', sizeof text);
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
    CHECK(nc_def_dim(nc, "d", 100, &d));
    CHECK(nc_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "comment", sizeof text, text));
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_put_vara_int(nc, v, &st, &ct, iv));
    CHECK(nc_close(nc));
}

/* A redef that grows the header a little: records much larger than a block move up by a few
 * bytes through netcdf-c's double buffering (source and destination overlap). */
static void px_redef_small_shift(const char *p) {
    int nc, t, n, r, rb, i;
    static float rv[5000];
    signed char b[1] = {9};
    size_t st2[2], ct2[2], st, ct = 1;
    for (i = 0; i < 5000; i++) rv[i] = (float)i;
    CHECK(nc_create(p, NC_CLOBBER, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
    CHECK(nc_def_dim(nc, "t", NC_UNLIMITED, &t));
    CHECK(nc_def_dim(nc, "n", 5000, &n));
    int rd[2] = {t, n};
    CHECK(nc_def_var(nc, "r", NC_FLOAT, 2, rd, &r));
    CHECK(nc_def_var(nc, "rb", NC_BYTE, 1, &t, &rb));
    CHECK(nc_enddef(nc));
    for (i = 0; i < 3; i++) {
        st2[0] = i; st2[1] = 0; ct2[0] = 1; ct2[1] = 5000;
        CHECK(nc_put_vara_float(nc, r, st2, ct2, rv));
        st = i;
        CHECK(nc_put_vara_schar(nc, rb, &st, &ct, b));
    }
    CHECK(nc_close(nc));
    CHECK(nc_open(p, NC_WRITE, &nc));
    CHECK(nc_set_fill(nc, NC_NOFILL, NULL));
    CHECK(nc_redef(nc));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "note", 20, "twenty characters..."));
    CHECK(nc_enddef(nc));
    CHECK(nc_close(nc));
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const char *s = argv[1], *p = argv[2];
    if (!strcmp(s, "redef_grow")) redef_grow(p);
    else if (!strcmp(s, "rename_datamode")) rename_datamode(p);
    else if (!strcmp(s, "nofill_append")) nofill_append(p);
    else if (!strcmp(s, "cdf5_fill")) cdf5_fill(p);
    else if (!strcmp(s, "del_att_shrink")) del_att_shrink(p);
    else if (!strcmp(s, "single_rec_redef")) single_rec_redef(p);
    else if (!strcmp(s, "odd_rec")) odd_rec(p);
    else if (!strcmp(s, "big_cdf2")) big_cdf2(p);
    else if (!strcmp(s, "errors")) errors(p);
    else if (!strcmp(s, "px_nofill_blocks")) px_nofill_blocks(p, 0);
    else if (!strcmp(s, "px_nofill_blocks64")) px_nofill_blocks(p, NC_64BIT_OFFSET);
    else if (!strcmp(s, "px_reopen_redef")) px_reopen_redef(p);
    else if (!strcmp(s, "px_reopen_big_header")) px_reopen_big_header(p);
    else if (!strcmp(s, "px_redef_small_shift")) px_redef_small_shift(p);
    else return 2;
    return 0;
}

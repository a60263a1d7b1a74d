/* Changes a file made by tests/dense_write.rs with libhdf5 (the 1.10 C library here): adds and
 * deletes links and attributes in the groups whose links and attributes purecdf stored densely,
 * so that the library has to look names up in, insert into and remove from our fractal heaps and
 * v2 B-trees (and convert two of them back to compact storage). tests/data/dense_modify.py does
 * the same through h5py. Build: h5cc -o dense_modify dense_modify.c; run: dense_modify FILE. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what) {
    fprintf(stderr, "dense_modify: failed at %s\n", what);
    exit(1);
}

static void put_ints(hid_t obj, const char *name, const int *v, hsize_t n) {
    hid_t s = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(obj, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
    if (s < 0 || a < 0 || H5Awrite(a, H5T_NATIVE_INT, v) < 0) fail(name);
    H5Aclose(a);
    H5Sclose(s);
}

static hid_t open_group(hid_t f, const char *name) {
    hid_t g = H5Gopen2(f, name, H5P_DEFAULT);
    if (g < 0) fail(name);
    return g;
}

int main(int argc, char **argv) {
    char name[64];
    if (argc != 2) fail("usage: dense_modify FILE");
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) fail("open");

    hid_t g = open_group(f, "g40");
    for (int i = 40; i < 70; i++) {
        snprintf(name, sizeof name, "new_%04d", i);
        hid_t c = H5Gcreate2(g, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (c < 0) fail(name);
        H5Gclose(c);
    }
    for (int i = 1; i < 40; i += 4) {
        if (i % 3 == 0 || i == 5) continue;
        snprintf(name, sizeof name, "sub_%04d", i);
        if (H5Ldelete(g, name, H5P_DEFAULT) < 0) fail(name);
    }
    H5Gclose(g);

    g = open_group(f, "a500");
    for (int i = 500; i < 600; i++) {
        int v[2] = {i, -i};
        snprintf(name, sizeof name, "att_%04d", i);
        put_ints(g, name, v, 2);
    }
    for (int i = 0; i < 500; i += 10) {
        snprintf(name, sizeof name, "att_%04d", i);
        if (H5Adelete(g, name) < 0) fail(name);
    }
    {
        int v[2] = {7, 7};
        hid_t a = H5Aopen(g, "att_0001", H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, H5T_NATIVE_INT, v) < 0) fail("att_0001");
        H5Aclose(a);
    }
    H5Gclose(g);

    g = open_group(f, "big");
    if (H5Adelete(g, "b80k") < 0) fail("b80k");
    {
        int *v = malloc(30000 * sizeof(int));
        if (!v) fail("malloc");
        for (int i = 0; i < 30000; i++) v[i] = i;
        put_ints(g, "more", v, 30000);
        free(v);
    }
    H5Gclose(g);

    g = open_group(f, "a9");
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "att_%04d", i);
        if (H5Adelete(g, name) < 0) fail(name);
    }
    H5Gclose(g);

    g = open_group(f, "g9");
    const char *gone[] = {"sub_0001", "sub_0002", "sub_0004", "soft_0000"};
    for (int i = 0; i < 4; i++)
        if (H5Ldelete(g, gone[i], H5P_DEFAULT) < 0) fail(gone[i]);
    H5Gclose(g);

    g = open_group(f, "mix");
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "sub_%04d", 2 * i);
        if (H5Ldelete(g, name, H5P_DEFAULT) < 0) fail(name);
        snprintf(name, sizeof name, "att_%04d", 2 * i + 1);
        if (H5Adelete(g, name) < 0) fail(name);
    }
    H5Gclose(g);

    {
        int v[1] = {42};
        put_ints(f, "r_new", v, 1);
        if (H5Adelete(f, "r_03") < 0) fail("r_03");
    }
    if (H5Fclose(f) < 0) fail("close");
    return 0;
}

/* Makes h5c_sohm_list.h5 and h5c_sohm_btree.h5 with the system HDF5 (1.10.8): files whose
 * datatypes, dataspaces, fill values, filter pipelines and attributes are shared through the
 * shared object header message table (H5Pset_shared_mesg_nindexes), found through the superblock
 * extension. The first keeps every index a list; the second has phase-change cutoffs that turn
 * the indexes into v2 B-trees, and an object with dense attributes (some of them shared).
 * Build and run:  h5cc -o /tmp/mk make_sohm_fixtures.c && /tmp/mk */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

static void str_att(hid_t obj, const char *name, const char *value) {
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(value));
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, value);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

static void num_att(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v, hsize_t n) {
    hid_t s = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(obj, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, mtype, v);
    H5Aclose(a);
    H5Sclose(s);
}

static void make(const char *path, int btree, int nvars) {
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_shared_mesg_nindexes(fcpl, 3);
    /* Index 0: datatypes and dataspaces; 1: fill values and filter pipelines; 2: attributes. */
    H5Pset_shared_mesg_index(fcpl, 0, H5O_SHMESG_DTYPE_FLAG | H5O_SHMESG_SDSPACE_FLAG, 1);
    H5Pset_shared_mesg_index(fcpl, 1, H5O_SHMESG_FILL_FLAG | H5O_SHMESG_PLINE_FLAG, 1);
    H5Pset_shared_mesg_index(fcpl, 2, H5O_SHMESG_ATTR_FLAG, 1);
    if (btree)
        H5Pset_shared_mesg_phase_change(fcpl, 2, 0); /* lists of at most 2, then B-trees */
    else
        H5Pset_shared_mesg_phase_change(fcpl, 50, 40);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
    str_att(f, "title", "shared messages");
    int ints[3] = {1, 2, 3};
    num_att(f, "ints", H5T_STD_I32LE, H5T_NATIVE_INT, ints, 3);
    hsize_t dims[2] = {4, 5}, chunk[2] = {2, 5};
    for (int v = 0; v < nvars; v++) {
        char name[32];
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 2, chunk);
        H5Pset_deflate(dcpl, 1 + v % 2);
        float fill = -1.0f;
        H5Pset_fill_value(dcpl, H5T_NATIVE_FLOAT, &fill);
        snprintf(name, sizeof name, "var%d", v);
        hid_t d = H5Dcreate2(f, name, v % 3 == 2 ? H5T_IEEE_F32BE : H5T_IEEE_F32LE, space,
                             H5P_DEFAULT, dcpl, H5P_DEFAULT);
        float data[20];
        for (int i = 0; i < 20; i++) data[i] = (float)(v * 100 + i) * 0.5f;
        H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        str_att(d, "units", v % 2 ? "m" : "s");        /* repeated values: one shared copy */
        double scale = 0.5 * v;
        num_att(d, "scale", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &scale, 1);
        H5Dclose(d);
        H5Pclose(dcpl);
        H5Sclose(space);
    }
    /* An integer variable and a group with its own attributes. */
    hid_t g = H5Gcreate2(f, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    str_att(g, "units", "m");
    hsize_t n = 6;
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(g, "ivar", H5T_STD_I16BE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    short iv[6] = {-3, -2, -1, 0, 1, 2};
    H5Dwrite(d, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, iv);
    if (btree) {
        /* Dense attribute storage on this dataset: more attributes than the compact limit. */
        for (int i = 0; i < 12; i++) {
            char an[16];
            snprintf(an, sizeof an, "a%02d", i);
            str_att(d, an, i % 3 ? "same text" : "other");
        }
    }
    H5Dclose(d);
    H5Sclose(space);
    H5Gclose(g);
    H5Fclose(f);
    H5Pclose(fcpl);
}

int main(void) {
    make("h5c_sohm_list.h5", 0, 3);
    make("h5c_sohm_btree.h5", 1, 6);
    return 0;
}

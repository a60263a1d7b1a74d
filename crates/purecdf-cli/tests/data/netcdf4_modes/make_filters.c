/* Makes filters.h5: plain HDF5 datasets with filter pipelines netCDF-4 files do not usually have,
 * and missing_filter.h5: datasets with an optional filter (id 307, bzip2) that no plugin provides,
 * which netcdf-c refuses to read although HDF5 skipped the filter when writing. */
#include <hdf5.h>
#include <string.h>
static hid_t chunked(hsize_t chunk) {
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(p, 1, &chunk);
    return p;
}
static void put(hid_t loc, const char *name, hid_t type, hid_t dcpl, const void *data) {
    hsize_t n = 8;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dwrite(d, type == H5T_STD_I32BE ? H5T_NATIVE_INT : type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Sclose(sp);
}
static void str_att(hid_t loc, const char *name, const char *value) {
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(value));
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, value);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
}
int main(void) {
    int iv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float fv[8] = {1.5f, 2.25f, 3, 4, 5, 6, 7, 8.125f};
    hid_t f = H5Fcreate("filters.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t p;
    /* deflate, then shuffle, then fletcher32: netcdf-c lists fletcher32, shuffle, deflate */
    p = chunked(4);
    H5Pset_deflate(p, 6); H5Pset_shuffle(p); H5Pset_fletcher32(p);
    put(f, "dsf", H5T_NATIVE_INT, p, iv); H5Pclose(p);
    /* shuffle, deflate, shuffle again (netcdf-c keeps one entry, with the last parameters) */
    p = chunked(8);
    H5Pset_shuffle(p); H5Pset_deflate(p, 2); H5Pset_shuffle(p);
    put(f, "twice", H5T_NATIVE_FLOAT, p, fv); H5Pclose(p);
    /* big-endian ints through deflate twice */
    p = chunked(8);
    H5Pset_deflate(p, 1); H5Pset_deflate(p, 9);
    put(f, "deflate2", H5T_STD_I32BE, p, iv); H5Pclose(p);
    /* szip with the CHIP and K13 option bits in the stored mask */
    p = chunked(8);
    H5Pset_szip(p, H5_SZIP_NN_OPTION_MASK | H5_SZIP_CHIP_OPTION_MASK | H5_SZIP_ALLOW_K13_OPTION_MASK, 8);
    put(f, "szip", H5T_NATIVE_INT, p, iv); H5Pclose(p);
    /* reserved attribute names on a dataset and a group: netcdf-c hides them */
    hid_t g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    p = chunked(2);
    H5Pset_fletcher32(p); H5Pset_deflate(p, 4);
    put(g, "v", H5T_NATIVE_INT, p, iv); H5Pclose(p);
    hid_t d = H5Dopen2(g, "v", H5P_DEFAULT);
    str_att(d, "_Codecs", "[{\"id\": \"zlib\", \"level\": 4}]");
    str_att(d, "_Format", "netCDF-4");
    str_att(d, "units", "m");
    H5Dclose(d);
    str_att(g, "_NCZARR_ATTR", "{}");
    str_att(g, "title", "g");
    H5Gclose(g);
    H5Fclose(f);

    f = H5Fcreate("missing_filter.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    unsigned cd[2] = {9, 7};
    p = chunked(4);
    if (H5Pset_filter(p, 307, H5Z_FLAG_OPTIONAL, 2, cd) < 0)
        return 1;
    H5Pset_deflate(p, 3);
    put(f, "v", H5T_NATIVE_INT, p, iv);
    H5Pclose(p);
    H5Fclose(f);
    return 0;
}

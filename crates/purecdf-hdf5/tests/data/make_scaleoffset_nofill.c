/* Makes h5c_scaleoffset_nofill.h5 with the system HDF5 (1.10.8): scale-offset datasets whose fill
 * value is undefined (H5Pset_fill_value with NULL), which h5py cannot ask for. Build and run:
 *   h5cc -o /tmp/mk make_scaleoffset_nofill.c && /tmp/mk */
#include <hdf5.h>

static void make(hid_t f, const char *name, hid_t ftype, hid_t mtype, const void *data, hsize_t n,
                 hsize_t chunk, H5Z_SO_scale_type_t st, int factor) {
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    H5Pset_fill_value(dcpl, ftype, NULL);
    H5Pset_scaleoffset(dcpl, st, factor);
    hid_t d = H5Dcreate2(f, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

int main(void) {
    hid_t f = H5Fcreate("h5c_scaleoffset_nofill.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    int i4[40];
    unsigned short same[12];
    long long i8[30];
    float f4[30];
    double f8[30], f8same[10];
    for (int i = 0; i < 40; i++) i4[i] = (i * 13) % 70 - 35;
    for (int i = 0; i < 12; i++) same[i] = 4242;
    for (int i = 0; i < 30; i++) {
        i8[i] = (long long)i * 1000003LL - 5000000000LL;
        f4[i] = (float)i * 0.37f - 3.0f;
        f8[i] = (double)i * 2.5 - 31.25;
    }
    for (int i = 0; i < 10; i++) f8same[i] = 6.5;
    make(f, "int_i4_nofill", H5T_STD_I32LE, H5T_NATIVE_INT, i4, 40, 16, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
    make(f, "int_beu2_same", H5T_STD_U16BE, H5T_NATIVE_USHORT, same, 12, 6, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
    make(f, "int_bei8_nofill", H5T_STD_I64BE, H5T_NATIVE_LLONG, i8, 30, 8, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
    make(f, "float_f4_nofill", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, f4, 30, 8, H5Z_SO_FLOAT_DSCALE, 2);
    make(f, "float_bef8_nofill", H5T_IEEE_F64BE, H5T_NATIVE_DOUBLE, f8, 30, 8, H5Z_SO_FLOAT_DSCALE, 1);
    make(f, "float_f8_same", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, f8same, 10, 10, H5Z_SO_FLOAT_DSCALE, 3);
    H5Fclose(f);
    return 0;
}

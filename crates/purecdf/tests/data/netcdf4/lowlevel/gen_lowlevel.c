/* Small HDF5 files that HDF5 1.10.8 (so netcdf-c 4.9.0) reads or refuses in ways a reader
 * of the bytes alone could miss. Written with the system HDF5 1.10.8:
 *   h5cc -o /tmp/gen_lowlevel gen_lowlevel.c && (cd THIS_DIR && /tmp/gen_lowlevel)
 *
 *   cache_image.h5    closed with a metadata cache image (H5Pset_mdc_image_config): the root
 *                     group, its subgroup and datasets exist only in the image block.
 *   status_write.h5   latest format (superblock v3); the writer flushed and died without
 *                     closing: status flags 0x01 stay set, HDF5 refuses the file.
 *   status_swmr.h5    same in SWMR-write mode: flags 0x05.
 *   oddint.h5         integers of 3, 5, 6 and 7 bytes, signed and unsigned, both byte
 *                     orders, one with a bit offset, as datasets and an attribute: HDF5
 *                     converts each to the smallest native integer holding its precision.
 *   partial_edge.h5   H5Pset_chunk_opts(DONT_FILTER_PARTIAL_CHUNKS): a 2-D int32 dataset
 *                     (shuffle, deflate, fletcher32) and a 1-D float64 one (deflate, unlimited)
 *                     whose edge chunks are stored without filters.
 *   eoa_meta.h5       superblock v0 whose end-of-allocation address (patched) lies below the
 *                     root group's local heap: HDF5 refuses the file.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static hid_t latest_fapl(void) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    return fapl;
}

static void attr_int(hid_t obj, const char *name, int v) {
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT, &v);
    H5Aclose(a);
    H5Sclose(s);
}

static void cache_image(void) {
    hid_t fapl = latest_fapl();
    H5AC_cache_image_config_t cfg;
    cfg.version = H5AC__CURR_CACHE_IMAGE_CONFIG_VERSION;
    cfg.generate_image = 1;
    cfg.save_resize_status = 0;
    cfg.entry_ageout = H5AC__CACHE_IMAGE__ENTRY_AGEOUT__NONE;
    H5Pset_mdc_image_config(fapl, &cfg);
    hid_t f = H5Fcreate("cache_image.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    attr_int(f, "answer", 42);
    hid_t g = H5Gcreate2(f, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    attr_int(g, "level", 3);
    hsize_t d[2] = {4, 5}, c[2] = {2, 5};
    hid_t s = H5Screate_simple(2, d, NULL);
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(p, 2, c);
    H5Pset_deflate(p, 5);
    short v[20];
    for (int i = 0; i < 20; i++) v[i] = (short)(i * i - 50);
    hid_t ds = H5Dcreate2(g, "sq", H5T_STD_I16LE, s, H5P_DEFAULT, p, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    attr_int(ds, "scale", -7);
    H5Dclose(ds);
    H5Pclose(p);
    H5Sclose(s);
    hsize_t n = 3;
    s = H5Screate_simple(1, &n, NULL);
    double x[3] = {0.25, -1.5, 1e10};
    ds = H5Dcreate2(f, "x", H5T_IEEE_F64BE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dclose(ds);
    H5Sclose(s);
    H5Gclose(g);
    H5Fclose(f);
    H5Pclose(fapl);
}

/* A writer that flushes and dies: the superblock keeps its "open for writing" flags. */
static void crashed_writer(const char *name, int swmr) {
    pid_t pid = fork();
    if (pid == 0) {
        hid_t fapl = latest_fapl();
        hid_t f = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        hsize_t d = 4, m = H5S_UNLIMITED, c = 4;
        hid_t s = H5Screate_simple(1, &d, &m);
        hid_t p = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(p, 1, &c);
        int v[4] = {1, 2, 3, 4};
        hid_t ds = H5Dcreate2(f, "v", H5T_STD_I32LE, s, H5P_DEFAULT, p, H5P_DEFAULT);
        H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        if (swmr)
            H5Fstart_swmr_write(f);
        H5Fflush(f, H5F_SCOPE_GLOBAL);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
}

static hid_t odd_type(hid_t base, size_t size, size_t prec, size_t offset) {
    hid_t t = H5Tcopy(base);
    if (size > H5Tget_size(t)) {
        H5Tset_size(t, size);
        H5Tset_precision(t, prec);
    } else {
        H5Tset_precision(t, prec);
        H5Tset_size(t, size);
    }
    H5Tset_offset(t, offset);
    return t;
}

static void odd_dataset(hid_t f, const char *name, hid_t t) {
    hsize_t d = 7;
    long long v[7] = {0, 1, -2, 100, -1000, 4095, -8388608};
    hid_t s = H5Screate_simple(1, &d, NULL);
    hid_t ds = H5Dcreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    H5Sclose(s);
    H5Tclose(t);
}

static void oddint(void) {
    hid_t f = H5Fcreate("oddint.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    odd_dataset(f, "i24le", odd_type(H5T_STD_I32LE, 3, 24, 0));
    odd_dataset(f, "i24be", odd_type(H5T_STD_I32BE, 3, 24, 0));
    odd_dataset(f, "u24le", odd_type(H5T_STD_U32LE, 3, 24, 0));
    odd_dataset(f, "i40le", odd_type(H5T_STD_I64LE, 5, 40, 0));
    odd_dataset(f, "u40be", odd_type(H5T_STD_U64BE, 5, 40, 0));
    odd_dataset(f, "i48le", odd_type(H5T_STD_I64LE, 6, 48, 0));
    odd_dataset(f, "i56be", odd_type(H5T_STD_I64BE, 7, 56, 0));
    odd_dataset(f, "u56le", odd_type(H5T_STD_U64LE, 7, 56, 0));
    odd_dataset(f, "i16in3", odd_type(H5T_STD_I32LE, 3, 16, 4));
    hid_t t = odd_type(H5T_STD_I32LE, 3, 24, 0);
    hsize_t d = 4;
    int v[4] = {-1, 8388607, -8388608, 12345};
    hid_t s = H5Screate_simple(1, &d, NULL);
    hid_t a = H5Acreate2(f, "i24", t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT, v);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
    H5Fclose(f);
}

/* Writes `eoa` over the end-of-file address of a version 0 superblock (bytes 40..48). */
static void patch_eoa(const char *name, unsigned long long eoa) {
    FILE *fp = fopen(name, "r+b");
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(eoa >> (8 * i));
    fseek(fp, 40, SEEK_SET);
    fwrite(b, 1, 8, fp);
    fclose(fp);
}

static void eoa(void) {
    hid_t f = H5Fcreate("eoa_meta.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    attr_int(f, "a", 1);
    H5Fclose(f);
    patch_eoa("eoa_meta.h5", 400);
}

static void partial_edge(void) {
    hid_t fapl = latest_fapl();
    hid_t f = H5Fcreate("partial_edge.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    hsize_t d[2] = {7, 5}, c[2] = {3, 2};
    hid_t s = H5Screate_simple(2, d, NULL);
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(p, 2, c);
    H5Pset_fletcher32(p);
    H5Pset_shuffle(p);
    H5Pset_deflate(p, 9);
    H5Pset_chunk_opts(p, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS);
    int v[35];
    for (int i = 0; i < 35; i++)
        v[i] = (i % 6) * 100000 - i;
    hid_t ds = H5Dcreate2(f, "grid", H5T_STD_I32LE, s, H5P_DEFAULT, p, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    H5Pclose(p);
    H5Sclose(s);
    hsize_t n = 10, m = H5S_UNLIMITED, cn = 4;
    s = H5Screate_simple(1, &n, &m);
    p = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(p, 1, &cn);
    H5Pset_deflate(p, 1);
    H5Pset_chunk_opts(p, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS);
    double x[10];
    for (int i = 0; i < 10; i++)
        x[i] = i * 0.5 - 2;
    ds = H5Dcreate2(f, "series", H5T_IEEE_F64LE, s, H5P_DEFAULT, p, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dclose(ds);
    H5Pclose(p);
    H5Sclose(s);
    H5Fclose(f);
}

int main(void) {
    cache_image();
    crashed_writer("status_write.h5", 0);
    crashed_writer("status_swmr.h5", 1);
    oddint();
    eoa();
    partial_edge();
    return 0;
}

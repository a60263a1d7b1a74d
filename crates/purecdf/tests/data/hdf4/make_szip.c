/* Makes szip.hdf: SDS compressed with szip (NN and EC coding; 8, 16 and 32 pixels per block;
 * contiguous and chunked 7 x 16). Needs an HDF4 library with an szip encoder, which Debian's
 * libhdf4 4.2.15 lacks: szip.hdf was made with HDF4 4.3.0 configured with `--with-szlib`
 * against libaec's szip library (`cc make_szip.c -lmfhdf -ldf -lsz -ljpeg -lz`). */
#include <mfhdf.h>
#include <szlib.h>
#include <stdio.h>

static int add(int32 f, const char *name, int32 type, void *data, int32 mask, int32 ppb, int chunked)
{
    int32 dims[2] = {20, 30}, start[2] = {0, 0};
    int32 s = SDcreate(f, name, type, 2, dims);
    comp_info c;
    c.szip.pixels_per_block = ppb;
    c.szip.options_mask = mask;
    if (chunked) {
        HDF_CHUNK_DEF d;
        d.comp.chunk_lengths[0] = 7;
        d.comp.chunk_lengths[1] = 16;
        d.comp.comp_type = COMP_CODE_SZIP;
        d.comp.model_type = COMP_MODEL_STDIO;
        d.comp.cinfo = c;
        if (SDsetchunk(s, d, HDF_CHUNK | HDF_COMP) == FAIL) { fprintf(stderr, "chunk %s\n", name); return 1; }
    } else if (SDsetcompress(s, COMP_CODE_SZIP, &c) == FAIL) { fprintf(stderr, "compress %s\n", name); return 1; }
    if (SDwritedata(s, start, NULL, dims, data) == FAIL) { fprintf(stderr, "write %s\n", name); return 1; }
    SDendaccess(s);
    return 0;
}

int main(void)
{
    int32 f = SDstart("szip.hdf", DFACC_CREATE);
    int16 s16[600];
    int32 s32[600];
    float32 f32[600];
    float64 f64[600];
    uint8 u8[600];
    int i, bad = 0;
    for (i = 0; i < 600; i++) {
        s16[i] = (int16)((i % 30) * 3 - (i / 30) * 7);
        s32[i] = i * 1000 - 250000 + (i % 13);
        f32[i] = (float32)(i % 30) * 0.25f + (float32)(i / 30);
        f64[i] = (float64)i * -0.125 + 3.0;
        u8[i] = (uint8)(i * 7 % 251);
    }
    bad |= add(f, "nn_i16_8", DFNT_INT16, s16, SZ_NN_OPTION_MASK, 8, 0);
    bad |= add(f, "ec_i32_16", DFNT_INT32, s32, SZ_EC_OPTION_MASK, 16, 0);
    bad |= add(f, "nn_f32_32", DFNT_FLOAT32, f32, SZ_NN_OPTION_MASK, 32, 0);
    bad |= add(f, "ec_f64_8", DFNT_FLOAT64, f64, SZ_EC_OPTION_MASK, 8, 0);
    bad |= add(f, "nn_u8_chunked", DFNT_UINT8, u8, SZ_NN_OPTION_MASK, 8, 1);
    bad |= add(f, "ec_f32_chunked", DFNT_FLOAT32, f32, SZ_EC_OPTION_MASK, 16, 1);
    SDend(f);
    return bad;
}

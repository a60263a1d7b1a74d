/* Makes the fixtures pyhdf cannot: n-bit datasets (SDsetnbitdataset) and little-endian
 * number types (DFNT_L*). Built and run by make.py: cc make_c.c -lmfhdf -ldf. */
#include <mfhdf.h>
#include <stdio.h>

static int check(int r, const char *what)
{
    if (r == FAIL) {
        fprintf(stderr, "%s failed\n", what);
        return 1;
    }
    return 0;
}

int main(void)
{
    int32 f = SDstart("nbit_litend.hdf", DFACC_CREATE);
    int32 dims[2] = {4, 5}, start[2] = {0, 0};
    int16 s16[20];
    int32 s32[20];
    uint16 u16[20];
    float32 f32[20];
    float64 f64[20];
    int i, bad = 0;
    for (i = 0; i < 20; i++) {
        s16[i] = (int16)(i % 7 - 3);
        u16[i] = (uint16)(i * 3);
        s32[i] = i * 100 - 900;
        f32[i] = (float32)i * 0.5f - 4.0f;
        f64[i] = (float64)i * -1.25;
    }
    /* n-bit: 4 signed bits at bits 5..2 of int16 (values are stored shifted there). */
    {
        int32 s = SDcreate(f, "nbit_s16", DFNT_INT16, 2, dims);
        int16 shifted[20];
        for (i = 0; i < 20; i++)
            shifted[i] = (int16)(s16[i] * 4);
        bad |= check(SDsetnbitdataset(s, 5, 4, TRUE, FALSE), "nbit_s16");
        bad |= check(SDwritedata(s, start, NULL, dims, shifted), "write nbit_s16");
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "nbit_u16", DFNT_UINT16, 2, dims);
        bad |= check(SDsetnbitdataset(s, 7, 6, FALSE, TRUE), "nbit_u16");
        bad |= check(SDwritedata(s, start, NULL, dims, u16), "write nbit_u16");
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "nbit_s32", DFNT_INT32, 2, dims);
        bad |= check(SDsetnbitdataset(s, 12, 13, TRUE, FALSE), "nbit_s32");
        bad |= check(SDwritedata(s, start, NULL, dims, s32), "write nbit_s32");
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "le_s16", DFNT_LINT16, 2, dims);
        int16 fill = -1;
        SDsetfillvalue(s, &fill);
        bad |= check(SDwritedata(s, start, NULL, dims, s16), "write le_s16");
        SDsetattr(s, "le_att", DFNT_LINT32, 3, s32);
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "le_u16", DFNT_LUINT16, 2, dims);
        bad |= check(SDwritedata(s, start, NULL, dims, u16), "write le_u16");
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "le_f32", DFNT_LFLOAT32, 2, dims);
        bad |= check(SDwritedata(s, start, NULL, dims, f32), "write le_f32");
        SDendaccess(s);
    }
    {
        int32 s = SDcreate(f, "le_f64", DFNT_LFLOAT64, 2, dims);
        bad |= check(SDwritedata(s, start, NULL, dims, f64), "write le_f64");
        SDsetattr(s, "le_datt", DFNT_LFLOAT64, 2, f64 + 3);
        SDendaccess(s);
    }
    SDend(f);
    return bad;
}

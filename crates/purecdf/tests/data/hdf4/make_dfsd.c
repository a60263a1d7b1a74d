/* Makes dfsd.hdf: scientific data sets written by the old single-file DFSD interface, which
 * stores scientific data groups (NDG/SDD/SD tags) and no SD (CDF0.0) vgroups. Built and run by
 * make.py: cc make_dfsd.c -lmfhdf -ldf (or -lmfhdfalt -ldfalt with Debian's libhdf4-alt-dev). */
#include <hdf.h>
#include <stdio.h>

static int check(int r, const char *what)
{
    if (r == FAIL) {
        fprintf(stderr, "%s failed\n", what);
        HEprint(stderr, 0);
        return 1;
    }
    return 0;
}

int main(void)
{
    const char *file = "dfsd.hdf";
    int bad = 0, i;
    uint16 ref;
    /* 1: float32 3 x 4 with data and dimension strings, scales, range and calibration. */
    {
        int32 dims[2] = {3, 4};
        float32 data[12], lat[3] = {10.0f, 20.0f, 30.0f}, lon[4] = {-1.5f, 0.0f, 1.5f, 3.0f};
        float32 max = 5.5f, min = -3.0f;
        for (i = 0; i < 12; i++)
            data[i] = (float32)i * 0.75f - 3.0f;
        bad |= check(DFSDsetNT(DFNT_FLOAT32), "setNT");
        bad |= check(DFSDsetdims(2, dims), "setdims");
        bad |= check(DFSDsetdatastrs("Temperature", "K", "F6.2", "cartesian"), "datastrs");
        bad |= check(DFSDsetdimstrs(1, "Latitude", "degrees_north", "F5.1"), "dimstrs 1");
        bad |= check(DFSDsetdimstrs(2, "Longitude", "degrees_east", "F5.1"), "dimstrs 2");
        bad |= check(DFSDsetdimscale(1, 3, lat), "dimscale 1");
        bad |= check(DFSDsetdimscale(2, 4, lon), "dimscale 2");
        bad |= check(DFSDsetrange(&max, &min), "range");
        bad |= check(DFSDsetcal(2.0, 0.5, 10.0, 0.25, DFNT_INT16), "cal");
        bad |= check(DFSDputdata(file, 2, dims, data), "putdata 1");
        /* Annotations of the group: descriptions become remarks-N, labels anno_label-N. */
        ref = DFSDlastref();
        bad |= check(DFANputlabel(file, DFTAG_NDG, ref, "first label"), "label");
        bad |= check(DFANputdesc(file, DFTAG_NDG, ref, "a description", 13), "desc 1");
        bad |= check(DFANputdesc(file, DFTAG_NDG, ref, "another one", 11), "desc 2");
    }
    /* 2: int16 2 x 3 x 2, nothing but the data and a fill value. */
    {
        int32 dims[3] = {2, 3, 2};
        int16 data[12], fill = -99;
        for (i = 0; i < 12; i++)
            data[i] = (int16)(i * 7 - 30);
        bad |= check(DFSDclear(), "clear");
        bad |= check(DFSDsetNT(DFNT_INT16), "setNT 2");
        bad |= check(DFSDsetfillvalue(&fill), "fill 2");
        bad |= check(DFSDadddata(file, 3, dims, data), "adddata 2");
    }
    /* 3: uint8 5, a label on the data and on its one dimension, no scale. */
    {
        int32 dims[1] = {5};
        uint8 data[5] = {1, 2, 3, 250, 255};
        bad |= check(DFSDclear(), "clear 3");
        bad |= check(DFSDsetNT(DFNT_UINT8), "setNT 3");
        bad |= check(DFSDsetdims(1, dims), "setdims 3");
        bad |= check(DFSDsetdatastrs("counts", "", "", ""), "datastrs 3");
        bad |= check(DFSDsetdimstrs(1, "bin", "", ""), "dimstrs 3");
        bad |= check(DFSDadddata(file, 1, dims, data), "adddata 3");
    }
    /* 4: little-endian int32 2 x 3 with a range, a scale on dimension 1 and a unit on 2. */
    {
        int32 dims[2] = {2, 3}, data[6] = {-5, 0, 5, 100000, -100000, 7};
        int32 scale[2] = {1000, 2000}, max = 100000, min = -100000;
        bad |= check(DFSDclear(), "clear 4");
        bad |= check(DFSDsetNT(DFNT_LINT32), "setNT 4");
        bad |= check(DFSDsetdims(2, dims), "setdims 4");
        bad |= check(DFSDsetdimscale(1, 2, scale), "dimscale 4");
        bad |= check(DFSDsetdimstrs(2, "", "m", ""), "dimstrs 4");
        bad |= check(DFSDsetrange(&max, &min), "range 4");
        bad |= check(DFSDadddata(file, 2, dims, data), "adddata 4");
    }
    /* 5: float64 times, for ncdump -t. */
    {
        int32 dims[1] = {3};
        float64 data[3] = {0.0, 1.5, 366.25};
        bad |= check(DFSDclear(), "clear 5");
        bad |= check(DFSDsetNT(DFNT_FLOAT64), "setNT 5");
        bad |= check(DFSDsetdims(1, dims), "setdims 5");
        bad |= check(DFSDsetdatastrs("time", "days since 2000-01-01", "", ""), "datastrs 5");
        bad |= check(DFSDadddata(file, 1, dims, data), "adddata 5");
    }
    return bad;
}

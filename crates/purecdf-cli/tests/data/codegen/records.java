import java.util.*;
import ucar.ma2.*;
import ucar.nc2.*;
import ucar.nc2.NetcdfFile.*;

public class Main
{

static public void main(String[] argv) throws Exception
{

    /* dimension lengths */
    final int time_len = 2;
    final int x_len = 3;
    final int len_len = 4;


    /* enter define mode */
    NetcdfFileWriteable ncfile = NetcdfFileWriteable.createNew("records.nc", true);

    /* define dimensions */
    Dimension time_dim = ncfile.addDimension("time", time_len);
    Dimension x_dim = ncfile.addDimension("x", x_len);
    Dimension len_dim = ncfile.addDimension("len", len_len);

    /* define variables */

    ArrayList time_dimlist = new ArrayList();
    time_dimlist.add(time_dim);
    ncfile.addVariable("time", DataType.DOUBLE, time_dimlist);

    ArrayList a_MINUS_b_dimlist = new ArrayList();
    a_MINUS_b_dimlist.add(time_dim);
    a_MINUS_b_dimlist.add(x_dim);
    ncfile.addVariable("a-b", DataType.FLOAT, a_MINUS_b_dimlist);

    ArrayList DIGIT_4_LFTX_dimlist = new ArrayList();
    DIGIT_4_LFTX_dimlist.add(x_dim);
    ncfile.addVariable("4LFTX", DataType.SHORT, DIGIT_4_LFTX_dimlist);

    ArrayList name_dimlist = new ArrayList();
    name_dimlist.add(time_dim);
    name_dimlist.add(len_dim);
    ncfile.addVariable("name", DataType.CHAR, name_dimlist);

    ArrayList initial_dimlist = new ArrayList();
    ncfile.addVariable("initial", DataType.CHAR, initial_dimlist);

    ArrayList flags_dimlist = new ArrayList();
    flags_dimlist.add(x_dim);
    ncfile.addVariable("flags", DataType.BYTE, flags_dimlist);

    ArrayList count_dimlist = new ArrayList();
    ncfile.addVariable("count", DataType.INT, count_dimlist);

    ArrayList big_dimlist = new ArrayList();
    big_dimlist.add(x_dim);
    big_dimlist.add(len_dim);
    ncfile.addVariable("big", DataType.DOUBLE, big_dimlist);

    /* assign global attributes */
    /* attribute: title */
    ncfile.addGlobalAttribute("title","records for ncgen -l c");
    /* attribute: empty */
    ncfile.addGlobalAttribute("empty","");


    /* assign per-variable attributes */
    /* attribute: units */
    ncfile.addVariableAttribute("time","units","days since 2000-01-01");
    /* attribute: note */
    ncfile.addVariableAttribute("time","note","");
    /* attribute: note */
    ncfile.addVariableAttribute("time","note","tab\there, quote \" and \u00E9");
    /* attribute: _FillValue */
    {
    Array data = Array.factory(float.class, new int[]{1}, new float[]{((float)-1)});
    ncfile.addVariableAttribute("a-b","_FillValue",data);
    }
    /* attribute: range */
    {
    Array data = Array.factory(float.class, new int[]{2}, new float[]{((float)-inf), ((float)3.4028235e+38)});
    ncfile.addVariableAttribute("a-b","range",data);
    }
    /* attribute: valid */
    {
    Array data = Array.factory(short.class, new int[]{2}, new short[]{0, 32767});
    ncfile.addVariableAttribute("4LFTX","valid",data);
    }
    /* attribute: masks */
    {
    Array data = Array.factory(byte.class, new int[]{3}, new byte[]{1, 2, -128});
    ncfile.addVariableAttribute("flags","masks",data);
    }

    ncfile.create();

    /* assign variable data */

    {
    double[] contents = new double[] {((double)0), ((double)1.5)};
    ArrayDouble data = new ArrayDouble(new int[]{2});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setDoubleNext(contents[count++]);
    int[] origin = new int[]{0};
    ncfile.write("time",origin,data);
    }

    {
    float[] contents = new float[] {((float)1), ((float)-1), ((float)3)};
    ArrayFloat data = new ArrayFloat(new int[]{2, 3});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setFloatNext(contents[count++]);
    int[] origin = new int[]{0, 0};
    ncfile.write("a-b",origin,data);
    }

    {
    float[] contents = new float[] {((float)-0), ((float)1e-30), ((float)123456.79)};
    ArrayFloat data = new ArrayFloat(new int[]{2, 3});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setFloatNext(contents[count++]);
    int[] origin = new int[]{1, 0};
    ncfile.write("a-b",origin,data);
    }

    {
    short[] contents = new short[] {-32768, 0, 32767};
    ArrayShort data = new ArrayShort(new int[]{3});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setShortNext(contents[count++]);
    int[] origin = new int[]{0};
    ncfile.write("4LFTX",origin,data);
    }

    {
    String contents = "ab";
    ArrayChar data = new ArrayChar(new int[]{2, 4});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setCharNext(contents.charAt(count++));
    int[] origin = new int[]{0, 0};
    ncfile.write("name",origin,data);
    }

    {
    ArrayChar.D0 data = new ArrayChar.D0();
    data.set((char)''\''');
    ncfile.write("initial",data);
    }

    {
    byte[] contents = new byte[] {0, -1, 127};
    ArrayByte data = new ArrayByte(new int[]{3});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setByteNext(contents[count++]);
    int[] origin = new int[]{0};
    ncfile.write("flags",origin,data);
    }

    {
    ArrayInt.D0 data = new ArrayInt.D0();
    data.set((int)7);
    ncfile.write("count",data);
    }

    {
    double[] contents = new double[] {((double)1e+300), ((double)-2.5e-300), ((double)0.1), ((double)1), ((double)2), ((double)3), ((double)4), ((double)5), ((double)6), ((double)9.969209968386869e+36), ((double)9.969209968386869e+36), ((double)9.969209968386869e+36)};
    ArrayDouble data = new ArrayDouble(new int[]{3, 4});
    IndexIterator iter = data.getIndexIterator();
    int count = 0;
    while(iter.hasNext())
        iter.setDoubleNext(contents[count++]);
    int[] origin = new int[]{0, 0};
    ncfile.write("big",origin,data);
    }

    ncfile.close();

    }
}

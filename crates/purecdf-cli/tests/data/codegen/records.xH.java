import java.util.*;
import ucar.ma2.*;
import ucar.nc2.*;
import ucar.nc2.NetcdfFile.*;

public class Make
{

static public void main(String[] argv) throws Exception
{

    /* dimension lengths */
    final int time_len = 2;
    final int x_len = 3;
    final int len_len = 4;


    /* enter define mode */
    NetcdfFileWriteable ncfile = NetcdfFileWriteable.createNew("records.nc", false);

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
    ncfile.close();

    }
}

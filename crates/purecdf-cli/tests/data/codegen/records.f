      program main
      include 'netcdf.inc'
* error status return
      integer stat
* netCDF ncid
      integer  ncid

* dimension lengths
      integer 'time'_len
      parameter ('time'_len = 2)
      integer 'x'_len
      parameter ('x'_len = 3)
      integer 'len'_len
      parameter ('len'_len = 4)
* dimension ids
      integer 'time'_dim
      integer 'x'_dim
      integer 'len'_dim

* variable ids
      integer 'time'_id;
      integer 'a-b'_id;
      integer '4LFTX'_id;
      integer 'name'_id;
      integer 'initial'_id;
      integer 'flags'_id;
      integer 'count'_id;
      integer 'big'_id;

* rank (number of dimensions) for each variable
      integer 'time'_rank
      parameter ('time'_rank = 1)
      integer 'a-b'_rank
      parameter ('a-b'_rank = 2)
      integer '4LFTX'_rank
      parameter ('4LFTX'_rank = 1)
      integer 'name'_rank
      parameter ('name'_rank = 2)
      integer 'initial'_rank
      parameter ('initial'_rank = 0)
      integer 'flags'_rank
      parameter ('flags'_rank = 1)
      integer 'count'_rank
      parameter ('count'_rank = 0)
      integer 'big'_rank
      parameter ('big'_rank = 2)

* variable shapes
      integer 'time'_dims('time'_rank)
      integer 'a-b'_dims('a-b'_rank)
      integer '4LFTX'_dims('4LFTX'_rank)
      integer 'name'_dims('name'_rank)
      integer 'flags'_dims('flags'_rank)
      integer 'big'_dims('big'_rank)

* variable declarations
      double precision 'time'(2)
      real  'a-b'(3, 2)
      integer '4LFTX'(3)
      integer 'flags'(3)
      integer 'count'
      double precision 'big'(4, 3)
* attribute vectors
      integer int1val(3)
      integer textval(1)
      integer int2val(2)
      real realval(2)


* enter define mode
      stat = nf_create('records.nc', nf_clobber, ncid);
      call check_err(stat)
* define dimensions
      stat = nf_def_dim(ncid, 'time', 'time'_len, 'time'_dim);
      call check_err(stat)
      stat = nf_def_dim(ncid, 'x', 'x'_len, 'x'_dim);
      call check_err(stat)
      stat = nf_def_dim(ncid, 'len', 'len'_len, 'len'_dim);
      call check_err(stat)
* define variables

      'time'_dims(1) = 'time'_dim
      stat = nf_def_var(ncid, 'time', nf_double, 'time'_rank, 'time'_dim
     1s, 'time'_id);
      call check_err(stat)

      'a-b'_dims(1) = 'x'_dim
      'a-b'_dims(2) = 'time'_dim
      stat = nf_def_var(ncid, 'a-b', nf_float, 'a-b'_rank, 'a-b'_dims, '
     1a-b'_id);
      call check_err(stat)

      '4LFTX'_dims(1) = 'x'_dim
      stat = nf_def_var(ncid, '4LFTX', nf_short, '4LFTX'_rank, '4LFTX'_d
     1ims, '4LFTX'_id);
      call check_err(stat)

      'name'_dims(1) = 'len'_dim
      'name'_dims(2) = 'time'_dim
      stat = nf_def_var(ncid, 'name', nf_char, 'name'_rank, 'name'_dims,
     1 'name'_id);
      call check_err(stat)

      stat = nf_def_var(ncid, 'initial', nf_char, 'initial'_rank, 0, 'in
     1itial'_id);
      call check_err(stat)

      'flags'_dims(1) = 'x'_dim
      stat = nf_def_var(ncid, 'flags', nf_byte, 'flags'_rank, 'flags'_di
     1ms, 'flags'_id);
      call check_err(stat)

      stat = nf_def_var(ncid, 'count', nf_int, 'count'_rank, 0, 'count'_
     1id);
      call check_err(stat)

      'big'_dims(1) = 'len'_dim
      'big'_dims(2) = 'x'_dim
      stat = nf_def_var(ncid, 'big', nf_double, 'big'_rank, 'big'_dims, 
     1'big'_id);
      call check_err(stat)
* assign global attributes
* define title
      stat = nf_put_att_text(ncid, NF_GLOBAL, 'title', 22, 'records for 
     1ncgen -l c')
      call check_err(stat)
* define empty
      stat = nf_put_att_text(ncid, NF_GLOBAL, 'empty', 1, char(0))
      call check_err(stat)

* assign per-variable attributes
* define units
      stat = nf_put_att_text(ncid, 'time'_id, 'units', 21, 'days since 2
     1000-01-01')
      call check_err(stat)
* define note
      stat = nf_put_att_text(ncid, 'time'_id, 'note', 1, char(0))
      call check_err(stat)
* define note
      stat = nf_put_att_text(ncid, 'time'_id, 'note', 24, 'tab'//char(9)
     1//'here, quote " and '//char(195)//char(169))
      call check_err(stat)
* define _FillValue
      realval(1) = -1
      stat = nf_put_att_real(ncid, 'a-b'_id, '_FillValue', nf_float, 1, 
     1realval)
      call check_err(stat)
* define range
      realval(1) = -inf
      realval(2) = 3.4028235e+38
      stat = nf_put_att_real(ncid, 'a-b'_id, 'range', nf_float, 2, realv
     1al)
      call check_err(stat)
* define valid
      int2val(1) = 0
      int2val(2) = 32767
      stat = nf_put_att_int(ncid, '4LFTX'_id, 'valid', nf_short, 2, int2
     1val)
      call check_err(stat)
* define masks
      int1val(1) = 1
      int1val(2) = 2
      int1val(3) = -128
      stat = nf_put_att_int(ncid, 'flags'_id, 'masks', nf_byte, 3, int1v
     1al)
      call check_err(stat)

* leave define mode
      stat = nf_enddef(ncid);
      call check_err(stat)

* assign scalar and fixed dimension variable data
      stat = nf_put_var_text(ncid, 'initial'_id, '''\''''')
      call check_err(stat)

      data 'count' /7/
      stat = nf_put_var_int(ncid, 'count'_id, 'count')
      call check_err(stat)




* perform variable data writes
      call write_'time'_0(ncid,'time'_id)

      call write_'a-b'_1(ncid,'a-b'_id)

      call write_'a-b'_2(ncid,'a-b'_id)

      call write_'4LFTX'_3(ncid,'4LFTX'_id)

      stat = nf_put_var_text(ncid, 'name'_id, 'ab'//char(0)//char(0)//'c
     1''d'//char(1))
      call check_err(stat)

      call write_'flags'_4(ncid,'flags'_id)

      call write_'big'_5(ncid,'big'_id)

      stat = nf_close(ncid)
      call check_err(stat)
      end


      subroutine write_'time'_0(ncid,'time'_id)
      integer ncid
      integer 'time'_id
      include 'netcdf.inc'
      integer stat

      integer 'time'_start(1)
      integer 'time'_count(1)

      double precision 'time'(2)
      data 'time' /0, 1.5/
      'time'_start(1) = 1
      'time'_count(1) = 2
      stat = nf_put_vara_double(ncid, 'time'_id, 'time'_start, 'time'_co
     1unt, 'time')
      call check_err(stat)
      end

      subroutine write_'a-b'_1(ncid,'a-b'_id)
      integer ncid
      integer 'a-b'_id
      include 'netcdf.inc'
      integer stat

      integer 'a-b'_start(2)
      integer 'a-b'_count(2)

      real  'a-b'(3,1)
      data 'a-b' /1, -1, 3/
      'a-b'_start(1) = 1
      'a-b'_start(2) = 1
      'a-b'_count(1) = 3
      'a-b'_count(2) = 1
      stat = nf_put_vara_real(ncid, 'a-b'_id, 'a-b'_start, 'a-b'_count, 
     1'a-b')
      call check_err(stat)
      end

      subroutine write_'a-b'_2(ncid,'a-b'_id)
      integer ncid
      integer 'a-b'_id
      include 'netcdf.inc'
      integer stat

      integer 'a-b'_start(2)
      integer 'a-b'_count(2)

      real  'a-b'(3,1)
      data 'a-b' /-0, 1e-30, 123456.79/
      'a-b'_start(1) = 1
      'a-b'_start(2) = 2
      'a-b'_count(1) = 3
      'a-b'_count(2) = 1
      stat = nf_put_vara_real(ncid, 'a-b'_id, 'a-b'_start, 'a-b'_count, 
     1'a-b')
      call check_err(stat)
      end

      subroutine write_'4LFTX'_3(ncid,'4LFTX'_id)
      integer ncid
      integer '4LFTX'_id
      include 'netcdf.inc'
      integer stat

      integer '4LFTX'_start(1)
      integer '4LFTX'_count(1)

      integer '4LFTX'(3)
      data '4LFTX' /-32768, 0, 32767/
      '4LFTX'_start(1) = 1
      '4LFTX'_count(1) = 3
      stat = nf_put_vara_int(ncid, '4LFTX'_id, '4LFTX'_start, '4LFTX'_co
     1unt, '4LFTX')
      call check_err(stat)
      end

      subroutine write_'flags'_4(ncid,'flags'_id)
      integer ncid
      integer 'flags'_id
      include 'netcdf.inc'
      integer stat

      integer 'flags'_start(1)
      integer 'flags'_count(1)

      integer 'flags'(3)
      data 'flags' /0, -1, 127/
      'flags'_start(1) = 1
      'flags'_count(1) = 3
      stat = nf_put_vara_int(ncid, 'flags'_id, 'flags'_start, 'flags'_co
     1unt, 'flags')
      call check_err(stat)
      end

      subroutine write_'big'_5(ncid,'big'_id)
      integer ncid
      integer 'big'_id
      include 'netcdf.inc'
      integer stat

      integer 'big'_start(2)
      integer 'big'_count(2)

      double precision 'big'(4,3)
      data 'big' /1D+300, -2.5D-300, 0.1, 1, 2, 3, 4, 5, 6, 9.9692099683
     186869D+36, 9.969209968386869D+36, 9.969209968386869D+36/
      'big'_start(1) = 1
      'big'_start(2) = 1
      'big'_count(1) = 4
      'big'_count(2) = 3
      stat = nf_put_vara_double(ncid, 'big'_id, 'big'_start, 'big'_count
     1, 'big')
      call check_err(stat)
      end

      subroutine check_err(stat)
      integer stat
      include 'netcdf.inc'
      if (stat .ne. NF_NOERR) then
      print *, nf_strerror(stat)
      stop
      endif
      end

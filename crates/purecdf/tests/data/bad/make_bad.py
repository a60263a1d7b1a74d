#!/usr/bin/env python3
"""Makes the committed malformed classic files in this directory from seed/seed_cdf{1,5}.nc.

Run from this directory: python3 make_bad.py"""
import struct

def walk(b, cdf5, off64):
    p=0; F={}
    def u32():
        nonlocal p; v=struct.unpack('>I',b[p:p+4])[0]; p+=4; return v
    def u64():
        nonlocal p; v=struct.unpack('>Q',b[p:p+8])[0]; p+=8; return v
    cnt = u64 if cdf5 else u32
    def name(tag):
        nonlocal p
        F.setdefault('namelen',[]).append((p,tag)); n=cnt(); p+= (n+3)//4*4
    p=4; F['numrecs']=p; cnt()
    def attlist(tag):
        nonlocal p
        F.setdefault('atttag',[]).append(p); t=u32(); F.setdefault('attcount',[]).append(p); n=cnt()
        for i in range(n):
            name(tag+'att'); F.setdefault('atttype',[]).append(p); ty=u32(); F.setdefault('attnelems',[]).append(p); ne=cnt()
            sz={1:1,2:1,3:2,4:4,5:4,6:8,7:1,8:2,9:4,10:8,11:8}[ty]; p+=(ne*sz+3)//4*4
    F['dimtag']=p; u32(); F['dimcount']=p; nd=cnt()
    for i in range(nd):
        name('dim'); F.setdefault('dimlen',[]).append(p); cnt()
    attlist('g')
    F['vartag']=p; u32(); F['varcount']=p; nv=cnt()
    for i in range(nv):
        name('var'); F.setdefault('varndims',[]).append(p); n=cnt()
        for j in range(n):
            F.setdefault('dimid',[]).append(p); cnt()
        attlist('v')
        F.setdefault('vartype',[]).append(p); u32()
        F.setdefault('vsize',[]).append(p); cnt()
        F.setdefault('begin',[]).append(p); (u64 if (cdf5 or off64) else u32)()
    F['end']=p
    return F

def put(b,off,val,width):
    bb=bytearray(b); bb[off:off+width]=(val % (1<<(8*width))).to_bytes(width,'big'); return bytes(bb)
s1=open('seed/seed_cdf1.nc','rb').read(); F1=walk(s1,False,False)
s5=open('seed/seed_cdf5.nc','rb').read(); F5=walk(s5,True,False)
out={
 'bad_magic_version.nc': s1[:3]+b'\x03'+s1[4:],
 'empty.nc': b'',
 'truncated_in_var_list.nc': s1[:F1['varndims'][1]+2],
 'huge_dim_count.nc': put(s1,F1['dimcount'],0x7FFFFFFF,4),
 'negative_name_len.nc': put(s1,F1['namelen'][0][0],-1,4),
 'huge_att_nelems.nc': put(s1,F1['attnelems'][0],0x7FFFFFFF,4),
 'bad_att_type.nc': put(s1,F1['atttype'][0],99,4),
 'bad_dim_id.nc': put(s1,F1['dimid'][0],7,4),
 'unlimited_not_first.nc': put(s1,F1['dimid'][2],0,4),
 'overlapping_begins.nc': put(s1,F1['begin'][3],int.from_bytes(s1[F1['begin'][0]:F1['begin'][0]+4],'big'),4),
 'begin_in_header.nc': put(s1,F1['begin'][0],0,4),
 'bad_list_tag.nc': put(s1,F1['dimtag'],0x1234,4),
 'huge_dim_len_cdf5.nc': put(s5,F5['dimlen'][1],0x7FFFFFFFFFFFFFFF,8),
}
for n,b in out.items(): open(n,'wb').write(b)

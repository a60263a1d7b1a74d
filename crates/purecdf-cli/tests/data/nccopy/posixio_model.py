"""A model of netcdf-c 4.9.0's posixio (px) page buffer during an `nccopy` classic -> classic copy,
written for purecdf's classic writer (see README.md here). It replays the sequence of ncio get/rel
calls netcdf-c makes (create: a 32-byte header region; enddef: the header in windows of
min(header size, 8192) bytes, a new window opening wherever the next item does not fit, then a sync;
data: each contiguous run in pieces of at most 8192 bytes, fixed variables first, then the record
variables a record at a time; close: numrecs, a sync, and padding to the computed size), taking
the bytes written from a reference output, and predicts every other byte: the stale buffer bytes
netcdf-c leaves in no-fill record padding and the file length set by the last header window.

    python3 posixio_model.py REF.nc [...]      # REF.nc made by /usr/bin/nccopy [-k kind] IN REF.nc
    VARS=a,b python3 posixio_model.py REF.nc   # for nccopy -v a,b

Prints the number of bytes that differ (0 on every case tried: fixtures, netcdf-c's CDL suite,
multi-page record files, large headers, the empty dataset). The final padding size is
approximated (last fixed variable's unpadded size), so lengths of files that end in a padded
fixed variable can be a few bytes short; that part purecdf already gets right.

Buffer rules (px_get in posixio.c): the block size is 8192 and the buffer holds two blocks. A
request in the block above a two-block buffer moves the upper block down, copying only the
valid count, then counts the whole lower block valid: bytes past the old count stay as they
were, i.e. the bytes 8192 earlier in the file, and are written out later."""
import os
import sys
BLK = 8192

class Px:
    def __init__(self):
        self.disk = bytearray()
        self.buf = bytearray(2*BLK)
        self.off = None; self.ext = 0; self.cnt = 0; self.mod = False
    def pgin(self, offset, extent, at):
        data = self.disk[offset:offset+extent]
        n = len(data)
        self.buf[at:at+extent] = bytes(data) + bytes(extent-n)
        return n
    def pgout(self, offset, extent, at):
        end = offset+extent
        if len(self.disk) < end: self.disk.extend(bytes(end-len(self.disk)))
        self.disk[offset:end] = self.buf[at:at+extent]
    def get(self, offset, extent):
        blkoff = offset//BLK*BLK; diff = offset-blkoff
        blkext = -(-(diff+extent)//BLK)*BLK
        assert blkext <= 2*BLK
        if self.off is None:
            return self._pgin(blkoff, blkext, diff, extent)
        if blkoff == self.off:
            if blkext > self.ext:
                n = self.pgin(self.off+BLK, BLK, BLK); self.ext = 2*BLK; self.cnt = n + BLK
            return self._done(diff, extent)
        if self.ext > BLK and blkoff == self.off + BLK:
            if blkext == BLK:
                return self._done(diff+BLK, extent)
            if self.cnt > BLK:
                if self.mod: self.pgout(self.off, BLK, 0)
                self.cnt -= BLK
                self.buf[0:self.cnt] = self.buf[BLK:BLK+self.cnt]
            else:
                if self.mod: self.pgout(self.off, BLK, 0)
            self.off = blkoff
            n = self.pgin(self.off+BLK, BLK, BLK); self.ext = 2*BLK; self.cnt = n + BLK
            return self._done(diff, extent)
        if blkoff == self.off - BLK:
            upper = 0
            if self.cnt > BLK:
                if self.mod: self.pgout(self.off+BLK, self.cnt-BLK, BLK)
                self.cnt = BLK; self.ext = BLK
            if self.cnt > 0:
                self.buf[BLK:2*BLK] = self.buf[0:BLK]; upper = self.cnt
            n = self.pgin(blkoff, BLK, 0); self.cnt = n
            self.off = blkoff
            if upper:
                self.ext = 2*BLK; self.cnt = BLK + upper
            else:
                self.ext = BLK
            return self._done(diff, extent)
        if self.mod:
            self.pgout(self.off, self.cnt, 0); self.mod = False
        return self._pgin(blkoff, blkext, diff, extent)
    def _pgin(self, blkoff, blkext, diff, extent):
        n = self.pgin(blkoff, blkext, 0); self.cnt = n; self.off = blkoff; self.ext = blkext
        return self._done(diff, extent)
    def _done(self, diff, extent):
        if self.cnt < diff+extent: self.cnt = diff+extent
        return diff
    def write(self, offset, data):
        at = self.get(offset, len(data))
        self.buf[at:at+len(data)] = data
        self.mod = True
    def sync(self):
        if self.mod: self.pgout(self.off, self.cnt, 0); self.mod = False

def parse(b):
    ver=b[3]; W = 8 if ver==5 else 4; OFF = 4 if ver==1 else 8
    p=[4]
    def u(n):
        v=int.from_bytes(b[p[0]:p[0]+n],'big'); p[0]+=n; return v
    def name():
        n=u(W); s=b[p[0]:p[0]+n].decode(); p[0]+=(n+3)//4*4; return s
    def atts():
        u(4); n=u(W)
        for _ in range(n):
            name(); t=u(4); ne=u(W)
            p[0] += ({1:1,2:1,3:2,4:4,5:4,6:8,7:1,8:2,9:4,10:8,11:8}[t]*ne+3)//4*4
    numrecs=u(W)
    u(4); nd=u(W); dims=[]
    for _ in range(nd): dims.append((name(),u(W)))
    atts()
    u(4); nv=u(W); vars=[]
    for _ in range(nv):
        nm=name(); ndim=u(W); ids=[u(W) for _ in range(ndim)]; atts(); t=u(4); vsize=u(W); begin=u(OFF)
        size={1:1,2:1,3:2,4:4,5:4,6:8,7:1,8:2,9:4,10:8,11:8}[t]
        vars.append(dict(name=nm, ids=ids, size=size, vsize=vsize, begin=begin))
    return ver, W, numrecs, dims, vars, p[0]

def simulate(ref):
    b = open(ref,'rb').read()
    ver, W, numrecs, dims, vars, xsz = parse(b)
    rec = [d[1]==0 for d in dims]
    for v in vars:
        v['rec'] = bool(v['ids']) and rec[v['ids'][0]]
        shape = [dims[i][1] for i in v['ids']]
        n = 1
        for i,s in enumerate(shape):
            if not (i==0 and v['rec']): n*=s
        v['bytes'] = n*v['size']     # one record (rec var) or whole (fixed)
    recvars = [v for v in vars if v['rec']]
    recsize = sum(v['vsize'] for v in recvars)
    if len(recvars)==1: recsize = recvars[0]['bytes']  # no padding for a single record var
    begin_rec = recvars[0]['begin'] if recvars else None
    px = Px()
    chunk = BLK
    # create: minimal header region
    px.write(0, b[:4] + bytes(28 if ver!=5 else 44))
    px.disk.extend(bytes(32 if ver!=5 else 48))  # file grown at create (observed)
    # enddef: header windows
    MIN = 48 if ver==5 else 32
    extent = min(chunk,4096) if xsz<=MIN else (chunk if xsz>chunk else xsz)
    # the header goes out through windows (ncx_put_NC / fault_v1hs): a new window opens at the
    # current position whenever the next item does not fit in the current one
    pos = 0
    wext = extent
    items = header_items(b, ver, W, extent)
    wend = wext
    wins=[(0,wext)]
    for n in items:
        if pos+n > wend:
            wins.append((pos, max(wext,n))); wext=max(wext,n); wend=pos+wext
        pos+=n
    for (ws, we) in wins:
        # bytes beyond xsz in the window are whatever the buffer had: write only header part
        at = px.get(ws, we)
        hdr_end = min(ws+we, xsz)
        px.buf[at:at+(hdr_end-ws)] = b[ws:hdr_end]
        px.mod = True
    px.sync()   # NC_endef ends with ncio_sync
    # data: fixed vars whole (5e6 buffer pieces ignored: treat as runs of <= chunk)
    def put_run(offset, nbytes):
        o = offset; rem = nbytes
        while rem > 0:
            e = min(rem, chunk)
            px.write(o, b[o:o+e]); o += e; rem -= e
    only = os.environ.get('VARS')
    only = only.split(',') if only else None
    if only: recvars_w = [v for v in recvars if v['name'] in only]
    else: recvars_w = recvars
    for v in vars:
        if only and v['name'] not in only: continue
        if not v['rec'] and v['bytes']:
            put_run(v['begin'], v['bytes'])
    for r in range(numrecs):
        for v in recvars_w:
            if v['bytes']:
                put_run(v['begin'] + r*recsize, v['bytes'])
    # close: write numrecs, sync, pad
    if recvars and numrecs:
        px.write(4, b[4:4+W])
    px.sync()
    calc = (begin_rec + numrecs*recsize) if recvars else (vars[-1]['begin'] + vars[-1]['bytes'] if vars else xsz)
    if len(px.disk) < calc: px.disk.extend(bytes(calc-len(px.disk)))
    return bytes(px.disk), b

def header_items(b, ver, W, perchunk):
    OFF = 4 if ver==1 else 8
    p=[4]; items=[4]
    def u(n):
        v=int.from_bytes(b[p[0]:p[0]+n],'big'); p[0]+=n; return v
    def rq(n): items.append(n)
    rq(W); u(W)
    def name():
        rq(W); n=u(W); r=(n+3)//4*4
        if r: rq(r)
        p[0]+=r
    def atts():
        rq(4); u(4); rq(W); n=u(W)
        for _ in range(n):
            name(); rq(4); t=u(4); rq(W); ne=u(W)
            sz={1:1,2:1,3:2,4:4,5:4,6:8,7:1,8:2,9:4,10:8,11:8}[t]*ne; sz=(sz+3)//4*4
            rem=sz
            while rem>0:
                nb=min(perchunk,rem); rq(nb); p[0]+=nb; rem-=nb
    rq(4); u(4); rq(W); nd=u(W)
    for _ in range(nd): name(); rq(W); u(W)
    atts()
    rq(4); u(4); rq(W); nv=u(W)
    for _ in range(nv):
        name(); rq(W); nd=u(W)
        if nd: rq(nd*W); p[0]+=nd*W
        atts(); rq(4); u(4); rq(W); u(W); rq(OFF); u(OFF)
    return items

if __name__ == '__main__':
    for ref in sys.argv[1:]:
        sim, b = simulate(ref)
        d = [i for i in range(min(len(sim),len(b))) if sim[i]!=b[i]]
        print(ref, 'len sim', len(sim), 'ref', len(b), 'diffs', len(d), d[:8])

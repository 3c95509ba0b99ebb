#!/usr/bin/env python3
"""Reads an HPROF heap dump: byte[] arrays of at least MIN bytes, by size, and the classes of the objects that refer to them."""
import struct, sys, collections
MIN = 1 << 20
path = sys.argv[1]
data = open(path, 'rb').read()
p = data.index(b'\0') + 1
idsize = struct.unpack('>I', data[p:p+4])[0]; p += 12
def rid(o): return int.from_bytes(data[o:o+idsize], 'big')
strings = {}; classname = {}
bigarrays = {}   # id -> length
insts = []       # (id, classid, start, end)
objarrays = []   # (id, start, n)
classdump = {}   # classid -> (superid, [field types])
TS = {2: idsize, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
while p < len(data):
    tag = data[p]; ln = struct.unpack('>I', data[p+5:p+9])[0]; body = p + 9; end = body + ln
    if tag == 0x01:
        strings[rid(body)] = data[body+idsize:end].decode('utf-8', 'replace')
    elif tag == 0x02:
        classname[rid(body+4)] = rid(body+8+idsize)
    elif tag in (0x0c, 0x1c):
        q = body
        while q < end:
            st = data[q]; q += 1
            if st == 0xff: q += idsize
            elif st in (0x01,): q += 2*idsize
            elif st in (0x02, 0x03): q += idsize + 8
            elif st == 0x04: q += idsize + 4
            elif st in (0x05, 0x07): q += idsize
            elif st == 0x06: q += idsize + 4
            elif st == 0x08: q += idsize + 8
            elif st == 0x20:
                cid = rid(q); q += idsize + 4; sup = rid(q); q += idsize
                q += idsize * 5 + 4
                ncp = struct.unpack('>H', data[q:q+2])[0]; q += 2
                for _ in range(ncp):
                    t = data[q+2]; q += 3 + TS[t]
                ns = struct.unpack('>H', data[q:q+2])[0]; q += 2
                for _ in range(ns):
                    t = data[q+idsize]; q += idsize + 1 + TS[t]
                nf = struct.unpack('>H', data[q:q+2])[0]; q += 2
                fields = []
                for _ in range(nf):
                    fields.append(data[q+idsize]); q += idsize + 1
                classdump[cid] = (sup, fields)
            elif st == 0x21:
                oid = rid(q); q += idsize + 4; cid = rid(q); q += idsize
                n = struct.unpack('>I', data[q:q+4])[0]; q += 4
                insts.append((oid, cid, q, q + n)); q += n
            elif st == 0x22:
                oid = rid(q); q += idsize + 4
                n = struct.unpack('>I', data[q:q+4])[0]; q += 4 + idsize
                objarrays.append((oid, q, n)); q += n * idsize
            elif st == 0x23:
                oid = rid(q); q += idsize + 4
                n = struct.unpack('>I', data[q:q+4])[0]; t = data[q+4]; q += 5
                if t == 8 and n >= MIN: bigarrays[oid] = n
                q += n * TS[t]
            else:
                raise SystemExit('unknown subtag %x at %d' % (st, q))
    p = end
name = lambda cid: strings.get(classname.get(cid), hex(cid))
sizes = collections.Counter(bigarrays.values())
print('byte[] of >= 1 MiB: %d arrays, %.1f MiB' % (len(bigarrays), sum(bigarrays.values()) / 2**20))
for s, c in sorted(sizes.items(), key=lambda x: -x[0] * x[1]):
    print('  %10d bytes x %3d = %7.1f MiB' % (s, c, s * c / 2**20))
ids = set(bigarrays)
ref = collections.defaultdict(list)
for oid, cid, s, e in insts:
    # walk the instance's object fields, class by class
    q = s; c = cid
    while c and c in classdump and q < e:
        sup, fields = classdump[c]
        for t in fields:
            if t == 2:
                v = rid(q)
                if v in ids: ref[v].append(name(cid))
            q += TS[t]
        c = sup
for oid, s, n in objarrays:
    for i in range(n):
        if rid(s + i*idsize) in ids: ref[rid(s + i*idsize)].append('Object[]')
by = collections.Counter()
for oid, n in bigarrays.items():
    key = ' + '.join(sorted(set(ref.get(oid, ['(no instance field; root or only a local)'])))) 
    by[(key, n)] += 1
print('referrers of those arrays:')
for (k, n), c in sorted(by.items(), key=lambda x: -x[0][1] * x[1]):
    print('  %3d x %9d bytes (%6.1f MiB)  <- %s' % (c, n, c * n / 2**20, k))
region = 1 << 20
foot = sum(-(-(n + 16) // region) * region for n in bigarrays.values() if n + 16 >= region // 2)
print('those arrays in whole 1 MiB G1 regions (humongous): %.1f MiB' % (foot / 2**20))

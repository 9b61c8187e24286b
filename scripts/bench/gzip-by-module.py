#!/usr/bin/env python3
"""What each module costs the wasm once compressed, before and after a change.

gzip-by-module.py BEFORE.wasm AFTER.wasm DEPTH

Both files must keep their function names: run wasm-bindgen on target/wasm32-unknown-unknown/release/
quorumlab-app.wasm, then `wasm-opt -Oz -g` with the flags Trunk uses (the dist wasm has no names). Functions
are grouped by the first DEPTH parts of their path (`quorumlab_sim::tooling` at 2); a group's compressed
cost is how much smaller the deflated code section gets without it, so code that repeats code elsewhere
(generic copies, inlined twins) costs little and unique code a lot, as in the gzip a browser downloads.
Prints, for each group, (compressed change, raw change, name, raw before, compressed before, raw after,
compressed after); groups under 3 KB raw are not measured (None).
"""
import sys,zlib,re,collections
def leb(b,i):
    r=0;s=0
    while True:
        x=b[i];i+=1;r|=(x&0x7f)<<s;s+=7
        if x<0x80: return r,i
def name_str(b,i):
    n,i=leb(b,i); return b[i:i+n].decode('utf8','replace'),i+n
def parse(p):
    b=open(p,'rb').read();i=8;nimp=0;bodies=[];names={}
    while i<len(b):
        sid=b[i];i+=1;n,i=leb(b,i);end=i+n
        if sid==2:
            j=i;cnt,j=leb(b,j)
            for _ in range(cnt):
                _,j=name_str(b,j);_,j=name_str(b,j);kind=b[j];j+=1
                if kind==0: _,j=leb(b,j);nimp+=1
                elif kind==1: j+=1; fl=b[j];j+=1; _,j=leb(b,j); 
                elif kind==2:
                    fl=b[j];j+=1;_,j=leb(b,j)
                    if fl&1: _,j=leb(b,j)
                elif kind==3: j+=2
        elif sid==10:
            j=i;cnt,j=leb(b,j)
            for _ in range(cnt):
                sz,j=leb(b,j);bodies.append(b[j:j+sz]);j+=sz
        elif sid==0:
            nm,j=name_str(b,i)
            if nm=='name':
                while j<end:
                    sub=b[j];j+=1;sz,j=leb(b,j);se=j+sz
                    if sub==1:
                        cnt,k=leb(b,j)
                        for _ in range(cnt):
                            idx,k=leb(b,k);s,k=name_str(b,k);names[idx]=s
                    j=se
        i=end
    return [(names.get(nimp+k,'?'),body) for k,body in enumerate(bodies)]
def group(n,depth):
    n=re.sub(r'::h[0-9a-f]{16}$','',n)
    n=re.sub(r'^<','',n)
    m=re.findall(r'[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*',n)
    if not m: return n[:30]
    return '::'.join(m[0].split('::')[:depth])
def costs(p,depth):
    fs=parse(p)
    allc=b''.join(b for _,b in fs); total=len(zlib.compress(allc,9))
    groups=collections.defaultdict(list)
    for k,(n,_) in enumerate(fs): groups[group(n,depth)].append(k)
    out={}
    for g,idx in groups.items():
        raw=sum(len(fs[k][1]) for k in idx)
        if raw<3000: out[g]=(raw,None); continue
        s=set(idx)
        rest=b''.join(b for k,(_,b) in enumerate(fs) if k not in s)
        out[g]=(raw,total-len(zlib.compress(rest,9)))
    return total,out
depth=int(sys.argv[3])
ta,a=costs(sys.argv[1],depth); tb,b=costs(sys.argv[2],depth)
print('code deflate',ta,tb,tb-ta)
rows=[]
for g in set(a)|set(b):
    ra,ga=a.get(g,(0,0)); rb,gb=b.get(g,(0,0))
    rows.append(((gb or 0)-(ga or 0),rb-ra,g,ra,ga,rb,gb))
rows.sort()
for r in rows[:15]+rows[-30:]: print(r)

"""`extract.py FILE.ptx KERNEL`: one entry of a PTX module with the functions and globals it uses, as a module ptxas can assemble alone."""
import sys,re
src=open(sys.argv[1]).read(); name=sys.argv[2]
lines=src.split('\n')
# header
out=[l for l in lines[:20] if l.startswith(('.version','.target','.address_size'))]
# split into top-level chunks: each starting with .visible/.func/.extern/.global/.shared etc at col 0
chunks=[];cur=[]
for l in lines:
    if re.match(r'^(\.visible|\.func|\.extern|\.global|\.shared|\.const|\.weak|// \.globl)',l) and cur:
        chunks.append('\n'.join(cur));cur=[]
    cur.append(l)
chunks.append('\n'.join(cur))
ent=[c for c in chunks if re.search(r'\.entry '+name+r'\(',c)][0]
need=set(re.findall(r'call(?:\.uni)?\s*(?:\([^)]*\),\s*)?(\w+)',ent))
for c in chunks:
    if c is ent: continue
    m=re.search(r'\.func\s+(?:\([^)]*\)\s*)?(\w+)',c)
    if m and m.group(1) in need: out.append(c)
    elif re.match(r'^\.(extern|global|shared)',c.strip()) and re.search(r'(\w+)\s*(\[|;)',c) and any(w in ent for w in re.findall(r'(\w+)\s*\[',c)): out.append(c)
out.append(ent)
print('\n'.join(out))

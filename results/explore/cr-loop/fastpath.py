"""Walk the steady-state fast path of the grid-stride LDG.E.128 loop(s) in a .ins file:
every warp vote finds no inexact lane, BRA.DIV not taken (converged), back-edge taken."""
import re,sys,collections
sys.path.insert(0,__import__('os').path.dirname(__file__))
from classify import cls
def load(f):
    ins=[]
    for l in open(f):
        a,rest=l.split(None,1); ins.append((int(a,16),rest.strip().rstrip(';').strip()))
    return ins
def loops(ins):
    res=[]
    for a,i in ins:
        m=re.match(r'(@!?P\d+\s+)?BRA\s+(?:!?U?P\w+,\s*)?0x([0-9a-f]+)',i)
        if m and int(m.group(2),16)<a:
            t=int(m.group(2),16)
            body=[x for x in ins if t<=x[0]<=a]
            if any('LDG.E.128' in x[1] for x in body): res.append((t,a))
    return res
def walk(ins,head,tail,verbose=False):
    idx={a:k for k,(a,_) in enumerate(ins)}
    k=idx[head]; path=[]; false_preds=set(); steps=0
    while True:
        a,i=ins[k]; path.append((a,i)); steps+=1
        if steps>2000: raise SystemExit('runaway')
        body=re.sub(r'^@!?P\w+\s+','',i)
        m=re.match(r'(?:[A-Z0-9.]+)\s+(P\d+),',body)
        if m and not body.startswith(('VOTE','BRA')): false_preds.discard(m.group(1))
        m=re.match(r'VOTE\.ANY\s+(P\d+),',i)
        if m: false_preds.add(m.group(1))
        m=re.match(r'(@(!?)(P\d+)\s+)?BRA(\.DIV)?\s+(?:(U?R\w+|!?U?P\w+),\s*)?0x([0-9a-f]+)',i)
        if m:
            t=int(m.group(6),16)
            if m.group(4): k+=1; continue           # BRA.DIV: converged, falls through
            if a==tail: return path                  # back-edge
            if m.group(1):
                neg,p=m.group(2)=='!',m.group(3)
                if p in false_preds: taken = neg          # vote result is false
                elif not (head<=t<=tail): taken=False     # loop exit: steady state stays
                elif ins[idx[t]][1].startswith('BSYNC'): taken=True  # skip of the slow path (exact)
                else: raise SystemExit(f'unknown predicate at {a:04x}: {i}')
                k = idx[t] if taken else k+1
            else: k=idx[t]
            continue
        k+=1
def report(f,floats,verbose=True,label=None):
    ins=load(f); out=[]
    for head,tail in loops(ins):
        try: p=walk(ins,head,tail)
        except SystemExit as e:
            if verbose: print(f'  (skipped {head:04x}..{tail:04x}: {e})')
            continue
        floats=4*sum('LDG.E.128' in i for _,i in p) or floats
        c=collections.Counter(cls(i) for _,i in p)
        ldg=sum('LDG' in i for _,i in p)
        out.append((head,tail,len(p),c,ldg,p))
        if verbose:
            print(f'{label or f}: loop {head:04x}..{tail:04x}: {len(p)} instr/trip, {ldg} LDG.128 = {floats} floats -> {len(p)/floats:.3f}/float  '+
                  ', '.join(f'{k} {v}' for k,v in sorted(c.items(),key=lambda x:-x[1])))
    return out
if __name__=='__main__':
    # fastpath.py FILE.ins LABEL: every loop over 128-bit loads in FILE, its fast trip counted.
    report(sys.argv[1],0,label=sys.argv[2] if len(sys.argv)>2 else None)

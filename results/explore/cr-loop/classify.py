"""The class of one sm_90 SASS instruction (`cls`), as `fastpath.py` counts them."""
import re
def load(f):
    out=[]
    for l in open(f):
        a,rest=l.split(None,1)
        out.append((int(a,16),rest.strip().rstrip(';').strip()))
    return out
def cls(ins):
    s=re.sub(r'^@!?U?P\w+\s+','',ins)
    op=s.split()[0]
    base=op.split('.')[0]
    if base=='LDG': return 'load (LDG)'
    if base in('DADD','DSETP','F2F','DMUL','DFMA'): return 'FP64'
    if base in('FADD','FFMA','FMUL','FSETP'): return 'FP32'
    if op.startswith('IMAD.MOV') or base in('MOV','CS2R') or op=='HFMA2.MMA' or base=='PRMT': return 'move'
    if base in('IADD3','IMAD','LEA','ISETP','SHF','LOP3','USHF','ULEA','UIADD3'): return 'int/address'
    if base=='VOTE': return 'vote'
    if base in('BRA','BSSY','BSYNC'): return 'branch'
    if base in('PLOP3',): return 'predicate logic (PLOP3)'
    if base in('R2UR',): return 'R2UR'
    if base in('LDC','ULDC'): return 'const load (LDC)'
    return 'other:'+base

"""Writes heavy-tailed.npy, the user-like file of the 2026-11-30 accuracy run.

2^20 float32 values: log-normal magnitudes (sigma 3, so about eight decades)
with random signs, 55% positive. Standard library only, so it runs where
NumPy is not installed; with NumPy, np.load reads the result. It was run with
CPython 3.11.7; the file it wrote has the SHA-256 given in the README, so a
reader can check that their copy is the same array.

    python3 make_heavy_tailed.py && cargo run --release -p host -- accuracy --input heavy-tailed.npy
"""

import math
import random
import struct

random.seed(2026)
n = 1 << 20
values = []
for i in range(n):
    # Heavy-tailed, mixed signs: log-normal magnitudes over ~8 decades.
    v = math.exp(random.gauss(0, 3.0)) * (1 if random.random() < 0.55 else -1)
    values.append(v)
payload = struct.pack('<%df' % n, *values)
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
while (10 + len(header) + 1) % 64:
    header += ' '
header += '\n'
with open('heavy-tailed.npy', 'wb') as f:
    f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + payload)

"""Copies every ELF image found in the files under DIR (the driver's JIT
cache) to OUT_PREFIX.N.cubin: from its magic number to the end of the
file (a cache entry is a header, the PTX it was made from, then the ELF;
the ELF's section headers need not come last, so its header does not
give its end)."""
import os
import struct
import sys

root, prefix = sys.argv[1], sys.argv[2]
count = 0
for dirpath, _, files in os.walk(root):
    for name in sorted(files):
        data = open(os.path.join(dirpath, name), "rb").read()
        start = data.find(b"\x7fELF")
        if start >= 0:
            shoff, = struct.unpack_from("<Q", data, start + 0x28)
            shentsize, shnum = struct.unpack_from("<HH", data, start + 0x3A)
            with open(f"{prefix}.{count}.cubin", "wb") as out:
                out.write(data[start:])
            print(f"{os.path.join(dirpath, name)}: ELF at {start}, {len(data) - start} bytes to the end "
                  f"(section headers end at {shoff + shentsize * shnum}) -> {prefix}.{count}.cubin")
            count += 1
print(f"{count} images")

#!/usr/bin/env bash
# The second look: the cubin the driver compiled from each module's PTX
# (cuModuleLoadData), taken whole from the JIT cache, disassembled and
# compared kernel by kernel with ptxas's whole-program SASS of the same PTX.
set -u
export PATH=$PATH:/usr/local/cuda/bin
here=results/explore/jit-sass
D=$OUT/jit2
mkdir -p $D
nvcc -o /tmp/probe $here/probe.c -lcuda || exit 3
for m in kernels kernels-sm90; do
  ptx=target/ptx/$m.ptx
  rm -rf /tmp/c-$m
  CUDA_CACHE_PATH=/tmp/c-$m CUDA_CACHE_MAXSIZE=4294967296 /tmp/probe load $ptx $D/$m > /dev/null
  python3 $here/extract.py /tmp/c-$m $D/$m.cache
  ls -la /tmp/c-$m; find /tmp/c-$m -type f | head; xxd -l 96 $(find /tmp/c-$m -type f -size +100k | head -1)
  f=$(find /tmp/c-$m -type f -size +100k | head -1); off=$(grep -obUaP '\x7fELF' $f | head -1 | cut -d: -f1); echo "ELF offset $off"; xxd -s $off -l 64 $f
  ptxas -arch sm_90 $ptx -o $D/$m.ptxas.cubin
  cuobjdump -sass $D/$m.ptxas.cubin > $D/$m.ptxas.sass
  cuobjdump -sass $D/$m.cache.0.cubin > $D/$m.cache.sass 2>&1 | head -3
  nvdisasm -c $D/$m.cache.0.cubin 2>&1 | head -3
  cuobjdump -elf $D/$m.cache.0.cubin 2>&1 | head -20
  python3 $here/compare.py $D/$m.cache.sass $D/$m.ptxas.sass | tail -4
done
cd $OUT && rm -f jit2/*.cubin && tar cJf jit2.txz jit2 && rm -rf jit2

#!/usr/bin/env bash
# On the H200: the SASS of each module loaded from its PTX (found in the
# driver's JIT cache), the SASS of the JIT linker's cubin, and ptxas's (whole
# program and -c), compared kernel by kernel; each kernel's registers and
# largest block under both load paths; and Nsight Compute's SASS of the
# correctly rounded sum as it ran from the host. Needs target/ptx/*.ptx and
# target/release/host. About a minute.
set -u
export PATH=$PATH:/usr/local/cuda/bin
here=results/explore/jit-sass
D=$OUT/jit
mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $D/gpu.txt
ptxas --version | tail -1 | tee -a $D/gpu.txt
nvcc -o /tmp/probe $here/probe.c -lcuda || exit 3
for m in kernels kernels-sm90; do
  ptx=target/ptx/$m.ptx
  rm -rf /tmp/cache-load-$m /tmp/cache-link-$m
  CUDA_CACHE_PATH=/tmp/cache-load-$m CUDA_CACHE_MAXSIZE=4294967296 /tmp/probe load $ptx $D/$m > $D/$m.attributes.txt
  CUDA_CACHE_PATH=/tmp/cache-link-$m CUDA_CACHE_MAXSIZE=4294967296 /tmp/probe link $ptx $D/$m >> $D/$m.attributes.txt
  echo "== cache after load ($m)"; python3 $here/extract.py /tmp/cache-load-$m $D/$m.cache
  echo "== cache after link ($m)"; python3 $here/extract.py /tmp/cache-link-$m $D/$m.linkcache
  ptxas -arch sm_90 $ptx -o $D/$m.ptxas.cubin
  ptxas -arch sm_90 -c $ptx -o $D/$m.ptxas-c.cubin
  for c in $D/$m.*.cubin; do cuobjdump -sass $c > ${c%.cubin}.sass; done
  for pair in "cache.0 link" "cache.0 ptxas" "link ptxas-c" "ptxas ptxas-c"; do
    set -- $pair
    echo "== $m: $1 against $2"
    [ -f $D/$m.$1.sass ] && [ -f $D/$m.$2.sass ] && python3 $here/compare.py $D/$m.$1.sass $D/$m.$2.sass | tee $D/compare-$m-$1-$2.txt | tail -4
  done
done
printf '.version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n' > /tmp/broken.ptx
echo "== broken PTX, both load paths"; /tmp/probe broken /tmp/broken.ptx /tmp/broken
echo "== registers differing between the two load paths"
cat $D/*.attributes.txt | awk -F'\t' '{k=$2; v=$3" "$4" "$5; if (k in seen && seen[k]!=v) print k": "seen[k]" | "v; seen[k]=v}' > $D/attributes-differ.txt
wc -l < $D/attributes-differ.txt; grep -E "^sum_|^publish_block|^ladder" $D/attributes-differ.txt
echo "== ncu: sum_correctly_rounded as the host ran it"
timeout 180 ncu --page source --print-source sass -k regex:sum_correctly_rounded -c 1 \
  target/release/host bench --sizes 4096 --runs 1 --warmup 0 > $D/ncu-sum-cr.txt 2>&1
echo "ncu exit $?"; grep -c -E "MEMBAR|CCTL|ATOMG" $D/ncu-sum-cr.txt
cd $OUT && rm -f jit/*.cubin && tar cJf jit.txz jit && rm -rf jit && ls -la

#!/bin/bash
# Part 7 on the H200, after the final run: commit 4e61537, a refactor of the
# deterministic kernel's readers (one place picks a batch's reader) that keeps
# its additions. Runs the GPU tests on it (embedded), then the bench at every
# size, warm and cold, one round each of the final run's kernel (pD.ptx,
# 815e5e1) and this one (the host's own PTX), alternating. Run from the
# repository root with .device/ holding host, gpu and pD.ptx. Everything comes
# back as $OUT/part7n.tar.gz.
set -u
cd .device; W=$OUT/part7n; mkdir -p $W
{ timeout 120 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for temp in warm cold; do
  flag=""; [ $temp = cold ] && flag="--cold"
  for p in pD pF; do
    ptx=""; [ $p = pD ] && ptx="--ptx pD.ptx"
    timeout 60 ./host $ptx bench --sizes $SIZES $flag --format json --output $W/bench-$p-$temp-1.json 2>> $W/bench-errors.txt
    echo "$p $temp rc=$?" >> $W/bench-errors.txt
  done
done
tar czf $OUT/part7n.tar.gz -C $OUT part7n && rm -rf $W

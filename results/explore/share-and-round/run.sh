#!/bin/bash
# Exploratory run (issue 21), not the reference run: variants of main's
# kernels through --ptx, interleaved with main's own PTX, warm and cold.
#  det-a: the deterministic sum's warp loop takes a contiguous range of chunks per warp (even share);
#  det-b: the same per block, the block's warps interleaved over it;
#  bw-even: the bandwidth kernel with a contiguous range of quads per block (even share), for comparison;
#  cr-fastround: the correctly rounded sum's finish with the rounding replaced by a plain f64
#    conversion (wrong in general, right on bench's sparse input): the rounding's share of the end.
cd "$(dirname "$0")/.."
X=/tmp/x; R=/tmp/r7; mkdir -p $X $R
tar xzf .device/explore7.tgz -C $X
L=$OUT/explore7.log
t() { local s=$(date +%s); "$@" > /dev/null 2>> $L; echo "[rc=$? $(( $(date +%s) - s )) s] ${*: -3:1}" >> $L; }
BIG=268435456,1073741824,2147483648
MID=65536,1048576,4194304,16777216
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $L
for rep in 1 2; do
  for c in "" "--cold"; do
    k=${c:+cold}; k=${k:-warm}
    for v in base det-a det-b bw-even; do
      t .device/host bench --ptx $X/$v.ptx --sizes $BIG $c --format json --output $R/big-$v-$k-$rep.json
    done
    for v in base cr-fastround; do
      t .device/host bench --ptx $X/$v.ptx --sizes $MID $c --format json --output $R/mid-$v-$k-$rep.json
    done
  done
done
tar czf $OUT/r7.tgz -C /tmp r7
tail -c 3000 $L

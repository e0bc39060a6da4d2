#!/bin/bash
# Exploratory run: L2 prefetch-size hints on the sum kernels' 128-bit loads, and CUB's load instructions.
set -u
cd "$(dirname "$0")"
O=$OUT/l2; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt 2>&1
for v in ctl l2_128 l2_256; do gunzip -kf $v.ptx.gz; done
tar xzf cccl.tgz
( nvcc -O3 -arch=sm_90 -std=c++17 -I cccl/nvidia/cu13/include/cccl -cubin -o cub.cubin ../xtask/nvcc/cub_sum.cu && cuobjdump -sass cub.cubin > $O/cub.sass && grep -oE "LDG[A-Z0-9._]*" $O/cub.sass | sort | uniq -c > $O/cub-ldg.txt ) > $O/cub-build.log 2>&1 &
W=1048576,4194304,16777216,268435456,1073741824
C=4194304,268435456,1073741824
for round in 1 2; do
  for v in ctl l2_128 l2_256; do
    ./host bench --ptx $v.ptx --sizes $W --format json --output $O/warm-$v-$round.json > /dev/null 2>>$O/err.log || echo "warm $v $round failed" >> $O/err.log
    ./host bench --ptx $v.ptx --sizes $C --cold --format json --output $O/cold-$v-$round.json > /dev/null 2>>$O/err.log || echo "cold $v $round failed" >> $O/err.log
  done
done
wait
cd $OUT && tar czf l2.tgz l2 && rm -rf l2

#!/bin/bash
# nvcc-compare alone (the page kernels by rustc and nvcc, then every lab sum
# beside CUB), with the .device/ layout of run.sh; the output comes back as
# $OUT/r/nvcc-compare-cub.txt.
set -u
mkdir -p $OUT/r
ROOT=$(pwd); cd .device; cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu > $OUT/r/nvcc-compare-cub.txt 2>&1; echo "rc=$?" >> $OUT/r/nvcc-compare-cub.txt

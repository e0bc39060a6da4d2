#!/bin/bash
# Part 7's first pieces on the GPU machine, with the same .device/ layout as
# run.sh: the bench from 2^12 to 2^31 floats with the limit column, warm and
# cold, and nvcc-compare (the page's kernels by rustc and nvcc, then every lab
# sum beside CUB). Logs come back as $OUT/logs-limit.tgz.
set -u
L=$OUT/logs; R=$OUT/logs/results; mkdir -p $L $R
ROOT=$(pwd)
cd .device
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t() { echo "== $(date -u +%T) $*" >> $L/timeline-limit.txt; }
rc() { echo "rc=$?" >> "$1"; }
SIZES=4096,65536,1048576,16777216,268435456,1073741824,2147483648
t bench; ./host bench --sizes $SIZES --format json --output $R/bench-to-2e31.json --plot $R/bench-to-2e31.svg > $L/bench-json.txt 2>&1; rc $L/bench-json.txt
./host bench --sizes $SIZES > $R/bench-to-2e31.txt 2>&1; rc $R/bench-to-2e31.txt
t bench-cold; ./host bench --cold --sizes $SIZES > $R/bench-cold-to-2e31.txt 2>&1; rc $R/bench-cold-to-2e31.txt
t nvcc; ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu > $R/nvcc-compare-cub.txt 2>&1; rc $R/nvcc-compare-cub.txt
t done
tar czf $OUT/logs-limit.tgz -C $OUT logs

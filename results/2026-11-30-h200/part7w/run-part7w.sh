#!/bin/bash
# Part 7 on the H200, a diagnosis before changing the deterministic kernel
# again (main at c057270). (1) Where the kernel's warps wait at 4,096,
# 65,536, 2^22 and 2^23 floats: ncu's per-instruction warp-state samples
# (SourceCounters, every 32 cycles) for the deterministic, warp-shuffle and
# bandwidth kernels, code and data left in cache (the second launch of a
# bench is the one read), and CUB's kernels at 4,096 the same way. (2) Where
# the handoff route should stop: v0.ptx (handoff up to 1,024 chunks, main),
# h512.ptx (up to 512) and h256.ptx (up to 256), timed by one host with
# --ptx, warm and cold, two rounds, alternating, at 2^20 to 2^23. Run from
# the repository root with .device/ holding host and the PTX files.
# ROUNDS="" skips the timing (the second call did: the first call timed, and
# its ncu flag was misspelt). Everything comes back as $OUT/part7w.tar.gz, rewritten after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7w; mkdir -p $W
cp "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7w.tar.gz --exclude='*.ncu-rep' -C $OUT part7w; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.txt 2>&1
SIZES=1048576,2097152,2105344,3145728,4194304,4202496,6291456,8388608
for round in ${ROUNDS-1 2}; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in v0 h512 h256; do
      timeout 60 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
K='regex:sum_(deterministic|warp_shuffle|bandwidth)$'
for n in 4096 65536 4194304 8388608; do
  timeout 120 ncu --section SourceCounters --section WarpStateStats --section LaunchStats --warp-sampling-interval 0 --cache-control none --kernel-name "$K" -f -o /tmp/rep-$n ./host bench --sizes $n --runs 1 --warmup 1 > $W/ncu-log-$n.txt 2>&1
  echo "rc=$?" >> $W/ncu-log-$n.txt
  for k in sum_deterministic sum_warp_shuffle sum_bandwidth; do
    timeout 60 ncu -i /tmp/rep-$n.ncu-rep --kernel-name $k --launch-skip 1 --launch-count 1 --page source --csv --print-source sass > $W/src-$k-$n.csv 2>&1
    timeout 60 ncu -i /tmp/rep-$n.ncu-rep --kernel-name $k --launch-skip 1 --launch-count 1 --page details > $W/details-$k-$n.txt 2>&1
  done
  t "ncu $n"
done
nvcc -O3 -arch=sm_90 -std=c++17 cub_sum.cu -o cub_sum > $W/nvcc.txt 2>&1
timeout 120 ncu --section SourceCounters --section WarpStateStats --section LaunchStats --warp-sampling-interval 0 --cache-control none --kernel-name regex:Reduce -f -o /tmp/rep-cub-4096 ./cub_sum 1 1 4096 > $W/ncu-log-cub-4096.txt 2>&1
echo "rc=$?" >> $W/ncu-log-cub-4096.txt
timeout 60 ncu -i /tmp/rep-cub-4096.ncu-rep --page details > $W/details-cub-4096.txt 2>&1
timeout 60 ncu -i /tmp/rep-cub-4096.ncu-rep --page source --csv --print-source sass > $W/src-cub-4096.csv 2>&1
t "ncu cub"
rm -rf $W

#!/bin/bash
# Part 7 on the H200: cold measurements with the new flush (13289f4: L2
# flushed by `evict_l2`, a read of twice its size, instead of a memset of
# that size, whose dirty lines the timed kernel wrote back). The
# deterministic kernel is unchanged since the final run (815e5e1). Runs, in
# one job: the GPU tests; a sweep; ncu's DRAM bytes of the timed bandwidth
# and deterministic launches at 4,096 and 2^24 cold, with the new flush
# (host) and the old one (host-memset, 039ab18); the bench before
# (host-before: 249c14a with the new flush cherry-picked) and after, warm and
# cold, two rounds, and the old flush's cold bench on the same kernel;
# the bench from 2^12 to 2^31 warm and cold; nvcc-compare's CUB table (the
# CUB program now flushes and times like the host); xtask sanitize; and the
# four sanitizer tools on a bench at 1,025 chunks (the deterministic
# kernel's ticket route). Run from the repository root with .device/ holding
# host, host-before, host-memset, gpu and xtask. Everything comes back as
# $OUT/part7o.tar.gz, rewritten after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7o; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7o.tar.gz -C $OUT part7o; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
{ timeout 60 ./host sweep --sizes 4096,4194304 --determinism-runs 5; echo "rc=$?"; } > $W/sweep.txt 2>&1; t sweep
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for who in host host-memset; do
  for n in 4096 16777216; do
    { timeout 60 ncu --cache-control none --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics $M ./$who bench --sizes $n --cold --runs 2 --warmup 1; echo "rc=$?"; } > $W/ncu-$who-$n-cold.txt 2>&1
  done
done; t ncu
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before after; do
      bin=./host; [ $who = before ] && bin=./host-before
      timeout 60 $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  timeout 60 ./host-memset bench --sizes $SIZES --cold --format json --output $W/bench-memset-cold-$round.json 2>> $W/bench-errors.txt
  echo "memset cold $round rc=$?" >> $W/bench-errors.txt
  t "bench round $round"
done
BIG=4096,65536,1048576,16777216,268435456,1073741824,2147483648
{ timeout 120 ./host bench --sizes $BIG --format json --output $W/bench-to-2e31.json --plot $W/bench-to-2e31.svg; echo "rc=$?"; } > $W/bench-to-2e31-json.txt 2>&1
{ timeout 120 ./host bench --sizes $BIG; echo "rc=$?"; } > $W/bench-to-2e31.txt 2>&1
{ timeout 120 ./host bench --cold --sizes $BIG; echo "rc=$?"; } > $W/bench-cold-to-2e31.txt 2>&1; t bench-to-2e31
{ timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub.txt 2>&1; t nvcc-compare
{ timeout 200 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
for tool in memcheck racecheck synccheck initcheck; do
  extra=""; [ $tool = racecheck ] && extra="--racecheck-report hazard"
  { timeout 60 compute-sanitizer --tool $tool $extra --print-limit 20 --show-backtrace no ./host bench --sizes 8392705 --runs 1 --warmup 0; echo "rc=$?"; } > $W/sanitizer-ticket-$tool.txt 2>&1
  t "sanitize ticket $tool"
done

#!/bin/bash
# Part 7 on the H200: two changes to the deterministic kernel's handoff
# route, timed with the hold and the read flush. host-base: the kernel of
# 815e5e1 (063a01e's build); host-a: a3da881, the combining block loads up
# to eight slots per thread before waiting on any; host: a956736, that and
# the handoff route up to 2,048 chunks (2^24). host-before: 249c14a with the
# same timing. Runs, in one job: the GPU tests of a956736 (gpu) and a3da881
# (gpu-a); the bench of all four builds, warm and cold, two rounds,
# alternating; the bench from 2^12 to 2^31 and nvcc-compare for a956736 and
# a3da881; xtask sanitize (a956736: its bench reaches the ticket route at
# 2^24 + 1); and the four sanitizer tools at 2^24 (the handoff route's
# 2,048 chunks). Run from the repository root with .device/ holding those
# binaries and xtask. Everything comes back as $OUT/part7q.tar.gz,
# rewritten after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7q; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7q.tar.gz -C $OUT part7q; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
{ timeout 150 ./gpu-a; echo "rc=$?"; } > $W/gpu-tests-a.txt 2>&1; t gpu-tests-a
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,33554432,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before base a after; do
      case $who in before) bin=./host-before;; base) bin=./host-base;; a) bin=./host-a;; after) bin=./host;; esac
      timeout 60 $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
BIG=4096,65536,1048576,16777216,268435456,1073741824,2147483648
for who in after a; do
  bin=./host; [ $who = a ] && bin=./host-a
  { timeout 120 $bin bench --sizes $BIG --format json --output $W/bench-to-2e31-$who.json --plot $W/bench-to-2e31-$who.svg; echo "rc=$?"; } > $W/bench-to-2e31-json-$who.txt 2>&1
  { timeout 120 $bin bench --sizes $BIG; echo "rc=$?"; } > $W/bench-to-2e31-$who.txt 2>&1
  { timeout 120 $bin bench --cold --sizes $BIG; echo "rc=$?"; } > $W/bench-cold-to-2e31-$who.txt 2>&1; t "bench-to-2e31 $who"
  { timeout 150 ./xtask nvcc-compare --host $bin --out /tmp/nvcc-$who --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub-$who.txt 2>&1; t "nvcc-compare $who"
done
{ timeout 200 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
for tool in memcheck racecheck synccheck initcheck; do
  extra=""; [ $tool = racecheck ] && extra="--racecheck-report hazard"
  { timeout 60 compute-sanitizer --tool $tool $extra --print-limit 20 --show-backtrace no ./host bench --sizes 16777216 --runs 1 --warmup 0 --cold; echo "rc=$?"; } > $W/sanitizer-handoff-2e24-$tool.txt 2>&1
  t "sanitize handoff $tool"
done

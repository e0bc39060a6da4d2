#!/bin/bash
# The evidence run for part 5, on a GPU machine with the CUDA toolkit but no
# Rust. On the build machine: `cargo build --release`, then
# `cargo test --release --workspace --no-run` for the GPU test binary; copy
# target/release/host, target/release/xtask, that binary (as `gpu`) and
# target/ptx/kernels.ptx into .device/. Usage: run.sh 1 (tests and every
# command) or run.sh 2 (nvcc, Nsight Compute, sanitizer, bad input). Logs go
# under $OUT/logs and come back as $OUT/logs-<part>.tgz.
set -u
PART=$1
L=$OUT/logs; R=$OUT/logs/results; mkdir -p $L $R
ROOT=$(pwd)
cd .device
t() { echo "== $(date -u +%T) $*" >> $L/timeline-$PART.txt; }
rc() { echo "rc=$?" >> "$1"; }
if [ "$PART" = 1 ]; then
  (date -u; nvidia-smi; nvcc --version; compute-sanitizer --version) > $L/env.txt 2>&1
  t gpu-tests; ./gpu > $L/gpu-tests.txt 2>&1; rc $L/gpu-tests.txt
  t gpu-filter; ./gpu histograms > $L/gpu-tests-filtered.txt 2>&1; rc $L/gpu-tests-filtered.txt
  for b in 64 256 1024; do t sweep $b; ./host sweep --block $b > $R/sweep-$b.txt 2>&1; rc $R/sweep-$b.txt; done
  ./host sweep --block 256 --format csv --output $R/sweep-256.csv > /dev/null 2>&1
  t exercise; ./host exercise --format json --output $R/exercise.json --plot $R/exercise.svg > $L/exercise-json.txt 2>&1; rc $L/exercise-json.txt
  ./host exercise > $R/exercise.txt 2>&1; rc $R/exercise.txt
  t publish; ./host publish > $R/publish.txt 2>&1; rc $R/publish.txt
  ./host publish --format json --output $R/publish.json --launches 1 > /dev/null 2>&1; rc $L/publish-json-rc.txt
  t histogram; ./host histogram > $R/histogram.txt 2>&1; rc $R/histogram.txt
  ./host histogram --format markdown --output $R/histogram.md > /dev/null 2>&1
  t bench; ./host bench --plot $R/bench.svg > $R/bench.txt 2>&1; rc $R/bench.txt
  ./host bench --format json --output $R/bench.json > /dev/null 2>&1; rc $L/bench-json-rc.txt
  ./host bench --cold > $R/bench-cold.txt 2>&1; rc $R/bench-cold.txt
  # The small sizes again, twice each way, to see how much of a difference
  # between runs is noise.
  for k in 1 2; do ./host bench --sizes 4096,65536,1048576 --runs 20 > $R/bench-small-$k.txt 2>&1; rc $R/bench-small-$k.txt; done
  for k in 1 2; do ./host bench --cold --sizes 4096,65536,1048576 --runs 20 > $R/bench-small-cold-$k.txt 2>&1; rc $R/bench-small-cold-$k.txt; done
else
  cp "$ROOT/xtask/nvcc/page_kernels.cu" .
  t nvcc; ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu > $R/nvcc-compare.txt 2>&1; rc $R/nvcc-compare.txt
  t ncu; timeout 180 ncu --metrics smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_shared_atom.sum,lts__t_requests_op_red.sum,gpu__time_duration.sum ./host sweep --sizes 4194304 --runs 1 --warmup 0 --determinism-runs 0 > $R/ncu.txt 2>&1; rc $R/ncu.txt
  t sanitize; timeout 420 ./xtask sanitize --host ./host --out $L/sanitizer > $R/sanitize.txt 2>&1; rc $R/sanitize.txt
  t bad-input; (./host --ptx /nope sweep; echo rc=$?; CUDA_VISIBLE_DEVICES= ./host sweep; echo rc=$?; ./host --ptx ./page_kernels.cu sweep; echo rc=$?; ./host sweep --block 48; echo rc=$?; ./host publish --variant loose; echo rc=$?) > $R/bad-input.txt 2>&1
fi
t done
tar czf $OUT/logs-$PART.tgz -C $OUT logs

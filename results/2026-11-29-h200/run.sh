#!/bin/bash
# The evidence run that produced this folder, on a GPU machine with the CUDA
# toolkit but no Rust. On the build machine: `cargo build --release`, then
# `cargo test --release --workspace --no-run` for the GPU test binary; copy
# target/release/host, target/release/xtask, that binary (as `gpu`),
# target/ptx/kernels.ptx and xtask/nvcc/page_kernels.cu next to this script.
# Logs go under $OUT/logs.
L=$OUT/logs; R=$OUT/logs/results; mkdir -p $L $R
cd "$(dirname "$0")"
t() { echo "== $(date -u +%T) $*" >> $L/timeline.txt; }
(date -u; nvidia-smi; nvcc --version; compute-sanitizer --version) > $L/env.txt 2>&1
t gpu-tests; ./gpu > $L/gpu-tests.txt 2>&1; echo "rc=$?" >> $L/gpu-tests.txt
for b in 64 256 1024; do t sweep $b; ./host sweep --block $b > $L/sweep-$b.txt 2>&1; echo "rc=$?" >> $L/sweep-$b.txt; done
t exercise; ./host exercise --format json --output $R/exercise.json --plot $R/exercise.svg > $L/exercise-json.txt 2>&1; echo "rc=$?" >> $L/exercise-json.txt
./host exercise > $R/exercise.txt 2>&1; echo "rc=$?" >> $R/exercise.txt
t publish; ./host publish > $L/publish.txt 2>&1; echo "rc=$?" >> $L/publish.txt
./host publish --iterations 20 --variant block-relaxed,grid-wrong-scope > $L/publish-broken-20.txt 2>&1; echo "rc=$?" >> $L/publish-broken-20.txt
t histogram; ./host histogram > $L/histogram.txt 2>&1; echo "rc=$?" >> $L/histogram.txt
./host histogram --bins 4096 --sizes 1000003,16777216 > $L/histogram-4096.txt 2>&1; echo "rc=$?" >> $L/histogram-4096.txt
t bench; ./host bench --plot $R/bench.svg > $R/bench.txt 2>&1; echo "rc=$?" >> $R/bench.txt
./host bench --format json --output $R/bench.json > /dev/null 2>&1; echo "rc=$?" > $L/bench-json-rc.txt
./host bench --cold > $R/bench-cold.txt 2>&1; echo "rc=$?" >> $R/bench-cold.txt
./host bench --block 1024 --sizes 16777216,268435456 > $L/bench-1024.txt 2>&1; echo "rc=$?" >> $L/bench-1024.txt
t nvcc; ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu > $L/nvcc-compare.txt 2>&1; echo "rc=$?" >> $L/nvcc-compare.txt
t ncu; timeout 180 ncu --metrics smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_shared_atom.sum,lts__t_requests_op_red.sum,gpu__time_duration.sum ./host sweep --sizes 4194304 --runs 1 --warmup 0 --determinism-runs 0 > $L/ncu.txt 2>&1; echo "rc=$?" >> $L/ncu.txt
t sanitize; timeout 400 ./xtask sanitize --host ./host --out $L/sanitizer > $L/sanitize.txt 2>&1; echo "rc=$?" >> $L/sanitize.txt
./host sweep --block 256 --format csv --output $R/sweep-256.csv > /dev/null 2>&1; ./host histogram --format markdown --output $R/histogram.md > /dev/null 2>&1
t racecheck-by-address; for v in block-release-acquire block-relaxed; do echo "## $v"; compute-sanitizer --tool racecheck --racecheck-report hazard --show-backtrace no --print-limit 100000 ./host publish --iterations 1 --rounds 4 --variant $v > /tmp/$v.log 2>&1; echo "exit=$?"; grep -E "hazard detected" /tmp/$v.log | sed -E 's/ in block \([0-9]+,0,0\)//' | sort | uniq -c; grep SUMMARY /tmp/$v.log; done > $L/racecheck-hazards-by-address.txt 2>&1
t bad-input; (./host --ptx /nope sweep; echo rc=$?; CUDA_VISIBLE_DEVICES= ./host sweep; echo rc=$?; ./host --ptx ./page_kernels.cu sweep; echo rc=$?; ./host sweep --block 48; echo rc=$?) > $L/bad-input.txt 2>&1
t done
tar czf $OUT/logs.tgz -C $OUT logs

#!/bin/bash
# The few-chunk entry up to 32 chunks under compute-sanitizer: memcheck and racecheck over the build's bench at
# 10, 16 and 32 chunks (the entry's new launches) and 34 (the general entry's), with the flags of the lab's
# sanitize step (host/src/commands/evidence/sanitize.rs: racecheck's per-hazard report).
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
S=73729,131072,262144,270337
for tool in memcheck racecheck; do
  extra=""; [ $tool = racecheck ] && extra="--racecheck-report hazard"
  compute-sanitizer --tool $tool --print-limit 20 --show-backtrace no $extra target/dev/host-few32 bench --sizes $S --runs 1 --warmup 0 > $A/$tool.txt 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; tail -2 $A/$tool.txt
done

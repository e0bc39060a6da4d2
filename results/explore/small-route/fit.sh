#!/usr/bin/env bash
# The correctly rounded sum's small route, block 1,024 against the fewest
# 256-thread granules that give each thread at most 16 floats ("fit"), and off;
# three interleaved rounds, warm and cold, at 4,096 .. 16,384 (block 256 asked).
# H is a host built from p-small2 at 5de06de plus a temporary hook, not
# committed: LAB_SMALL_FIT=1 made SumKernels::config launch the route's one
# block at the fit size (the hook left the bench's "one block of" labels and
# CSV block column at 1,024; the times are what to read). Its summary is
# fit.py's, in fit.txt. 36 s on one H200.
set -uo pipefail
H=target/x/host-small; O=$OUT/fit; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/machine.txt
date -u >> $O/machine.txt
$H bench --sizes 4096 --runs 3 --warmup 1 > /dev/null 2>&1  # JIT cache
for round in 1 2 3; do for cache in warm cold; do for v in off r1024 fit; do
  f=(bench --sizes 4096,8192,12288,16384 --runs 30 --warmup 5 --format json --output $O/$cache-$v-$round.json)
  [ $cache = cold ] && f+=(--cold)
  case $v in off) LAB_SMALL_ROUTE=off $H "${f[@]}";; r1024) $H "${f[@]}";; fit) LAB_SMALL_FIT=1 $H "${f[@]}";; esac 2>>$O/err.txt
done; done; done
cd $OUT && tar czf fit.tgz fit && rm -rf fit

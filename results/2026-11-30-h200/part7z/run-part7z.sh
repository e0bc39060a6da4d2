#!/bin/bash
# Part 7 on the H200: n3.ptx (n2 with branch hints: the warp loop unlikely,
# a whole aligned chunk's reader and the handoff route likely, so the code
# a mid-size launch runs lies closer together) against n2.ptx (part7y).
# Three rounds, warm and cold, alternating, one host (--ptx); ncu's
# per-instruction samples of both at 16,384 and 65,536. Run from the
# repository root with .device/ holding host and the PTX files. Everything
# comes back as $OUT/part7z.tar.gz, rewritten after each phase.
set -u
cd .device; W=$OUT/part7z; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7z.tar.gz -C $OUT part7z; }
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in n2 n3; do
      timeout 60 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
for who in n2 n3; do
  for n in 16384 65536; do
    timeout 120 ncu --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 --cache-control none --kernel-name sum_deterministic -f -o /tmp/rep-$who-$n ./host bench --ptx $who.ptx --sizes $n --runs 1 --warmup 1 > $W/ncu-log-$who-$n.txt 2>&1
    timeout 60 ncu -i /tmp/rep-$who-$n.ncu-rep --page source --csv --print-source sass > $W/src-$who-$n.csv 2>&1
  done
  t "ncu $who"
done
rm -rf $W

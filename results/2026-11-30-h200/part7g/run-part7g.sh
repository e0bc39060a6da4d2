#!/bin/bash
# Part 7 on the H200: the deterministic sum with a one-segment combine
# (`sum + 0.0`, no second pass, for up to 1024 chunks) as pC.ptx, and the same
# PTX with `.maxnreg 48` in its entry (pC48.ptx: 5 blocks of 256 per SM
# instead of 4, ptxas moving 44 bytes of loop-invariant values to the stack),
# against 67ac622's p0.ptx: the GPU tests (pC's code, embedded), then the bench
# at every size, warm and cold, alternating, two rounds. Run from the
# repository root with .device/ holding host, gpu and the PTX files.
# Everything comes back as $OUT/part7g.tar.gz.
set -u
cd .device; W=$OUT/part7g; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
{ timeout 120 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in p0 pC pC48; do
      timeout 60 ./host --ptx $p.ptx bench --sizes $SIZES $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
tar czf $OUT/part7g.tar.gz -C $OUT part7g && rm -rf $W

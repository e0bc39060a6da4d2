#!/bin/bash
# Part 7 on the H200: the submitted build (ed02195: the kernel of a3da881)
# under compute-sanitizer. xtask sanitize (every family; its cold bench runs
# the deterministic sum's handoff route at 4,097 floats and its ticket route
# at 8,392,705), and the four tools on a bench at 2^23 floats (1,024 chunks,
# the handoff route's largest) with block 256 (four slots per gathering
# thread) and block 32 (32 slots: four passes of eight). Run from the
# repository root with .device/ holding host and xtask. Everything comes
# back as $OUT/part7r.tar.gz.
set -u
cd .device; W=$OUT/part7r; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7r.tar.gz -C $OUT part7r; }
{ timeout 200 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
for block in 256 32; do
  for tool in memcheck racecheck synccheck initcheck; do
    extra=""; [ $tool = racecheck ] && extra="--racecheck-report hazard"
    { timeout 60 compute-sanitizer --tool $tool $extra --print-limit 20 --show-backtrace no ./host bench --sizes 8388608 --block $block --runs 1 --warmup 0 --cold; echo "rc=$?"; } > $W/sanitizer-handoff-2e23-block$block-$tool.txt 2>&1
    t "sanitize 2^23 block $block $tool"
  done
done

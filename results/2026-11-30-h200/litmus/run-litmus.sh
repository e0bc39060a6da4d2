#!/bin/bash
# Part 6 (issue 9), first H200 run, in two calls (each under the device's
# 10-minute limit): `run-litmus.sh suite` runs the GPU tests (with the
# litmus ones), the whole suite in each preset for 0.6 s per row, and the
# page's own example for 10 s per row; `run-litmus.sh tune` runs a tuning
# search and memcheck on every litmus kernel. Built on the CPU machine and
# copied in .device/ as ../run.sh describes (this script too). Run from the
# repository root: bash .device/run-litmus.sh suite, then ... tune. Every log comes back under $OUT.
set -u
cd .device
H=./host
case "$1" in
suite)
  { ./gpu; echo "rc=$?"; } > $OUT/gpu-tests.txt 2>&1
  for preset in quiet parallel stale-l1 stress; do
    $H litmus --preset $preset --seconds 0.6 --format json --output $OUT/litmus-$preset.json 2> $OUT/litmus-$preset.err
    echo "rc=$?" >> $OUT/litmus-$preset.err
  done
  # The page's own example: MP release/acquire, .cta within a block and
  # .gpu across blocks.
  $H litmus --test mp --variant rel-acq-cta --placement intra-block --seconds 10 --format json --output $OUT/litmus-page-cta.json 2>> $OUT/litmus-page.err; echo "rc=$?" >> $OUT/litmus-page.err
  $H litmus --test mp --variant rel-acq-gpu --placement inter-block --preset stale-l1 --seconds 10 --format json --output $OUT/litmus-page-gpu.json 2>> $OUT/litmus-page.err; echo "rc=$?" >> $OUT/litmus-page.err
  ;;
tune)
  $H litmus --tune 24 --seconds 0.04 --format json --output $OUT/litmus-tune.json 2> $OUT/litmus-tune.err; echo "rc=$?" >> $OUT/litmus-tune.err
  compute-sanitizer --tool memcheck --print-limit 20 $H litmus --instances 1 --launches-per-check 1 > $OUT/memcheck-litmus.txt 2>&1; echo "rc=$?" >> $OUT/memcheck-litmus.txt
  ;;
esac
cd $OUT && tar czf logs-$1.tar.gz *.txt *.err 2>/dev/null; rm -f *.err

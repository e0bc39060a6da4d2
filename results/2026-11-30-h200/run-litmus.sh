#!/bin/bash
# Part 6 (issue 9), first H200 run: the GPU tests (with the litmus ones),
# the whole suite in each preset, a tuning search, and memcheck on every
# litmus kernel. Built on the CPU machine and copied in .device/ as run.sh
# describes. Every log comes back under $OUT.
set -u
cd .device
H=./host
{
  echo "== gpu tests"; ./gpu; echo "rc=$?"
} > $OUT/gpu-tests.txt 2>&1
# The suite, every preset; 10^8 instances per row (the floor for a
# forbidden row), JSON kept for the README.
for preset in quiet parallel stale-l1 stress; do
  $H litmus --preset $preset --instances 100000000 --format json --output $OUT/litmus-$preset.json 2> $OUT/litmus-$preset.err
  echo "rc=$?" >> $OUT/litmus-$preset.err
  ./host litmus --preset $preset --instances 1 --format table >/dev/null 2>&1 || true
done
# The page's own example, 10^9 instances: MP release/acquire, .cta within a
# block and .gpu across blocks.
$H litmus --test mp --variant rel-acq-cta --placement intra-block --instances 1000000000 --format json --output $OUT/litmus-page-cta.json 2>> $OUT/litmus-page.err; echo "rc=$?" >> $OUT/litmus-page.err
$H litmus --test mp --variant rel-acq-gpu --placement inter-block --instances 1000000000 --preset stale-l1 --format json --output $OUT/litmus-page-gpu.json 2>> $OUT/litmus-page.err; echo "rc=$?" >> $OUT/litmus-page.err
# The tuning search: 24 environments, 0.04 s per row.
$H litmus --tune 24 --seconds 0.04 --format json --output $OUT/litmus-tune.json 2> $OUT/litmus-tune.err; echo "rc=$?" >> $OUT/litmus-tune.err
# Memcheck on every kernel (one launch each).
compute-sanitizer --tool memcheck --print-limit 20 $H litmus --instances 1 --launches-per-check 1 > $OUT/memcheck-litmus.txt 2>&1; echo "rc=$?" >> $OUT/memcheck-litmus.txt
cd $OUT && tar czf logs.tar.gz *.txt *.err && rm -f *.err

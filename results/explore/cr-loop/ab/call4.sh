#!/bin/bash
# A/A: main's embedded PTX against the same PTX loaded with --ptx, rounds interleaved,
# warm and cold, at the sizes of ab3.sh: the spread of an unchanged kernel.
set -u
tar xzf target/dev/carry4.tgz
H=target/release/host; S=262144,1048576,4194304,16777216,33554432,67108864,268435456
A=/tmp/aa; mkdir -p $A; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    $H bench $c --sizes $S --format json --output $A/main-$n-$r.json > $A/main-$n-$r.log 2>&1; echo "main $n $r rc=$?"
    $H bench $c --ptx target/dev/main.ptx --sizes $S --format json --output $A/same-$n-$r.json > $A/same-$n-$r.log 2>&1; echo "same $n $r rc=$?"
  done
done
echo "done $(( $(date +%s) - t0 ))s"
tar czf $OUT/aa.tgz -C /tmp aa

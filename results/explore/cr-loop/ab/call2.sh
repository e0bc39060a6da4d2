#!/bin/bash
# A/B 2 of the cr-loop variants: main's embedded PTX against v14, v14b (two-sided check)
# and v14c (one-sided, then two-sided before the slow path), rounds interleaved, warm and cold;
# then each variant's accuracy and memcheck at ragged sizes.
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xzf target/dev/carry2.tgz
H=target/release/host; S=262144,1048576,4194304,16777216,67108864,268435456
A=/tmp/ab2; mkdir -p $A; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    $H bench $c --sizes $S --format json --output $A/main-$n-$r.json > $A/main-$n-$r.log 2>&1; echo "main $n $r rc=$?"
    for v in v14 v14b v14c; do
      $H bench $c --ptx target/dev/$v.ptx --sizes $S --format json --output $A/$v-$n-$r.json > $A/$v-$n-$r.log 2>&1; echo "$v $n $r rc=$?"
    done
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
for v in v14b v14c; do
  $H accuracy --ptx target/dev/$v.ptx > $A/accuracy-$v.txt 2>&1; echo "accuracy $v rc=$?"
  compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no $H bench --ptx target/dev/$v.ptx --sizes 4097,65539,1048579,16777219 --runs 1 --warmup 1 > $A/memcheck-$v.txt 2>&1; echo "memcheck $v rc=$?"
done
echo "all done $(( $(date +%s) - t0 ))s"
tar czf $OUT/ab2.tgz -C /tmp ab2

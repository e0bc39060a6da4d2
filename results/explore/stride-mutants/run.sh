#!/bin/bash
set -u
cd "$(dirname "$0")"
O=$OUT/r5; mkdir -p $O/phases $O/mutants
gunzip -kf orig.ptx.gz stamped.ptx.gz
( nvcc -O2 -o phases ../results/explore/phases/phases.cpp -lcuda && ./phases orig.ptx stamped.ptx $O/phases 1073741824,2147483648 ) > $O/phases/run.log 2>&1
echo "phases rc=$?" >> $O/phases/run.log
A="--threads 128 --testing-percent 50 --lane-multiplier 21 --shuffle-blocks true --distance random --stress-pattern store-store --stress-iterations 0 --stress-line-words 4 --stress-lines 58 --pre-stress-iterations 64 --sync-start false --preload observer"
B="--threads 128 --testing-percent 25 --lane-multiplier 21 --shuffle-blocks true --distance random --stress-pattern store-store --stress-iterations 256 --stress-line-words 3 --stress-lines 36 --pre-stress-iterations 4 --sync-start true --preload observer"
./host litmus --mutants --placement inter-block --seconds 0.2 $B --location-stride 4 --format json --output $O/mutants/b-stride4-all.json > /dev/null 2>> $O/mutants/err.log
./host litmus --mutants --test mp,lb,wrc --placement inter-block --seconds 0.2 $A --location-stride 4 --format json --output $O/mutants/a-stride4.json > /dev/null 2>> $O/mutants/err.log
./host litmus --mutants --test mp,lb,wrc --placement inter-block --seconds 0.2 $B --format json --output $O/mutants/b-stride64.json > /dev/null 2>> $O/mutants/err.log
cat $O/phases/run.log $O/phases/times-large.txt
cd $OUT && tar czf r5.tgz r5 && rm -rf r5

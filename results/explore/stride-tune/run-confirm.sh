#!/bin/bash
set -u
cd "$(dirname "$0")"
O=$OUT/confirm; mkdir -p $O
A="--threads 128 --testing-percent 50 --lane-multiplier 21 --shuffle-blocks true --distance random --stress-pattern store-store --stress-iterations 0 --stress-line-words 4 --stress-lines 58 --pre-stress-iterations 64 --sync-start false --preload observer"
B="--threads 128 --testing-percent 25 --lane-multiplier 21 --shuffle-blocks true --distance random --stress-pattern store-store --stress-iterations 256 --stress-line-words 3 --stress-lines 36 --pre-stress-iterations 4 --sync-start true --preload observer"
R="--placement inter-block --test wrc,iriw,rwc,isa2 --variant relaxed-gpu,relaxed-cta,fence-acq-rel-cta --seconds 1"
./host litmus $R $A --location-stride 4 --format json --output $O/s123-stride4.json > /dev/null 2>> $O/err.log
./host litmus $R $A --format json --output $O/s123-stride64.json > /dev/null 2>> $O/err.log
./host litmus $R $B --format json --output $O/s64-92-stride64.json > /dev/null 2>> $O/err.log
./host litmus $R $B --location-stride 4 --format json --output $O/s64-92-stride4.json > /dev/null 2>> $O/err.log
cd $OUT && tar czf confirm.tgz confirm && rm -rf confirm

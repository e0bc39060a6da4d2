#!/bin/bash
set -u
cd "$(dirname "$0")"
O=$OUT/tune; mkdir -p $O
for s in 64 16 4; do
  ./host litmus --tune 150 --seconds 0.03 --placement inter-block --test wrc,iriw,rwc,isa2 --variant relaxed-gpu,relaxed-cta \
    --location-stride $s --format json --output $O/tune-$s.json > /dev/null 2>> $O/err.log || echo "stride $s failed" >> $O/err.log
done
cd $OUT && tar czf tune.tgz tune && rm -rf tune

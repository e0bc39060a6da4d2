#!/bin/bash
# Exploratory run (issue 23), not the reference run: the lab's WRC, IRIW, ISA2 and RWC across
# blocks with the tuned-wrc preset and smaller location slots (--location-stride), so that
# instances share 128-byte lines as in cuda-litmus's dense layouts; 1 s a row. Then one
# short run at the densest stride under compute-sanitizer's memcheck.
# Run from the repository root: bash results/explore/dense-locations/run.sh HOST OUT
HOST=$1; OUT=$2
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for stride in 64 16 8 4; do
  $HOST litmus --test wrc,iriw,isa2,rwc --variant relaxed-gpu,fence-acq-rel-cta --placement inter-block \
    --preset tuned-wrc --location-stride $stride --seconds 1 --format json --output $OUT/stride-$stride.json
  echo "stride $stride rc=$?"
done
$HOST litmus --test wrc,iriw,isa2,rwc --variant relaxed-gpu,fence-acq-rel-cta --placement inter-block \
  --preset tuned-wrc --location-stride 4 --distance same-line --seconds 1 --format json --output $OUT/stride-4-same-line.json
echo "stride 4 same-line rc=$?"
compute-sanitizer --tool memcheck $HOST litmus --test wrc,iriw --variant relaxed-gpu --placement inter-block \
  --location-stride 4 --instances 100000 2>&1 | tail -2

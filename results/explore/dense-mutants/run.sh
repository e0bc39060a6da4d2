#!/bin/bash
# Exploratory run (issue 23), not the reference run: the inter-block mutants of MP, LB and WRC
# with the tuned-wrc preset at the default location stride and at the densest (4 words, eight
# instances a 128-byte line), 0.2 s a mutant as in the reference run.
# Run from the repository root: bash results/explore/dense-mutants/run.sh HOST OUT
HOST=$1; OUT=$2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for stride in 64 4; do
  $HOST litmus --mutants --test mp,lb,wrc --placement inter-block --preset tuned-wrc --location-stride $stride \
    --seconds 0.2 --format json --output $OUT/mutants-stride-$stride.json
  echo "stride $stride rc=$?"
done

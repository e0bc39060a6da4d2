#!/bin/bash
# The two runs of phases.cpp on the GPU machine (2026-12-02), from a folder holding orig.ptx (main's sm_70 module at
# f9e4277, `cargo xtask build-ptx`) and stamped.ptx (the same with phases.patch applied), both carried gzipped.
# The first printed times.txt and the stamps of 16,384 to 2^28 floats; the second, in the run that also made
# ../stride-mutants (its run.sh), times-large.txt and the stamps of 2^30 and 2^31.
set -u
cd "$(dirname "$0")"
O=$OUT/phases; mkdir -p $O
gunzip -kf orig.ptx.gz stamped.ptx.gz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/gpu.txt 2>&1
nvcc -O2 -o phases ../results/explore/phases/phases.cpp -lcuda > $O/build.log 2>&1 || { cat $O/build.log; exit 1; }
./phases orig.ptx stamped.ptx $O                              # first run: 16,384 to 2^28
./phases orig.ptx stamped.ptx $O 1073741824,2147483648         # second run: 2^30 and 2^31

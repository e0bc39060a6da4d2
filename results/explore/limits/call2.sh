#!/bin/bash
# The second call: the program extended to every size of the bench ladder and to the correctly rounded sum's
# cluster route (the Hopper module's PTX), ten rounds (five past 2^24). It ran as limits-2.cu, rebuilt here
# from limits.cu and limits-2.patch.
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
date -u > $A/machine-2.txt
cp results/explore/limits/limits.cu /tmp/limits-2.cu && patch -s /tmp/limits-2.cu results/explore/limits/limits-2.patch
nvcc -O3 -arch=sm_90 -I target/cccl/nvidia/cu13/include/cccl -o /tmp/limits /tmp/limits-2.cu -lcuda > $A/build-2.txt 2>&1; echo "build rc=$? $(( $(date +%s) - t0 ))s"
cuobjdump -sass /tmp/limits | gzip -c > $A/sass.txt.gz
/tmp/limits target/ptx/kernels.ptx target/ptx/kernels-sm90.ptx 10 > $A/out-2.txt 2>&1; echo "limits rc=$? $(( $(date +%s) - t0 ))s"
grep -c "^time" $A/out-2.txt; grep -v "^time" $A/out-2.txt | head -20

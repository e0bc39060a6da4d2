#!/bin/bash
# The first call on the GPU machine: the GPU tests of main's last commit, then the first version of the program
# (limits.cu with limits-1.patch applied) built by nvcc against the CCCL 3.5 headers nvcc-compare uses and run
# beside main's PTX, five rounds. The program ran as limits-1.cu; it is rebuilt here from the patch.
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -2; } > $A/machine.txt 2>&1
target/release/deps/gpu-c45d6755b5634ddb > $A/gpu-tests.txt 2>&1; echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"
tail -2 $A/gpu-tests.txt
cp results/explore/limits/limits.cu /tmp/limits-1.cu && patch -s /tmp/limits-1.cu results/explore/limits/limits-1.patch
nvcc -O3 -arch=sm_90 -I target/cccl/nvidia/cu13/include/cccl -o /tmp/limits /tmp/limits-1.cu -lcuda > $A/build.txt 2>&1; echo "build rc=$? $(( $(date +%s) - t0 ))s"
cuobjdump -sass /tmp/limits > /tmp/limits.sass 2>&1
/tmp/limits target/ptx/kernels.ptx 5 > $A/out-1.txt 2>&1; echo "limits rc=$? $(( $(date +%s) - t0 ))s"
grep -c "^time" $A/out-1.txt; grep -v "^time" $A/out-1.txt | head -20

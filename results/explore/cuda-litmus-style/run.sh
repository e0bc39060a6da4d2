#!/bin/bash
# Exploratory run (issue 23), not the reference run: WRC and IRIW written in cuda-litmus's
# idiom (wrc.cu, iriw.cu: cuda::atomic_ref at thread_scope_device, relaxed loads and stores,
# with or without cuda::atomic_thread_fence(acq_rel, thread_scope_block) between each
# reader's two accesses, F=0/1), every thread of an instance in a block of its own,
# partner blocks per lane as in cuda-litmus's Hopper-file code (M=0) or per block as in its
# later code (M=1), locations at a stride of 2s words (s=1, dense as cuda-litmus's smallest
# memStride, or s=32), built with -arch sm_80 as cuda-litmus builds, so the driver compiles
# the PTX at load; 200 launches of 1,024 blocks of 256 threads each. Then the lab's own WRC
# and IRIW in the block splits where cuda-litmus's Hopper file shows its highest
# fence-acq-rel-cta rates, with the tuned presets. Run from the repository root:
# bash results/explore/cuda-litmus-style/run.sh HOST OUT
HOST=$1; OUT=$2; E=results/explore/cuda-litmus-style; W=$(mktemp -d)
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -1
for t in wrc iriw; do for F in 0 1; do for M in 0 1; do
  nvcc -arch sm_80 -DF=$F -DM=$M $E/$t.cu -o $W/$t$F$M || exit 1
done; done; done
for t in wrc iriw; do for s in 1 32; do for F in 0 1; do for M in 0 1; do $W/$t$F$M $s; done; done; done; done
echo "sm_90 SASS of wrc.cu with F=1 M=1 (compiled offline; the driver's own compilation of the sm_80 PTX is not shown):"
nvcc -arch sm_90 -DF=1 -DM=1 -cubin -o $W/wrc.cubin $E/wrc.cu && cuobjdump -sass $W/wrc.cubin | grep -E 'MEMBAR|LD\.|ST\.|CCTL' | sed 's#/\* 0x[0-9a-f]* \*/##'
$HOST litmus --test wrc --variant relaxed-gpu,fence-acq-rel-cta --placement blocks-01-2,blocks-02-1,blocks-0-12,inter-block \
  --preset tuned-wrc --seconds 1 --format json --output $OUT/splits-wrc.json; echo "lab WRC splits rc=$?"
$HOST litmus --test iriw --variant relaxed-gpu,fence-acq-rel-cta --placement blocks-012-3,blocks-01-23,blocks-01-2-3,inter-block \
  --preset tuned-iriw --seconds 1 --format json --output $OUT/splits-iriw.json; echo "lab IRIW splits rc=$?"

#!/bin/bash
set -u
cd "$(dirname "$0")"
O=$OUT/ncu; mkdir -p $O
tar xzf cccl.tgz
nvcc -O3 -arch=sm_90 -std=c++17 -I cccl/nvidia/cu13/include/cccl -o cub_sum ../xtask/nvcc/cub_sum.cu > $O/build.log 2>&1 || { cat $O/build.log; exit 1; }
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__cycles_active.avg,sm__cycles_active.min,sm__cycles_active.max,gpc__cycles_elapsed.max,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for n in 268435456 1073741824; do
  ncu --csv --cache-control none --clock-control none --kernel-name regex:"Reduce" --metrics $M ./cub_sum 1 0 $n > $O/cub-$n.csv 2> $O/cub-$n.err
  ncu --csv --cache-control none --clock-control none --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics $M ./host bench --sizes $n --runs 1 --warmup 0 > $O/lab-$n.csv 2> $O/lab-$n.err
done
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu

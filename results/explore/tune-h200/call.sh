#!/bin/bash
# Issue 58's per-GPU call: the tuned evidence steps, the lab's six comparison
# rows in four environments, cuda-litmus twice, layout runs, the tuning GPU test.
set -u
D=$(cd "$(dirname "$0")" && pwd)
H=$D/host
S=$(date +%s)
t() { echo $(( $(date +%s) - S )); }
mkdir -p $OUT/peer
P=$OUT/peer/peer.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
DRV=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
# This call is for a GPU the results do not hold yet: on another, stop at once.
case "$GPU" in *"${WANT:-H200}"*) ;; *) echo "not an ${WANT:-H200}: $GPU"; exit 3 ;; esac
{
  echo "# gpu: $GPU"
  echo "# driver: $DRV"
  echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# lab commit: $(cat $D/commit) (gpu-tests: the same)"
  echo "# cuda-litmus: reeselevine/cuda-litmus 4b6c4a0, params/stress_params.txt with testIterations=100, -DRELAXED -DSCOPE_DEVICE, every thread its own block"
  echo "# nvcc: $(nvcc --version | tail -1)"
} > $P
# cuda-litmus builds in the background while the evidence runs.
cd $D/cuda-litmus
sed 's/^testIterations=.*/testIterations=100/' params/stress_params.txt > stress100.txt
mkdir -p target
b() { nvcc -DRELAXED -DSCOPE_DEVICE -D$2 -I. -rdc=true -arch sm_90 runner.cu kernels/$1.cu -o "target/$1" > "target/$1.log" 2>&1 || echo "build $1 failed" >> "target/$1.log"; }
( b mp TB_0_1; b wrc TB_0_1_2; b iriw TB_0_1_2_3; b rwc TB_0_1_2; b isa2 TB_0_1_2; b 2+2w TB_0_1 ) &
BUILD=$!
# 1. The evidence steps: tune for two minutes, then the suite in the winners.
$H evidence $OUT/gpu-tuned --only litmus-gpu > $OUT/evidence.txt 2>&1
echo "evidence exit $? at $(t) s" >> $OUT/evidence.txt
# 2. The lab's six rows, 2e8 instances each, in four environments.
K="--test mp,wrc,iriw,rwc,isa2,2plus2w --variant relaxed-gpu --placement inter-block --instances 200000000 --format json"
$H litmus $K --output $OUT/peer/lab-default.json > $OUT/peer/lab.log 2>&1
$H litmus $K --preset tuned-wrc --location-stride 4 --output $OUT/peer/lab-tuned-wrc-4.json >> $OUT/peer/lab.log 2>&1
$H litmus $K --preset tuned-wrc --location-stride 8 --output $OUT/peer/lab-tuned-wrc-8.json >> $OUT/peer/lab.log 2>&1
$H litmus $K --tuned $OUT/gpu-tuned/tuned --output $OUT/peer/lab-tuned.json >> $OUT/peer/lab.log 2>&1
echo "lab exit $? at $(t) s" >> $OUT/peer/lab.log
echo "lab peer runs done at $(t) s" >> $P
# 3. cuda-litmus, each test run twice.
wait $BUILD
cat target/*.log > $OUT/build.txt; ls target >> $OUT/build.txt
for r in 1 2; do
  for k in mp wrc iriw rwc isa2 2+2w; do
    loc=params/2-loc.txt; [ $k = isa2 ] && loc=params/3-loc.txt
    echo "## $k round $r" >> $P
    "./target/$k" -s stress100.txt -t $loc >> $P 2>&1
    echo "exit $?" >> $P
  done
done
echo "cuda-litmus done at $(t) s" >> $P
# 4. Layout runs: tuned-wrc at stride 8 under six run seeds, the winners under two.
L="--test wrc,iriw --variant relaxed-gpu --placement inter-block --instances 200000000 --format csv"
for s in 1 2 3 4 5 6; do echo "## tuned-wrc stride 8 --seed $s"; $H litmus $L --preset tuned-wrc --location-stride 8 --seed $s 2>&1; done > $OUT/peer/layout.txt
for s in 1 2; do echo "## tuned --seed $s"; $H litmus $L --tuned $OUT/gpu-tuned/tuned --seed $s 2>&1; done >> $OUT/peer/layout.txt
echo "layout runs done at $(t) s" >> $P
# 5. The tuning GPU test.
$D/gpu-tests --exact litmus_tuning_search_keeps_winners_no_worse_than_its_start > $OUT/gpu-test.txt 2>&1
echo "gpu test exit $? at $(t) s" >> $OUT/gpu-test.txt
cd $OUT && tar czf all.tgz gpu-tuned peer evidence.txt build.txt gpu-test.txt && rm -rf gpu-tuned peer

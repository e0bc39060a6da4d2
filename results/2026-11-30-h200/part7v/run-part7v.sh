#!/bin/bash
# Part 7 on the H200: the 25 GPU tests after the mend of b2ecb33 (the harness
# tests share one check; kernels unchanged). Run from the repository root with
# .device/ holding gpu (the test binary).
mkdir -p $OUT/part7v && (timeout 150 .device/gpu; echo "rc=$?") > $OUT/part7v/gpu-tests.txt 2>&1

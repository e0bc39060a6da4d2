#!/bin/bash
# Part 7 on the H200: the 25 GPU tests at the submitted kernel (a3da881's)
# with the documented-order test launching twice per scratch allocation, so
# the second launch finds the ticket and slots as the first left them. Run
# from the repository root with .device/ holding gpu (the test binary).
mkdir -p $OUT/part7u && (timeout 150 .device/gpu; echo "rc=$?") > $OUT/part7u/gpu-tests.txt 2>&1

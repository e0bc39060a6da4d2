#!/bin/bash
# The last check on the submitted code: the GPU tests and a short run of
# every command, with the .device/ layout of run.sh. Output comes back as
# $OUT/final-check.txt.
set -u
cd .device
{
  echo "== gpu tests"; ./gpu; echo "rc=$?"
  echo "== sweep"; ./host sweep --sizes 4096,4194304 --determinism-runs 5; echo "rc=$?"
  echo "== exercise"; ./host exercise --sizes 4096,65536 --runs 3 --warmup 1 | tail -12; echo "rc=$?"
  echo "== bench"; ./host bench --sizes 4096,268435456 --cold; echo "rc=$?"
  echo "== publish"; ./host publish --launches 1; echo "rc=$?"
  echo "== histogram"; ./host histogram --sizes 1000003; echo "rc=$?"
  echo "== accuracy"; ./host accuracy --input heavy-tailed.npy --runs 5 | tail -16; echo "rc=$?"
  echo "== bad input"; ./host accuracy --input ./kernels.ptx; echo "rc=$?"; ./host bench --sizes 4294967296; echo "rc=$?"
} > $OUT/final-check.txt 2>&1

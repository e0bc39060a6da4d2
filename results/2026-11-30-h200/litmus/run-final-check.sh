#!/bin/bash
# The last check of this session's submitted code on the H200: the GPU tests,
# `host litmus` as a new user runs it (defaults), the --blocks flag, the
# sequential control from the CLI, publish with its new default, and the
# bench at small sizes cold. Everything goes to $OUT/final-check.txt.
# The run on 2026-11-30 printed no seconds for the default litmus run (the
# machine has no `bc`); the timing line was rewritten after it.
set -u
cd .device
{
  echo "== gpu tests"; ./gpu; echo "rc=$?"
  echo "== litmus (defaults)"; s=$(date +%s); ./host litmus | tail -5; echo "rc=$?"; echo "seconds: $(( $(date +%s) - s ))"
  ./host litmus --format csv --output /tmp/litmus-default.csv; echo "rows: $(($(wc -l < /tmp/litmus-default.csv) - 1))"
  echo "== litmus --blocks 64 (MP, inter-block)"; ./host litmus --test mp --placement inter-block --blocks 64 --instances 100000000 | cut -c1-140; echo "rc=$?"
  echo "== litmus --sequential"; ./host litmus --sequential --instances 1000000 | tail -2; echo "rc=$?"
  echo "== publish"; ./host publish --launches 2 | cut -c1-150; echo "rc=$?"
  echo "== bench cold"; ./host bench --cold --sizes 4096,65536,1048576 | cut -c1-200; echo "rc=$?"
} > $OUT/final-check.txt 2>&1

#!/bin/bash
# Prints ../stride-tune.txt from the JSON files in json/ with the host's own renderer (no GPU needed):
# bash results/explore/stride-tune/summarize.sh > results/explore/stride-tune.txt
set -eu
D=$(dirname "$0")
HOST=${HOST:-target/release/host}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cat <<'HEAD'
# Exploratory run (issue 23), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the reference run.
# Host at 3c512b0, whose --location-stride now holds a --tune search at one stride. Part 1: three searches of
# 150 environments, seed 26, 0.03 s a row, WRC, IRIW, RWC and ISA2 in relaxed-gpu and relaxed-cta across blocks,
# at strides 64 (the default: the draws of a search before the stride existed), 16 and 4 (stride-tune/run-tune.sh); each search's best
# environment per row, as `host render` prints it. Part 2: two of those environments again at 1 s a row, each at
# strides 4 and 64, with fence-acq-rel-cta added (stride-tune/run-confirm.sh): #123 of the stride-4 search (the
# best per second there for all four relaxed-gpu rows) and #92 of the stride-64 search (its best for IRIW).
# Printed by stride-tune/summarize.sh from the JSON files beside it.
HEAD
for s in 64 16 4; do
  gunzip -c "$D/json/tune-$s.json.gz" > "$T/tune-$s.json"
  echo
  echo "## Part 1: the search at stride $s: the best configuration of each row"
  "$HOST" render "$T/tune-$s.json" --format table | sed -n '/^The best configuration/,/^ configuration /p' | sed '1d;$d'
done
for s in 4 64; do
  gunzip -c "$D/json/tune-$s.json.gz" > "$T/tune-$s.json"
done
echo
echo "## The two environments of part 2, as the searches drew them"
"$HOST" render "$T/tune-4.json" --format table | grep -E '^ #123 '
"$HOST" render "$T/tune-64.json" --format table | grep -E '^ #92 '
for f in s123-stride4 s123-stride64 s64-92-stride64 s64-92-stride4; do
  echo
  echo "## Part 2: $f, 1 s a row"
  "$HOST" render "$D/json/$f.json" --format table | grep -E '^ (test|-----|WRC|IRIW|RWC|ISA2) ' | cut -d'|' -f1-8
done

#!/bin/bash
# Part 6 (issue 9), second H200 run, on the code with the grid_relaxed
# publish variant, flags apart, the consumer preload and the two tuned
# presets. `run-litmus-2.sh check` runs the GPU tests, publish in three
# layouts and the tuned presets over the whole suite; `run-litmus-2.sh
# sanitize` runs every compute-sanitizer tool over every family and variant.
# Built on the CPU machine and copied in .device/ as ../run.sh describes.
set -u
cd .device
H=./host
case "$1" in
check)
  { ./gpu; echo "rc=$?"; } > $OUT/gpu-tests-2.txt 2>&1
  { for layout in "--flag apart" "--flag same-slot" "--flag apart --preload"; do
      echo "== publish --launches 5 $layout"
      $H publish --launches 5 $layout; echo "rc=$?"
    done; } > $OUT/publish-layouts.txt 2>&1
  $H publish --launches 20 --format json --output $OUT/publish-apart-20.json 2> $OUT/publish-apart-20.err; echo "rc=$?" >> $OUT/publish-apart-20.err
  for preset in tuned-mp tuned-wrc; do
    $H litmus --preset $preset --seconds 0.6 --format json --output $OUT/litmus-$preset.json 2> $OUT/litmus-$preset.err
    echo "rc=$?" >> $OUT/litmus-$preset.err
  done
  ;;
sanitize)
  # The consumer preload first loaded the payload with a volatile read, which
  # PTX treats as ld.relaxed.sys and which never allocates in L1; this
  # re-runs publish --preload on the fixed, weak preload.
  { echo "== publish --launches 5 --flag apart --preload (weak preload)"; $H publish --launches 5 --preload; echo "rc=$?"; } > $OUT/publish-preload-weak.txt 2>&1
  timeout 480 ./xtask sanitize --host ./host --out $OUT/sanitizer > $OUT/sanitize.txt 2>&1; echo "rc=$?" >> $OUT/sanitize.txt
  (cd $OUT && tar czf sanitizer-logs.tar.gz sanitizer && rm -rf sanitizer)
  ;;
esac
cd $OUT && for f in *.err; do [ -e "$f" ] && cat "$f" >> errors.txt; done; rm -f *.err

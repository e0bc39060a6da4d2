#!/bin/bash
# `counts.sh MAIN.ptx VARIANT.ptx [LABEL]`: the fast trip of sum_correctly_rounded's loop in
# sm_90 SASS for each base-module PTX (target/ptx/kernels.ptx of each build),
# and the bandwidth kernel's, counted by fastpath.py. Needs the ptxas and
# cuobjdump that `cargo xtask ptxas` installs (run from the repository root).
set -euo pipefail
here=$(dirname "$0")
bin=$(dirname "$(cargo xtask ptxas)")
work=$(mktemp -d)
one() { # PTX KERNEL LABEL
    python3 "$here/extract.py" "$1" "$2" > "$work/$3.ptx"
    "$bin/ptxas" -arch=sm_90 -v "$work/$3.ptx" -o "$work/$3.cubin" 2> "$work/$3.ptxas.txt"
    "$bin/cuobjdump" -sass "$work/$3.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/' \
        | sed -E 's#^\s+/\*([0-9a-f]+)\*/\s+#\1  #; s#\s*/\*.*\*/\s*$##' > "$work/$3.ins"
    echo "$3: $(grep -o 'Used [0-9]* registers' "$work/$3.ptxas.txt"), $(grep -o '[0-9]* bytes stack frame' "$work/$3.ptxas.txt" | head -1)"
    python3 "$here/fastpath.py" "$work/$3.ins" "$3"
}
one "$1" sum_bandwidth bandwidth
one "$1" sum_correctly_rounded main
one "$2" sum_correctly_rounded "${3:-v14}"

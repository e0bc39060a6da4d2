#!/bin/bash
# Makes the three PTX files of the run from main's sm_70 module (target/ptx/kernels.ptx, `cargo xtask build-ptx`):
# ctl raises the header to PTX 7.8 for sm_90 (the prefetch-size qualifier needs PTX 7.4 and sm_80) and changes
# nothing else: ptxas 13.0 gives every sum kernel the same SASS as from the original file. l2_128 and l2_256 add
# `.L2::128B` or `.L2::256B` to every `ld.global.nc.v4.f32` (SASS `LDG.E.LTC128B.128.CONSTANT` and `.LTC256B.`).
set -eu
P=${1:-target/ptx/kernels.ptx}
sed -e 's/^\.version 7\.0/.version 7.8/' -e 's/^\.target sm_70/.target sm_90/' "$P" > ctl.ptx
sed 's/ld\.global\.nc\.v4\.f32/ld.global.nc.L2::128B.v4.f32/g' ctl.ptx > l2_128.ptx
sed 's/ld\.global\.nc\.v4\.f32/ld.global.nc.L2::256B.v4.f32/g' ctl.ptx > l2_256.ptx

#!/bin/sh
# test_hazard_kernels.sh -- the hazard engine against LLVM 22 on real compiler
# output: the HIP kernels tests/analyze/inputs/hz_kernels/hz_*.hip (MFMA of
# every element type, DGEMM, SMFMAC, readlane, DPP, transcendental, setreg
# patterns) are compiled with clang-22 -O2 for gfx942 and gfx950; llc-22 then
# builds them with the hazard recognizer (GOOD) and without (BAD) from the
# same MIR.  test_hazard_cmp must find no hazard in GOOD and, at every place LLVM
# inserted s_nops, exactly that many wait states missing in BAD.
# Prints recall (found / LLVM-inserted) and false alarms per target.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}" "${LLC22:=llc-22}" "${CLANG22:=clang-22}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for cpu in gfx942 gfx950; do
    for src in "$top_srcdir"/tests/analyze/inputs/hz_kernels/hz_*.hip; do
        b=$(basename "$src" .hip)
        case "$b" in *_gfx950) [ $cpu = gfx950 ] || continue;; esac
        "$CLANG22" -x hip --offload-arch=$cpu -nogpulib -nogpuinc --cuda-device-only -O2 \
            -emit-llvm -S "$src" -o "$T/$b.ll"
        "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 "$T/$b.ll" \
            -stop-before=post-RA-hazard-rec -o "$T/$b.mir"
        "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 -start-before=post-RA-hazard-rec \
            -filetype=obj "$T/$b.mir" -o "$T/$b.good.o"
        "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 -start-after=post-RA-hazard-rec \
            -filetype=obj "$T/$b.mir" -o "$T/$b.bad.o"
        if ! "$top_builddir/tests/analyze/test_hazard_cmp" "$T/$b.good.o" "$T/$b.bad.o" \
                > "$T/$b.$cpu.out"; then
            fail=1
            cat "$T/$b.$cpu.out"
        fi
        tail -n 1 "$T/$b.$cpu.out" | sed "s|^|$b: |"
    done
done
exit $fail

#!/bin/sh
# test_hazard_kernels.sh -- the hazard engine against LLVM 22 on real compiler
# output.  The HIP kernels tests/analyze/inputs/hz_kernels/hz_*.hip (MFMA of
# every element type, DGEMM, SMFMAC, a tiled GEMM, readlane, DPP,
# transcendental, setreg patterns; *_gfx950.hip for gfx950 only) and the
# project's other HIP kernels (tests/analyze/hip, kernels/hip) are compiled
# by clang-22 -O2 for gfx942 and gfx950; llc-22 builds each from the same MIR
# with the hazard recognizer (GOOD) and without it (BAD); test_hazard_cmp
# checks that the engine finds no hazard in GOOD and, wherever LLVM inserted
# s_nops, exactly that many wait states missing in BAD.  Three builds:
#   default   clang's defaults (xnack any)
#   xnack-    --offload-arch=CPU:xnack- (no soft-clause rules)
#   agpr      AGPRs allowed and MFMA in AGPR form (llc -amdgpu-mfma-vgpr-form=0,
#             no "amdgpu-agpr-alloc"="0"): spill code appears whose MIR-only
#             implicit-def operands make LLVM insert nops no binary analysis
#             can explain, so "missed" is tolerated there (not over-reports
#             or false alarms).
# Prints per build and target: LLVM-inserted nop sites, found (engine reports
# a hazard), exact (the same number of wait states), false alarms; with the
# CFG join and, for comparison, straight-line regions (--linear).
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}" "${LLC22:=llc-22}" "${CLANG22:=clang-22}"
cmp="$top_builddir/tests/analyze/test_hazard_cmp"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
srcs="$top_srcdir/tests/analyze/inputs/hz_kernels/hz_*.hip"
for s in "$top_srcdir"/tests/analyze/hip/*.hip "$top_srcdir"/kernels/hip/*/*.hip; do
    [ -f "$s" ] && srcs="$srcs $s"
done
total() {  # sum the summary lines of the files given
    awk '/LLVM-inserted nop sites/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "sites") s += $(i + 1)
                if ($i == "found") f += $(i + 1)
                if ($i == "exact") e += $(i + 1)
                if ($i == "missed") m += $(i + 1)
                if ($i == "over") o += $(i + 1)
                if ($i == "alarms") a += $(i + 1)
                if ($i == "instructions;") n += $(i - 1)
            }
         }
         END { gsub(/,/, "", s); printf "%d instructions, LLVM-inserted nop sites %d: found %d, exact %d, missed %d, over %d; false alarms %d\n", n, s, f, e, m, o, a }' "$@"
}
for build in default xnack- agpr; do
    for cpu in gfx942 gfx950; do
        arch=$cpu llcopt= cmpopt=
        [ $build = xnack- ] && arch=$cpu:xnack-
        [ $build = agpr ] && llcopt=-amdgpu-mfma-vgpr-form=0 cmpopt=--allow-missed
        : > "$T/sum.cfg"; : > "$T/sum.lin"
        for src in $srcs; do
            b=$(basename "$src" .hip)
            case "$b" in *_gfx950) [ $cpu = gfx950 ] || continue;; esac
            d=$(dirname "$src")
            "$CLANG22" -x hip --offload-arch=$arch -nogpulib -nogpuinc --cuda-device-only -O2 \
                -I"$d" -emit-llvm -S "$src" -o "$T/$b.ll"
            [ $build = agpr ] && sed -i 's/"amdgpu-agpr-alloc"="0"//g' "$T/$b.ll"
            "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 $llcopt "$T/$b.ll" \
                -stop-before=post-RA-hazard-rec -o "$T/$b.mir"
            "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 -start-before=post-RA-hazard-rec \
                -filetype=obj "$T/$b.mir" -o "$T/$b.good.o"
            "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 -start-after=post-RA-hazard-rec \
                -filetype=obj "$T/$b.mir" -o "$T/$b.bad.o"
            if ! "$cmp" $cmpopt "$T/$b.good.o" "$T/$b.bad.o" > "$T/$b.out"; then
                fail=1
                echo "== $build $cpu $b"
                cat "$T/$b.out"
            fi
            tail -n 1 "$T/$b.out" >> "$T/sum.cfg"
            "$cmp" --linear --quiet --no-fail "$T/$b.good.o" "$T/$b.bad.o" | tail -n 1 >> "$T/sum.lin"
        done
        echo "$build $cpu CFG:         $(total "$T/sum.cfg")"
        echo "$build $cpu straight-line: $(total "$T/sum.lin")"
    done
done
exit $fail

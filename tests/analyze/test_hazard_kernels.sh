#!/bin/sh
# test_hazard_kernels.sh -- the hazard engine against LLVM 22 on real compiler
# output.  The HIP kernels tests/analyze/inputs/hz_kernels/hz_*.hip (MFMA of
# every element type, DGEMM, SMFMAC, a tiled GEMM, readlane, DPP,
# transcendental, setreg patterns; *_gfx950.hip for gfx950 only) and the
# project's other HIP kernels (tests/analyze/hip, kernels/hip) are compiled
# by clang-22 -O2 for gfx942 and gfx950; llc-22 builds each from the same MIR
# with the hazard recognizer (GOOD) and without it (BAD); test_hazard_cmp
# --llvm (LLVM's rules: the llvm-conservative rows enabled) checks that the
# engine finds no hazard in GOOD and, wherever LLVM inserted s_nops, exactly
# that many wait states missing in BAD; and that the default flags find
# exactly as many where a required row decides, fewer where only an
# llvm-conservative one does ("relaxed"), and nothing in GOOD.  Three builds:
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
# gcnlint -Wllvm-conservative (the engine over its own CFG) must report no
# hazard in GOOD and a hazard at every place LLVM inserted nops in BAD (linked
# with ld.lld-22); gcnlint with its default flags no hazard error in GOOD.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}" "${LLC22:=llc-22}" "${CLANG22:=clang-22}"
: "${LLD22:=ld.lld-22}" "${PYTHON3:=python3}"
lint="$top_builddir/gcnlint"
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
                if ($i == "relaxed") r += $(i + 1)
                if ($i == "(exact") q += $(i + 1)
                if ($i == "instructions;") n += $(i - 1)
            }
         }
         END { gsub(/,/, "", s); printf "%d instructions, LLVM-inserted nop sites %d: found %d, exact %d, missed %d, over %d; false alarms %d; default flags: exact %d, relaxed %d\n", n, s, f, e, m, o, a, q, r }' "$@"
}
for build in default xnack- agpr; do
    for cpu in gfx942 gfx950; do
        arch=$cpu llcopt= cmpopt=
        [ $build = xnack- ] && arch=$cpu:xnack-
        [ $build = agpr ] && llcopt=-amdgpu-mfma-vgpr-form=0 cmpopt=--allow-missed
        : > "$T/sum.cfg"; : > "$T/sum.lin"; : > "$T/lint.log"
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
            if ! "$cmp" --llvm --cover $cmpopt "$T/$b.good.o" "$T/$b.bad.o" > "$T/$b.out"; then
                fail=1
                echo "== $build $cpu $b"
                grep -v '^cover ' "$T/$b.out"
            fi
            grep '^relaxed \|^stricter ' "$T/$b.out" | awk '{ print $1, $3 }' >> "$T/relaxed" || true
            grep -v '^cover \|^relaxed \|^stricter ' "$T/$b.out" | tail -n 1 >> "$T/sum.cfg"
            # the linter: nothing in GOOD, every LLVM site in BAD
            if [ -x "$lint" ] && [ $build != agpr ]; then
                "$LLD22" -shared "$T/$b.good.o" -o "$T/$b.good.hsaco"
                "$LLD22" -shared "$T/$b.bad.o" -o "$T/$b.bad.hsaco"
                "$cmp" --sites --quiet --no-fail "$T/$b.good.o" "$T/$b.bad.o" | grep '^site ' \
                    > "$T/$b.sites" || true
                "$lint" -Wllvm-conservative --format=json --no-group "$T/$b.good.hsaco" > "$T/$b.lg.json" || true
                "$lint" -Wllvm-conservative --format=json --no-group "$T/$b.bad.hsaco" > "$T/$b.lb.json" || true
                "$lint" --format=json --no-group "$T/$b.good.hsaco" > "$T/$b.ld.json" || true
                if ! "$PYTHON3" - "$T/$b.lg.json" "$T/$b.lb.json" "$T/$b.sites" "$T/$b.ld.json" \
                        >> "$T/lint.log" <<'PY'
import json, sys
good = [f for f in json.load(open(sys.argv[1]))["findings"] if f["check"].startswith("hazard-")]
good += [f for f in json.load(open(sys.argv[4]))["findings"] if f["check"].startswith("hazard-")]
bad = {(f["kernel"], int(f["offset"], 16)) for f in json.load(open(sys.argv[2]))["findings"]
       if f["check"].startswith("hazard-")}
sites = [(l.split()[1], int(l.split()[2], 16)) for l in open(sys.argv[3])]
missing = [s for s in sites if s not in bad]
for f in good:
    print("gcnlint false alarm in GOOD:", f["kernel"], f["offset"], f["message"])
for s in missing:
    print("gcnlint misses the site %s+0x%x in BAD" % s)
print("lint %d %d %d" % (len(sites), len(sites) - len(missing), len(good)))
sys.exit(1 if good or missing else 0)
PY
                then
                    fail=1
                    echo "== gcnlint $build $cpu $b"; grep -v '^lint ' "$T/lint.log" | tail -n 20
                fi
            fi
            "$cmp" --llvm --linear --quiet --no-fail "$T/$b.good.o" "$T/$b.bad.o" | tail -n 1 >> "$T/sum.lin"
        done
        echo "$build $cpu CFG:         $(total "$T/sum.cfg")"
        if [ -s "$T/relaxed" ]; then   # which llvm-conservative rows decide; rows LLVM lacks
            echo "$build $cpu by rule: $(sort "$T/relaxed" | uniq -c | awk '{ printf "%s%s %s %d", (NR > 1 ? ", " : ""), $2, $3, $1 }')"
        fi
        : > "$T/relaxed"
        echo "$build $cpu straight-line: $(total "$T/sum.lin")"
        if [ -s "$T/lint.log" ]; then
            awk '/^lint / { s += $2; f += $3; a += $4 } END {
                printf "%s %s gcnlint: LLVM sites %d, flagged %d; hazards in GOOD %d\n", b, c, s, f, a }' \
                b=$build c=$cpu "$T/lint.log"
        fi
        : > "$T/lint.log"
    done
done
exit $fail

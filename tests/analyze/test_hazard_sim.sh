#!/bin/sh
# test_hazard_sim.sh -- gcnsim's hazard checks (src/sim/hazard_sim.c) on
# tests/analyze/inputs/hz_sim/hz_stale.s, for gfx942 and gfx950:
#   default (report): two hazard findings, exit 4, the results are the
#     written values (5 + tid, 4.0);
#   --hazard-effect=stale: the same findings, and the consumers read the
#     values from before the producers wrote them (100 + tid, 1.0);
#   --hazard-effect=off: no findings, exit 0;
#   with the wait states added (s_nop 1 and s_nop 0): no findings, exit 0;
# and hz_llvm_only.s (below): the llvm-conservative rules are silent by default.
: "${top_srcdir:=.}" "${top_builddir:=.}" "${PYTHON3:=python3}"
gcnsim="$top_builddir/gcnsim"
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
src="$top_srcdir/tests/analyze/inputs/hz_sim/hz_stale.s"
sed -e 's/^\(    v_readfirstlane_b32 s4, v1\)$/\1\n    s_nop 1/' \
    -e 's/^\(    v_exp_f32 v5, v6\)$/\1\n    s_nop 0/' "$src" > "$T/fixed.s"
fail=0
run() {  # run NAME CPU SRC EXPECT_EXIT EXPECT_S EXPECT_V [options]
    name=$1 cpu=$2 s=$3 ex=$4 es=$5 ev=$6
    shift 6
    mkdir -p "$T/$name"
    "$gcnsim" --mcpu $cpu "$s" --buffer out:512 --arg buffer:out --block 64 --output out \
        --dump-dir "$T/$name" --no-progress "$@" > "$T/$name.log" 2>&1
    rc=$?
    if [ $rc -ne "$ex" ]; then
        echo "$name: exit $rc, expected $ex"; cat "$T/$name.log"; fail=1; return
    fi
    nf=$(grep -cE '^[^ ]+:[0-9]+: error: ([^ ]+: )?hazard at pc' "$T/$name.log")
    want=2; [ "$ex" -eq 0 ] && want=0
    if [ "$nf" -ne $want ]; then
        echo "$name: $nf hazard findings, expected $want"; cat "$T/$name.log"; fail=1
    fi
    "$PYTHON3" - "$T/$name/out.bin" "$es" "$ev" <<'PY' || { echo "$name: wrong values"; fail=1; }
import struct, sys
data = open(sys.argv[1], "rb").read()
s0, v = int(sys.argv[2]), float(sys.argv[3])
for t in range(64):
    a, b = struct.unpack_from("<If", data, 8 * t)
    if a != s0 + t or b != v:
        print("lane %d: %d %g, expected %d %g" % (t, a, b, s0 + t, v))
        sys.exit(1)
PY
}
for cpu in gfx942 gfx950; do
    run report_$cpu $cpu "$src" 4 5 4.0
    run stale_$cpu $cpu "$src" 4 100 1.0 --hazard-effect=stale
    run off_$cpu $cpu "$src" 0 5 4.0 --hazard-effect=off
    run fixed_$cpu $cpu "$T/fixed.s" 0 5 4.0 --hazard-effect=stale
done
grep -h 'hazard VALU_SGPR_VALU\|hazard TRANS_VALU_READ' "$T/report_gfx942.log"

# hz_llvm_only.s: correct code with three pairs only LLVM pads (llvm-conservative
# rows): nothing by default, the three rules with --llvm-conservative, the
# right values either way; gcnlint agrees (-Wllvm-conservative: warnings).
lsrc="$top_srcdir/tests/analyze/inputs/hz_sim/hz_llvm_only.s"
want="VALU_SGPR_CARRY VGPR_DPP_OPERAND VOP3P_OPSEL_VALU"
for cpu in gfx942 gfx950; do
    for mode in default llvm; do
        opt=; ex=0; rules=
        [ $mode = llvm ] && opt=--llvm-conservative ex=4 rules=$want
        mkdir -p "$T/l$mode$cpu"
        "$gcnsim" --mcpu $cpu "$lsrc" --buffer out:768 --arg buffer:out --block 64 --output out \
            --dump-dir "$T/l$mode$cpu" --no-progress $opt > "$T/l$mode$cpu.log" 2>&1
        rc=$?
        got=$(sed -n 's/^  hazard \([A-Z0-9_]*\):.*/\1/p' "$T/l$mode$cpu.log" | sort | tr '\n' ' ' | sed 's/ $//')
        if [ $rc -ne $ex ] || [ "$got" != "$rules" ]; then
            echo "gcnsim $mode $cpu: exit $rc (expected $ex), hazards '$got' (expected '$rules')"
            cat "$T/l$mode$cpu.log"; fail=1
        fi
        "$PYTHON3" - "$T/l$mode$cpu/out.bin" <<'PY' || { echo "gcnsim $mode $cpu: wrong values"; fail=1; }
import struct, sys
data = open(sys.argv[1], "rb").read()
for t in range(64):
    c, f, d = struct.unpack_from("<IfI", data, 12 * t)
    if (c, f, d) != (int(t != 0), 6.25, (t ^ 1) + 7):
        print("lane %d: %d %g %d" % (t, c, f, d))
        sys.exit(1)
PY
        if [ -x "$top_builddir/gcnlint" ]; then
            lopt=; [ $mode = llvm ] && lopt=-Wllvm-conservative
            "$top_builddir/gcnlint" --mcpu=$cpu $lopt --format=json "$lsrc" > "$T/lint.json"
            rc=$?
            got=$("$PYTHON3" -c 'import json,sys
f = json.load(open(sys.argv[1]))["findings"]
print(" ".join(sorted(x["check"][7:].upper().replace("-", "_") + ("" if x["severity"] == "warning" else "!")
                      for x in f if x["check"].startswith("hazard-"))))' "$T/lint.json")
            if [ $rc -ne $ex ] || [ "$got" != "$rules" ]; then
                echo "gcnlint $mode $cpu: exit $rc (expected $ex), warnings '$got' (expected '$rules')"
                fail=1
            fi
        fi
    done
done
grep -h '^  hazard' "$T/lllvmgfx942.log"
exit $fail

#!/bin/sh
# test_real_rules.sh -- rules production kernels rely on, on hand-written kernels in
# tests/sim/real/ checked against Python references: the raw-buffer range rule with a strided
# V# (tail_rows: rows past M read 0, their stores are dropped, padding never written) and the
# unified register file (ufile*: VGPRs at and above accum_offset).  Both targets, several sizes.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
R=$srcdir/tests/sim/real
T=$(mktemp -d /tmp/gcnsim-real-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# ---- tail_rows: strided raw buffer, num_records shrunk per tile
for tgt in gfx942 gfx950; do
    for M in 40 1 31 64 97; do
        d=$T/tail-$tgt-$M
        if ! "$gcnsim" -q --manifest "$R/tail_rows.json" --mcpu $tgt --set M=$M --dump-dir "$d" \
                >"$T/out" 2>&1; then
            echo "FAIL: tail_rows $tgt M=$M did not run:"; sed 's/^/    /' "$T/out" | head -8
            fails=$((fails + 1)); continue
        fi
        python3 - "$d" "$M" <<'PY' || fails=$((fails + 1))
import struct, sys
d, M = sys.argv[1], int(sys.argv[2])
K, tiles = 64, (M + 31) // 32
rd = lambda f: struct.unpack("<%dI" % (len(open(d + "/" + f, "rb").read()) // 4),
                             open(d + "/" + f, "rb").read())
A, B0, B, S = rd("A.in.bin"), rd("B.in.bin"), rd("B.bin"), rd("S.bin")
bad = []
for r in range(tiles * 32):
    for c in range(K):
        i = r * K + c
        want = (2 * A[i] + 1) & 0xffffffff if r < M else B0[i]   # padding rows: not written
        if B[i] != want:
            bad.append(("B", r, c, hex(B[i]), hex(want)))
for t in range(tiles):
    for c in range(K):
        want = sum(A[r * K + c] for r in range(t * 32, min(M, t * 32 + 32))) & 0xffffffff
        if S[t * K + c] != want:                                 # rows past M load 0
            bad.append(("S", t, c, hex(S[t * K + c]), hex(want)))
if bad:
    print("FAIL: tail_rows M=%d: %d wrong, first %s" % (M, len(bad), bad[:3]))
    sys.exit(1)
print("ok   tail_rows M=%d: %d rows written, %d padding rows untouched, tail loads 0"
      % (M, M, tiles * 32 - M))
PY
    done
done

# ---- a descriptor that admits more than the allocation: the fault names the rule, decoded
sed 's|"A": {"size": "(M+31)/32\*32\*256"|"A": {"size": "M*256-256"|' "$R/tail_rows.json" \
    > "$T/short.json"
cp "$R/tail_rows.s" "$T/"
out=$("$gcnsim" -q --manifest "$T/short.json" --set M=40 2>&1)
rc=$?
for pat in "memory fault: lane 0 accesses 4 bytes" "raw buffer (idxen 0, offen 1, add_tid 0)" \
        "offset 1792 < num_records 2048 (bytes), so in range" "stride 4 num_records 2048"; do
    if [ $rc != 3 ] || ! printf '%s' "$out" | grep -qF -- "$pat"; then
        echo "FAIL: short A: exit $rc (want 3), output lacks '$pat':"
        printf '%s\n' "$out" | sed 's/^/    /' | head -6
        fails=$((fails + 1))
    else
        echo "ok   short A: fault names '$pat'"
    fi
done

# ---- unified register file: v160..v235 with accum_offset 160 run; naming row 160 as v160
# and as a0 is legal, gives the value written through the other name and one warning finding
for tgt in gfx942 gfx950; do
    for k in ufile ufile_alias; do
        want=0; [ $k = ufile_alias ] && want=4
        d=$T/$k-$tgt
        "$gcnsim" --manifest "$R/$k.json" --mcpu $tgt --dump-dir "$d" >"$T/out" 2>&1
        rc=$?
        if [ $rc != $want ]; then
            echo "FAIL: $k $tgt: exit $rc (want $want)"; sed 's/^/    /' "$T/out" | head -8
            fails=$((fails + 1)); continue
        fi
        if [ $k = ufile_alias ] && ! grep -q "finding: vgpr-agpr-alias at pc .*v_accvgpr_read_b32 v3, a0" "$T/out"; then
            echo "FAIL: $k $tgt: no vgpr-agpr-alias finding"; sed 's/^/    /' "$T/out" | head -8
            fails=$((fails + 1)); continue
        fi
        if [ $k = ufile ] && ! grep -q " 0 findings" "$T/out"; then
            echo "FAIL: $k $tgt: findings on a program that names no AGPR"; fails=$((fails + 1))
        fi
        python3 - "$d" $k <<'PY' || fails=$((fails + 1))
import struct, sys
d, k = sys.argv[1], sys.argv[2]
A = struct.unpack("<64I", open(d + "/A.in.bin", "rb").read())
B = struct.unpack("<64I", open(d + "/B.bin", "rb").read())
M = 0xffffffff
want = [((((a + 3) & M) ** 2 & M) ^ a) for a in A]
if k == "ufile_alias":
    want = [(w + a) & M for w, a in zip(want, A)]
bad = [(i, hex(B[i]), hex(want[i])) for i in range(64) if B[i] != want[i]]
if bad:
    print("FAIL: %s: %d lanes wrong, first %s" % (k, len(bad), bad[:3]))
    sys.exit(1)
print("ok   %s: 64 lanes match the reference" % k)
PY
    done
done

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]

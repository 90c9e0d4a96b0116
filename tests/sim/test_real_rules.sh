#!/bin/sh
# test_real_rules.sh -- rules production kernels rely on, on hand-written kernels in
# tests/sim/real/ checked against Python references: the raw-buffer range rule with a strided
# V# (tail_rows: rows past M read 0, their stores are dropped, padding never written) and the
# unified register file (ufile*: VGPRs at and above accum_offset), and the gfx950 transposing LDS
# reads (ds_tr16, ds_tr8, ds_tr4, ds_tr6: MFMA operands through ds_read_b64_tr_b16/_b8/_b4 and
# ds_read_b96_tr_b6).  Both targets where the
# kernel exists, several sizes.
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
        if ! "$gcnsim" -q --manifest "$R/tail_rows.json" --mcpu $tgt --set M=$M --dump-dir "$d" --dump-inputs \
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
        "$gcnsim" --manifest "$R/$k.json" --mcpu $tgt --dump-dir "$d" --dump-inputs >"$T/out" 2>&1
        rc=$?
        if [ $rc != $want ]; then
            echo "FAIL: $k $tgt: exit $rc (want $want)"; sed 's/^/    /' "$T/out" | head -8
            fails=$((fails + 1)); continue
        fi
        if [ $k = ufile_alias ] && ! grep -q ": warning: .*vgpr-agpr-alias at pc .*v_accvgpr_read_b32 v3, a0" "$T/out"; then
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

# ---- gfx950 transposing LDS reads: an MFMA fed by ds_read_b64_tr_b16 / _b8 matches the
# reference only if each lane receives the elements the Triton-derived mapping says
d=$T/tr16
if "$gcnsim" -q --manifest "$R/ds_tr16.json" --mcpu gfx950 --dump-dir "$d" --dump-inputs >"$T/out" 2>&1; then
    python3 - "$d" <<'PY' || fails=$((fails + 1))
import struct, sys
d = sys.argv[1]
A = struct.unpack("<256e", open(d + "/A.in.bin", "rb").read())
B = struct.unpack("<256e", open(d + "/B.in.bin", "rb").read())
D = struct.unpack("<256f", open(d + "/D.bin", "rb").read())
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
# |x| < 1 with 10 fraction bits: every partial sum is exact in f32, so the order does not matter
R = [f32(sum(A[m * 16 + k] * B[k * 16 + n] for k in range(16))) for m in range(16) for n in range(16)]
bad = [(i // 16, i % 16, D[i], R[i]) for i in range(256) if D[i] != R[i]]
if bad:
    print("FAIL: ds_tr16: %d of 256 wrong, first %s" % (len(bad), bad[:3]))
    sys.exit(1)
print("ok   ds_tr16: D = A * B bit-exact, B through ds_read_b64_tr_b16")
PY
else
    echo "FAIL: ds_tr16 did not run:"; sed 's/^/    /' "$T/out" | head -8; fails=$((fails + 1))
fi
# fp8 (OCP e4m3 on gfx950) operands with exponents 2^-2..2^2: no NaN, sums exact in f32
python3 - "$T" <<'PY'
import random, sys
t = sys.argv[1]
rng = random.Random(8)
def byte():
    return rng.randrange(2) << 7 | rng.randrange(5, 10) << 3 | rng.randrange(8)
for name in ("a8.bin", "b8.bin"):
    open(t + "/" + name, "wb").write(bytes(byte() for _ in range(512)))
PY
cp "$R/ds_tr8.s" "$T/"
cat > "$T/ds_tr8.json" <<'EOF2'
{
  "code": "ds_tr8.s", "kernel": "ds_tr8", "targets": ["gfx950"],
  "grid": [1, 1, 1], "block": [64, 1, 1],
  "buffers": {"A": {"size": 512, "init": {"file": "a8.bin"}},
              "B": {"size": 512, "init": {"file": "b8.bin"}},
              "D": {"size": 1024, "init": "zero"}},
  "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "D"}],
  "outputs": ["D"]
}
EOF2
d=$T/tr8
if "$gcnsim" -q --manifest "$T/ds_tr8.json" --mcpu gfx950 --dump-dir "$d" --dump-inputs >"$T/out" 2>&1; then
    python3 - "$d" <<'PY' || fails=$((fails + 1))
import struct, sys
d = sys.argv[1]
def e4m3(b):
    s, e, m = b >> 7, b >> 3 & 15, b & 7
    v = (m / 8) * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7)
    return -v if s else v
A = [e4m3(b) for b in open(d + "/A.in.bin", "rb").read()]     # 16 x 32, row-major M x K
B = [e4m3(b) for b in open(d + "/B.in.bin", "rb").read()]     # 32 x 16, row-major K x N
D = struct.unpack("<256f", open(d + "/D.bin", "rb").read())
R = [sum(A[m * 32 + k] * B[k * 16 + n] for k in range(32)) for m in range(16) for n in range(16)]
bad = [(i // 16, i % 16, D[i], R[i]) for i in range(256) if D[i] != R[i]]
if bad:
    print("FAIL: ds_tr8: %d of 256 wrong, first %s" % (len(bad), bad[:3]))
    sys.exit(1)
print("ok   ds_tr8: D = A * B bit-exact, B through ds_read_b64_tr_b8")
PY
else
    echo "FAIL: ds_tr8 did not run:"; sed 's/^/    /' "$T/out" | head -8; fails=$((fails + 1))
fi

# b4 / b6: 16 x 16 x 128 f8f6f4 MFMAs (fp4, fp6 e2m3) with B through ds_read_b64_tr_b4 /
# ds_read_b96_tr_b6; every product and partial sum is exact in f32.  The same reference with
# the two k of a byte (b4) or of a pair (b6) exchanged -- a transpose right in lanes but wrong
# in the packing -- must disagree, so the check tells the packing apart too.
python3 - "$T" <<'PY'
import random, sys
t = sys.argv[1]
rng = random.Random(46)
for name, n in (("a4.bin", 1024), ("b4.bin", 1024), ("a6.bin", 1536), ("b6.bin", 1536)):
    open(t + "/" + name, "wb").write(bytes(rng.randrange(256) for _ in range(n)))
PY
for w in 4 6; do
    cp "$R/ds_tr$w.s" "$T/"
    cat > "$T/ds_tr$w.json" <<EOF2
{
  "code": "ds_tr$w.s", "kernel": "ds_tr$w", "targets": ["gfx950"],
  "grid": [1, 1, 1], "block": [64, 1, 1],
  "buffers": {"A": {"size": $((16 * 128 * w / 8)), "init": {"file": "a$w.bin"}},
              "B": {"size": $((16 * 128 * w / 8)), "init": {"file": "b$w.bin"}},
              "D": {"size": 1024, "init": "zero"}},
  "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "D"}],
  "outputs": ["D"]
}
EOF2
    d=$T/tr$w
    if "$gcnsim" -q --manifest "$T/ds_tr$w.json" --mcpu gfx950 --dump-dir "$d" --dump-inputs >"$T/out" 2>&1; then
        python3 - "$d" "$w" <<'PY' || fails=$((fails + 1))
import struct, sys
d, w = sys.argv[1], int(sys.argv[2])
def field(bs, i):                       # value i of a little-endian bit string of w-bit values
    v = int.from_bytes(bs, "little")
    return v >> (w * i) & ((1 << w) - 1)
def val(c):
    if w == 4:                          # e2m1
        s, e, m = c >> 3, c >> 1 & 3, c & 1
        v = m / 2 if e == 0 else (1 + m / 2) * 2.0 ** (e - 1)
    else:                               # e2m3
        s, e, m = c >> 5, c >> 3 & 3, c & 7
        v = m / 8 if e == 0 else (1 + m / 8) * 2.0 ** (e - 1)
    return -v if s else v
ra, rb = 128 * w // 8, 16 * w // 8     # bytes of a row of A (M x K) and of B (K x N)
a, b = open(d + "/A.in.bin", "rb").read(), open(d + "/B.in.bin", "rb").read()
A = [[val(field(a[m * ra:(m + 1) * ra], k)) for k in range(128)] for m in range(16)]
B = [[val(field(b[k * rb:(k + 1) * rb], n)) for n in range(16)] for k in range(128)]
D = struct.unpack("<256f", open(d + "/D.bin", "rb").read())
def ref(Bk):
    return [sum(A[m][k] * Bk[k][n] for k in range(128)) for m in range(16) for n in range(16)]
R = ref(B)
bad = [(i // 16, i % 16, D[i], R[i]) for i in range(256) if D[i] != R[i]]
if bad:
    print("FAIL: ds_tr%d: %d of 256 wrong, first %s" % (w, len(bad), bad[:3]))
    sys.exit(1)
alt = sum(D[i] != r for i, r in enumerate(ref([B[k ^ 1] for k in range(128)])))
if alt < 200:
    print("FAIL: ds_tr%d: the swapped packing agrees with D at %d of 256 elements" % (w, 256 - alt))
    sys.exit(1)
print("ok   ds_tr%d: D = A * B bit-exact, B through the %d-bit transposing read (a swapped "
      "packing differs at %d of 256)" % (w, w, alt))
PY
    else
        echo "FAIL: ds_tr$w did not run:"; sed 's/^/    /' "$T/out" | head -8; fails=$((fails + 1))
    fi
done

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]

#!/bin/sh
# test_gcnlint.sh -- end-to-end tests of gcnlint: the annotated assembly cases
# of tests/analyze/cases and the bundled vector add kernels (check_cases.py),
# SARIF output validated structurally (test_sarif FILE), text format (read by
# VS Code's $gcc problem matcher and vim's errorformat), symbol+0xOFFSET
# locations in binaries, grouped findings and --no-group, exit codes, -Wno-,
# --werror, -j and the summary line.
# Skips (77) while the decoder of this build cannot decode the cases yet: the
# probe compares `gcndis --llvm-text` with llvm-objdump-22 on every case.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CLANG22=${CLANG22:-clang-22}
LLVM_OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
PYTHON3=${PYTHON3:-python3}
lint=$top_builddir/gcnlint
cases=$top_srcdir/tests/analyze/cases
tmp=$(mktemp -d /tmp/test_gcnlint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

# ---- probe: can this build decode what the cases use? --------------------
hips="$top_srcdir/tests/analyze/hip/*.hip"
[ -d "$top_srcdir/kernels/hip" ] && hips="$hips $top_srcdir/kernels/hip/*/*.hip"
for mcpu in gfx942 gfx950; do
  probe_hips=$hips
  [ $mcpu = gfx942 ] || probe_hips=     # the mutation test runs on gfx942 only
  for s in "$cases"/*.s "$top_srcdir"/kernels/vector_add/vector_add.s $probe_hips; do
    [ -f "$s" ] || continue
    o=$tmp/probe.hsaco
    case $s in
      *.hip) "$CLANG22" -x hip --offload-arch=$mcpu -nogpulib -nogpuinc --cuda-device-only \
               --no-gpu-bundle-output -O2 -I "$top_srcdir/kernels/hip" "$s" -o "$o" ;;
      *) "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=$mcpu -I "$cases" "$s" -o "$o" ;;
    esac || { echo "FAIL: cannot build $s"; exit 1; }
    "$LLVM_OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$o" |
      grep -E '^\s' | sed -e 's|//.*||' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' |
      grep -v '^$' > "$tmp/ref.txt"
    "$top_builddir/gcndis" --llvm-text "$o" > "$tmp/our.txt" 2>/dev/null
    bad=$(diff "$tmp/ref.txt" "$tmp/our.txt" | grep -c '^>')
    if [ "$bad" != 0 ]; then
      echo "SKIP: the decoder of this build differs from LLVM on $bad instruction(s) of $s ($mcpu):"
      diff "$tmp/ref.txt" "$tmp/our.txt" | grep '^[<>]' | head -6
      exit 77
    fi
  done
done

# ---- annotated cases and the vector add kernels ---------------------------
"$PYTHON3" "$top_srcdir/tests/analyze/check_cases.py" --gcnlint "$lint" --cases "$cases" \
  --kernels "$top_srcdir/kernels/vector_add" || fail=1

# ---- the launch shape: a layout for 4 waves, metadata for 8 (cases/launch.s)
# The race needs 5 or more waves: the error says so (metadata bound), a given
# launch of 256 work-items lints clean and one of 512 keeps the error without
# the note; gcnsim agrees at run time (race with block 512, none with 256).
"$lint" "$cases/launch.s" > "$tmp/launch.txt"; rc=$?
{ [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/launch.txt" &&
  grep -q 'note: the bytes meet only when the work-group has 5 or more waves (its metadata allows 8: max_flat_workgroup_size 512); with at most 256 work-items' "$tmp/launch.txt"; } ||
  { echo "FAIL: launch.s: the race with its launch-shape note (exit $rc)"; cat "$tmp/launch.txt"; fail=1; }
"$lint" --workgroup-size=256 "$cases/launch.s" > "$tmp/launch.txt"; rc=$?
[ $rc = 0 ] || { echo "FAIL: launch.s --workgroup-size=256: exit $rc, want 0"; cat "$tmp/launch.txt"; fail=1; }
"$lint" --workgroup-size=512 "$cases/launch.s" > "$tmp/launch.txt"; rc=$?
{ [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/launch.txt" && ! grep -q 'note: the bytes meet only' "$tmp/launch.txt"; } ||
  { echo "FAIL: launch.s --workgroup-size=512: the race, no note (exit $rc)"; cat "$tmp/launch.txt"; fail=1; }
for b in 512 256; do
  "$top_builddir/gcnsim" --mcpu gfx942 --block $b "$cases/launch.s" > "$tmp/launch.txt" 2>&1; rc=$?
  want=0; [ $b = 512 ] && want=4
  { [ $rc = $want ] && { [ $b = 256 ] || grep -q 'lds-cross-wave-race at pc' "$tmp/launch.txt"; }; } ||
    { echo "FAIL: gcnsim launch.s --block $b: exit $rc, want $want"; cat "$tmp/launch.txt"; fail=1; }
done

# ---- waves with roles (cases/wave_roles*.s): gcnsim agrees with the cases'
# expectations at run time (clean, and the race of the broken one), and
# gcnlint agrees with gcnsim: the same exit, and on a race the same lines
# (both print FILE:LINE: error: at the racing access).
# wave_roles_barrier*.s: the roles after an s_barrier (the barrier's interval,
# issue 13).
# wave_uniform_trap_broken.s: roles chosen by a constant written on one side
# of a wave-index branch (control dependence, uniform.c); wave_uniform_vcc_broken.s:
# roles by s_cbranch_vccz on a VALU compare of the work-item id.
for c in wave_roles:0 wave_roles_broken:4 wave_roles_split:0 wave_roles_split_broken:4 \
         wave_roles_barrier:0 wave_roles_barrier_broken:4 wave_uniform_trap_broken:4 \
         wave_uniform_vcc_broken:4; do
  "$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/${c%%:*}.s" > "$tmp/roles.txt" 2>&1; rc=$?
  { [ $rc = "${c##*:}" ] && { [ $rc = 0 ] || grep -q 'lds-cross-wave-race at pc' "$tmp/roles.txt"; }; } ||
    { echo "FAIL: gcnsim ${c%%:*}.s: exit $rc, want ${c##*:}"; cat "$tmp/roles.txt"; fail=1; }
  "$lint" --workgroup-size=256 "$cases/${c%%:*}.s" > "$tmp/roles_lint.txt"; lrc=$?
  sl=$(grep -o '^[^ ]*:[0-9]*: error: ' "$tmp/roles.txt" | grep -v '^gcnsim:' | sort -u | tr '\n' ' ')
  ll=$(grep -o '^[^ ]*:[0-9]*: error: ' "$tmp/roles_lint.txt" | sort -u | tr '\n' ' ')
  { [ $lrc = $rc ] && [ "$sl" = "$ll" ]; } ||
    { echo "FAIL: ${c%%:*}.s: gcnlint exit $lrc ($ll), gcnsim exit $rc ($sl)"; cat "$tmp/roles_lint.txt"; fail=1; }
done

# The trap with s20 written only on the waves-0-1 side (its one write does
# not dominate the join: the other waves keep the entry value), so a register
# with a single write is not taken as the same on every path (uniform.c).
cp "$cases/kernel_tail.inc" "$tmp/"
sed '/s_mov_b32 s20, 0$/d' "$cases/wave_uniform_trap_broken.s" > "$tmp/trap1.s"
"$lint" --workgroup-size=256 "$tmp/trap1.s" > "$tmp/trap1.txt"; rc=$?
{ [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/trap1.txt"; } ||
  { echo "FAIL: trap1.s: gcnlint exit $rc, want 4"; cat "$tmp/trap1.txt"; fail=1; }
"$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$tmp/trap1.s" > "$tmp/trap1.txt" 2>&1
grep -q 'lds-cross-wave-race at pc' "$tmp/trap1.txt" ||
  { echo "FAIL: gcnsim trap1.s: no race"; cat "$tmp/trap1.txt"; fail=1; }

# Branches that go the same way in every wave (a loop's exit on a kernel
# argument, a test of one) after an s_barrier part no waves: gcnlint pairs
# nothing across them (cases/wave_uniform_exit.s), and gcnsim is clean with the
# sums of a reference for n = 0..3 passes.
"$lint" --workgroup-size=256 "$cases/wave_uniform_exit.s" > "$tmp/ue.txt" ||
  { echo "FAIL: wave_uniform_exit.s: gcnlint not clean"; cat "$tmp/ue.txt"; fail=1; }
for n in 0 1 2 3; do
  rm -rf "$tmp/ued"
  "$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/wave_uniform_exit.s" \
    --buffer src:1024 --buffer dst:1024 --arg buffer:src --arg buffer:dst --arg u32:$n \
    --dump-dir "$tmp/ued" > "$tmp/ue.txt" 2>&1 ||
    { echo "FAIL: gcnsim wave_uniform_exit.s n=$n: exit $?"; cat "$tmp/ue.txt"; fail=1; continue; }
  "$PYTHON3" - "$tmp/ued/dst.bin" $n <<'PY' || { echo "FAIL: gcnsim wave_uniform_exit.s n=$n: not the reference"; fail=1; }
import struct, sys
d, n = open(sys.argv[1], "rb").read(), int(sys.argv[2])
ref = [n * ((t & 63) + 1) * (1 if n % 2 else 2) for t in range(256)]
sys.exit(0 if list(struct.unpack("<256I", d)) == ref else 1)
PY
done

# Code that no wave of the launch runs meets nothing (an empty set of waves
# once fell back to "all waves"): wave_roles_split.s with the readers reading
# the writers' [0, 256) races with 4 waves, but with 2 (128 work-items) no wave
# reaches the readers' side; gcnsim agrees on both.
cp "$cases/kernel_tail.inc" "$tmp/"
sed 's|ds_read_b32 v3, v1 offset:512 |ds_read_b32 v3, v1            |' "$cases/wave_roles_split.s" > "$tmp/roles_dead.s"
for c in 256:4 128:0; do
  "$lint" --workgroup-size=${c%%:*} "$tmp/roles_dead.s" > "$tmp/roles.txt"; rc=$?
  [ $rc = "${c##*:}" ] || { echo "FAIL: roles_dead.s --workgroup-size=${c%%:*}: exit $rc, want ${c##*:}"; cat "$tmp/roles.txt"; fail=1; }
  "$top_builddir/gcnsim" --mcpu gfx942 --block ${c%%:*} "$tmp/roles_dead.s" > "$tmp/roles.txt" 2>&1; rc=$?
  [ $rc = "${c##*:}" ] || { echo "FAIL: gcnsim roles_dead.s --block ${c%%:*}: exit $rc, want ${c##*:}"; cat "$tmp/roles.txt"; fail=1; }
done

# ---- a loop's exit fixes the tail variant (cases/tail_parity*.s, modulo 2;
# cases/tail_mod3*.s, modulo 3 through LLVM's division expansion: paths.c,
# idiv.c): gcnlint is clean on the correct kernels only with its path facts
# (--all-paths reports the pairings no run takes) and reports the broken ones
# either way; gcnsim agrees for n = 1..6 tiles, and the correct kernels' sums
# match a reference computed here.
for c in tail_parity:0:4 tail_parity_broken:4:4 tail_mod3:0:4 tail_mod3_broken:4:4; do
  set -- $(echo "$c" | tr ':' ' ')
  "$lint" "$cases/$1.s" > "$tmp/tp.txt"; rc=$?
  { [ $rc = "$2" ] && { [ $rc = 0 ] || grep -q 'lds-dma-pending' "$tmp/tp.txt"; }; } ||
    { echo "FAIL: $1.s: exit $rc, want $2"; cat "$tmp/tp.txt"; fail=1; }
  "$lint" --all-paths "$cases/$1.s" > "$tmp/tp.txt"; rc=$?
  [ $rc = "$3" ] || { echo "FAIL: $1.s --all-paths: exit $rc, want $3"; cat "$tmp/tp.txt"; fail=1; }
  for n in 1 2 3 4 5 6; do
    rm -rf "$tmp/tpd"
    "$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/$1.s" \
      --buffer src:$(( (n + 2) * 256 )):random=u32,$n --buffer dst:1024 --arg buffer:src \
      --arg buffer:dst --arg u32:$n --dump-dir "$tmp/tpd" --dump-inputs > "$tmp/tp.txt" 2>&1; rc=$?
    if [ "$2" = 4 ]; then
      { [ $rc = 4 ] && grep -q 'lds-dma-read-before-retire' "$tmp/tp.txt"; } ||
        { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 4"; cat "$tmp/tp.txt"; fail=1; }
      continue
    fi
    [ $rc = 0 ] || { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 0"; cat "$tmp/tp.txt"; fail=1; continue; }
    "$PYTHON3" - "$tmp/tpd" $n <<'PY' || { echo "FAIL: gcnsim $1.s n=$n: sums differ from the reference"; fail=1; }
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
src = open(d + "/src.in.bin", "rb").read()
dst = open(d + "/dst.bin", "rb").read()
S = struct.unpack("<%dI" % (len(src) // 4), src)
D = struct.unpack("<%dI" % (len(dst) // 4), dst)
ref = [(sum(S[t * 64 + (i & 63)] for t in range(n)) + S[(n - 1) * 64 + (i & 63)]) & 0xFFFFFFFF
       for i in range(256)]
sys.exit(0 if list(D) == ref else 1)
PY
  done
done

# The cross-wave race check follows the same facts (cases/tail_xwave*.s,
# xwave.c): the tail overwrites the tile its exit no longer reads.
for c in tail_xwave:0:4 tail_xwave_broken:4:4; do
  set -- $(echo "$c" | tr ':' ' ')
  "$lint" "$cases/$1.s" > "$tmp/tx.txt"; rc=$?
  { [ $rc = "$2" ] && { [ $rc = 0 ] || [ "$(grep -c 'lds-cross-wave-race' "$tmp/tx.txt")" = 2 ]; }; } ||
    { echo "FAIL: $1.s: exit $rc, want $2"; cat "$tmp/tx.txt"; fail=1; }
  "$lint" --all-paths "$cases/$1.s" > "$tmp/tx.txt"; rc=$?
  { [ $rc = "$3" ] && grep -q 'lds-cross-wave-race' "$tmp/tx.txt"; } ||
    { echo "FAIL: $1.s --all-paths: exit $rc, want $3"; cat "$tmp/tx.txt"; fail=1; }
  for n in 1 2 3 4 5 6; do
    rm -rf "$tmp/txd"
    "$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/$1.s" \
      --buffer src:512:random=u32,$n --buffer dst:1024 --arg buffer:src \
      --arg buffer:dst --arg u32:$n --dump-dir "$tmp/txd" --dump-inputs > "$tmp/tx.txt" 2>&1; rc=$?
    if [ "$2" = 4 ]; then
      { [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/tx.txt"; } ||
        { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 4"; cat "$tmp/tx.txt"; fail=1; }
      continue
    fi
    [ $rc = 0 ] || { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 0"; cat "$tmp/tx.txt"; fail=1; continue; }
    "$PYTHON3" - "$tmp/txd" $n <<'PY' || { echo "FAIL: gcnsim $1.s n=$n: sums differ from the reference"; fail=1; }
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
src = open(d + "/src.in.bin", "rb").read()
dst = open(d + "/dst.bin", "rb").read()
S = struct.unpack("<%dI" % (len(src) // 4), src)
D = struct.unpack("<%dI" % (len(dst) // 4), dst)
ref = []
for i in range(256):
    v = sum(S[(t & 1) * 64 + (i & 63)] for t in range(n)) & 0xFFFFFFFF
    ref.append((v + (v & 0xFF)) & 0xFFFFFFFF)
sys.exit(0 if list(D) == ref else 1)
PY
  done
done

# The waves that reach a block follow the static path facts (cases/tail_chain*.s,
# paths.c, values.c): a fall-through tail chain entered where the loop test
# fails at c = n & ~63 runs one part, so the waves that enter it at its first
# part never run the second.  Clean only with the facts; the broken kernel
# (n & ~127: two parts may run) is reported either way.  gcnsim agrees: no
# race and the reference sums for the correct kernel, a race in the broken
# one for n mod 128 > 64 (n = 100, 200).
for c in tail_chain:0:4 tail_chain_broken:4:4; do
  set -- $(echo "$c" | tr ':' ' ')
  "$lint" "$cases/$1.s" > "$tmp/tc.txt"; rc=$?
  { [ $rc = "$2" ] && { [ $rc = 0 ] || [ "$(grep -c 'lds-cross-wave-race' "$tmp/tc.txt")" = 1 ]; }; } ||
    { echo "FAIL: $1.s: exit $rc, want $2"; cat "$tmp/tc.txt"; fail=1; }
  "$lint" --all-paths "$cases/$1.s" > "$tmp/tc.txt"; rc=$?
  { [ $rc = "$3" ] && grep -q 'lds-cross-wave-race' "$tmp/tc.txt"; } ||
    { echo "FAIL: $1.s --all-paths: exit $rc, want $3"; cat "$tmp/tc.txt"; fail=1; }
  for n in 0 1 63 64 100 130 200; do
    rm -rf "$tmp/tcd"
    "$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/$1.s" \
      --buffer src:$(( (n / 64 + 2) * 256 )):random=u32,$n --buffer dst:1024 --arg buffer:src \
      --arg buffer:dst --arg u32:$n --dump-dir "$tmp/tcd" --dump-inputs > "$tmp/tc.txt" 2>&1; rc=$?
    if [ "$2" = 4 ]; then
      case $n in
        100|200) { [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/tc.txt"; } ||
                   { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 4"; cat "$tmp/tc.txt"; fail=1; } ;;
        *) [ $rc = 0 ] || { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 0"; cat "$tmp/tc.txt"; fail=1; } ;;
      esac
      continue
    fi
    [ $rc = 0 ] || { echo "FAIL: gcnsim $1.s n=$n: exit $rc, want 0"; cat "$tmp/tc.txt"; fail=1; continue; }
    "$PYTHON3" - "$tmp/tcd" $n <<'PY' || { echo "FAIL: gcnsim $1.s n=$n: sums differ from the reference"; fail=1; }
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
src = open(d + "/src.in.bin", "rb").read()
dst = open(d + "/dst.bin", "rb").read()
S = struct.unpack("<%dI" % (len(src) // 4), src)
D = struct.unpack("<%dI" % (len(dst) // 4), dst)
tail = n % 64 != 0
ref = []
for i in range(256):
    w, l, p = i >> 6, i & 63, (i >> 6) ^ 1
    lane_sum = sum(S[j] for j in range(l, n, 64))
    v = lane_sum + (p * 64 + l if w >= 2 and tail else 0)     # X adds the partner's row
    v += lane_sum if p < 2 and tail else p * 64 + l           # the row after the last barrier
    ref.append(v & 0xFFFFFFFF)
sys.exit(0 if list(D) == ref else 1)
PY
  done
done

# Relations between values divided by different powers of two (cases/ceil_items*.s,
# relate.c): two work items per work-group, B = ceil(n / 256) items (LLVM's
# division sequence), a second item only when 2w + 1 < B, and per item
# c = min(2, ceil(n / 128) - 2 * item) halves (a shift).  The barrier-free route
# from an item's c <= 1 read into the next item's write needs a second item
# after an item with c <= 1, which ceil(n / 128) >= 2B - 1 rules out.  Clean with
# the relations, reported with --all-paths; the broken kernel (a second item when
# 2w < B) is reported either way.  gcnsim agrees: the reference sums and no race
# for the correct kernel, a race in the broken one for n <= 128.
# ceil_case NAME WANT ITEM K NS: gcnlint's exit WANT (and the race with --all-paths),
# then gcnsim over the n of NS: items of ITEM elements, K parts of ITEM/K each; the
# correct kernel's sums against the reference, the broken one's race for n <= 128.
ceil_case() {
  name=$1 want_lint=$2 item=$3 k=$4 ns=$5
  "$lint" "$cases/$name.s" > "$tmp/ci.txt"; rc=$?
  { [ $rc = "$want_lint" ] && { [ $rc = 0 ] || grep -q 'lds-cross-wave-race' "$tmp/ci.txt"; }; } ||
    { echo "FAIL: $name.s: exit $rc, want $want_lint"; cat "$tmp/ci.txt"; fail=1; }
  "$lint" --all-paths "$cases/$name.s" > "$tmp/ci.txt"; rc=$?
  { [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/ci.txt"; } ||
    { echo "FAIL: $name.s --all-paths: exit $rc, want 4"; cat "$tmp/ci.txt"; fail=1; }
  for n in $ns; do
    B=$(( (n + item - 1) / item )); G=$(( (B + 1) / 2 ))
    rm -rf "$tmp/cid"
    "$top_builddir/gcnsim" --mcpu gfx942 --grid $G --block 256 "$cases/$name.s" \
      --buffer src:$(( (item * B + 64) * 4 )):random=u32,$n --buffer dst:$(( G * 1024 )) --arg buffer:src \
      --arg buffer:dst --arg u32:$n --dump-dir "$tmp/cid" --dump-inputs > "$tmp/ci.txt" 2>&1; rc=$?
    if [ "$want_lint" = 4 ]; then
      want=0
      [ $n -le 128 ] && want=4
      { [ $rc = $want ] && { [ $rc = 0 ] || grep -q 'lds-cross-wave-race' "$tmp/ci.txt"; }; } ||
        { echo "FAIL: gcnsim $name.s n=$n: exit $rc, want $want"; cat "$tmp/ci.txt"; fail=1; }
      continue
    fi
    [ $rc = 0 ] || { echo "FAIL: gcnsim $name.s n=$n: exit $rc, want 0"; cat "$tmp/ci.txt"; fail=1; continue; }
    "$PYTHON3" - "$tmp/cid" $n $item $k <<'PY' || { echo "FAIL: gcnsim $name.s n=$n: sums differ from the reference"; fail=1; }
import struct, sys
d, n, I, K = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
src = open(d + "/src.in.bin", "rb").read()
dst = open(d + "/dst.bin", "rb").read()
S = struct.unpack("<%dI" % (len(src) // 4), src)
D = struct.unpack("<%dI" % (len(dst) // 4), dst)
B = (n + I - 1) // I
A = (n + I // K - 1) // (I // K)
def tile(i, slot, l):
    j = 64 * slot + l
    return S[I * i + j] if j < I and I * i + j < n else 0
ref = []
for g in range((B + 1) // 2):
    items = [g] + ([B - 1 - g] if 2 * g + 1 < B else [])
    for t in range(256):
        w, l = t >> 6, t & 63
        v = 0
        for i in items:
            v += tile(i, w ^ 1, l)
            if min(K, A - K * i) == K:
                v += tile(i, w ^ 2, l)
        ref.append(v & 0xFFFFFFFF)
sys.exit(0 if list(D) == ref else 1)
PY
  done
}
ceil_case ceil_items 0 256 2 "1 100 128 129 200 256 300 513 1000"
ceil_case ceil_items_broken 4 256 2 "1 100 128 129 200 256 300 513 1000"

# The same with a factor of three (cases/ceil_thirds*.s): B = ceil(n / 192) items
# through the division sequence (divisor 0xc0), c = min(3, ceil(n / 64) - 3 * item)
# parts.  Refuting the route takes w >= 0 from 0 <= ceil(n / 64) <= 3w + 2 before
# w goes, which Fourier-Motzkin over the integers finds in the Omega test's exact
# order (relate.c).  Clean with the relations, reported with --all-paths; the
# broken kernel (a second item when 2w < B) reported either way.  gcnsim: the
# reference sums and no race for the correct kernel, a race in the broken one
# for n <= 128.
ceil_case ceil_thirds 0 192 3 "1 64 128 129 192 193 300 384 385 577 1000"
ceil_case ceil_thirds_broken 4 192 3 "1 64 128 129 192 193 300 384 385 577 1000"

# --explain names the waves that meet and the barrier-free route of one:
# wave 2 runs part X (line 90) and falls through into Y's write (line 108)
# while wave 3 still reads in X; with roles, both routes from the entry.
"$lint" --explain "$cases/tail_chain_broken.s" > "$tmp/tc.txt"
{ grep -q 'waves: wave 3 at line 90 and wave 2 at line 108 touch a common byte' "$tmp/tc.txt" &&
  grep -q 'wave 2 passes line 90 and reaches line 108 with no s_barrier, through line 90 -> line 97 -> line 99 -> line 108, while wave 3 may still be at line 90' "$tmp/tc.txt"; } ||
  { echo "FAIL: tail_chain_broken.s --explain: no route"; cat "$tmp/tc.txt"; fail=1; }
"$lint" --explain "$cases/wave_roles_broken.s" > "$tmp/tc.txt"
{ grep -q 'both follow the kernel entry with no s_barrier between' "$tmp/tc.txt" &&
  grep -q 'wave 3 reaches line 31 through line 9 -> line 25 -> line 27 -> line 31' "$tmp/tc.txt" &&
  grep -q 'wave 2 reaches line 23 through line 9 -> line 19 -> line 23' "$tmp/tc.txt"; } ||
  { echo "FAIL: wave_roles_broken.s --explain: no routes"; cat "$tmp/tc.txt"; fail=1; }

# Dead reads (cases/dead_read*.s, xwave.c and gcnsim's racyreg.c): a race on a
# read whose value the reading wave never uses is no finding for either tool;
# gcnsim agrees with gcnlint's exit status (and reports the race when gcnlint
# does) for 2 and 4 waves, trip counts 1..4, in both wave schedules.
for c in dead_read dead_read_broken dead_read_wave dead_read_swap dead_read_swap_broken; do
  "$lint" "$cases/$c.s" > "$tmp/dr.txt"; want=$?
  { [ $want = 0 ] || [ $want = 4 ]; } || { echo "FAIL: $c.s: gcnlint exit $want"; cat "$tmp/dr.txt"; fail=1; continue; }
  for b in 128 256; do
    for n in 1 2 3 4; do
      for q in 1 1000; do
        "$top_builddir/gcnsim" --mcpu gfx942 --block $b --quantum $q "$cases/$c.s" \
          --buffer src:512:random=u32,$n --buffer dst:1024 --arg buffer:src --arg buffer:dst \
          --arg u32:$n > "$tmp/dr.txt" 2>&1; rc=$?
        { [ $rc = $want ] && { [ $rc = 0 ] || grep -q 'lds-cross-wave-race' "$tmp/dr.txt"; }; } ||
          { echo "FAIL: gcnsim $c.s --block $b n=$n --quantum $q: exit $rc, gcnlint's $want"; cat "$tmp/dr.txt"; fail=1; }
      done
    done
  done
done

# The dead-read route past a branch on a constant written on one side of a
# wave-index branch (cases/dead_read_ctrl_broken.s): the branch parts the waves
# (control dependence, uniform.c), so the route is not trusted and the race on
# the read whose value waves 0-1 use is reported by both tools.
"$lint" --workgroup-size=256 "$cases/dead_read_ctrl_broken.s" > "$tmp/dr.txt"; rc=$?
{ [ $rc = 4 ] && grep -q 'dead_read_ctrl_broken.s:21: error: .*lds-cross-wave-race' "$tmp/dr.txt"; } ||
  { echo "FAIL: dead_read_ctrl_broken.s: gcnlint exit $rc, want 4"; cat "$tmp/dr.txt"; fail=1; }
for q in 1 1000; do
  "$top_builddir/gcnsim" --mcpu gfx942 --block 256 --quantum $q "$cases/dead_read_ctrl_broken.s" \
    --buffer src:512 --buffer dst:1024 --arg buffer:src --arg buffer:dst --arg u32:1 \
    > "$tmp/dr.txt" 2>&1; rc=$?
  { [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/dr.txt"; } ||
    { echo "FAIL: gcnsim dead_read_ctrl_broken.s --quantum $q: exit $rc, want 4"; cat "$tmp/dr.txt"; fail=1; }
done

# A raced read overwritten by a later load before any use (cases/dead_read_async*.s,
# class F6): dead for both tools; without the wait before the load the defect is the
# same wave's overwrite of a pending DS read, which both report (and no race).
for c in dead_read_async:0 dead_read_async_broken:4; do
  set -- $(echo "$c" | tr ':' ' ')
  "$lint" "$cases/$1.s" > "$tmp/dr.txt"; rc=$?
  { [ $rc = "$2" ] && ! grep -q 'lds-cross-wave-race' "$tmp/dr.txt" &&
    { [ $rc = 0 ] || grep -q 'pending-overwrite' "$tmp/dr.txt"; }; } ||
    { echo "FAIL: $1.s: gcnlint exit $rc, want $2"; cat "$tmp/dr.txt"; fail=1; }
  for n in 1 2 3; do
    for q in 1 1000; do
      "$top_builddir/gcnsim" --mcpu gfx942 --block 256 --quantum $q "$cases/$1.s" \
        --buffer src:512:random=u32,$n --buffer dst:1024 --arg buffer:src --arg buffer:dst \
        --arg u32:$n > "$tmp/dr.txt" 2>&1; rc=$?
      { [ $rc = "$2" ] && ! grep -q 'lds-cross-wave-race' "$tmp/dr.txt" &&
        { [ $rc = 0 ] || grep -q 'overwrite-before-retire' "$tmp/dr.txt"; }; } ||
        { echo "FAIL: gcnsim $1.s n=$n --quantum $q: exit $rc, want $2"; cat "$tmp/dr.txt"; fail=1; }
    done
  done
done

# A coalesced LDS-DMA of one wave and another wave's read of its bytes:
# gcnsim reports the race too (cases/dma_xwave.s; its fast DMA path once
# left the DMA's writes out of the race check).
"$top_builddir/gcnsim" --mcpu gfx942 --block 256 "$cases/dma_xwave.s" --buffer src:4096:random=u32,1 \
  --buffer dst:1024 --arg buffer:src --arg buffer:dst --arg u32:0 > "$tmp/dx.txt" 2>&1; rc=$?
{ [ $rc = 4 ] && grep -q 'lds-cross-wave-race' "$tmp/dx.txt"; } ||
  { echo "FAIL: gcnsim dma_xwave.s: exit $rc, want 4 with lds-cross-wave-race"; cat "$tmp/dx.txt"; fail=1; }

# The remainder is followed only through the whole expansion: with its second
# refinement left out (q1 taken for the quotient, which is not floor(n / 3)
# for every n), the tail's pairings are reported again.
sed 's/v_cndmask_b32 v14, v11, v12, vcc .*/v_mov_b32 v14, v11/' "$cases/tail_mod3.s" > "$tmp/tail_mod3_q1.s"
grep -q 'v_mov_b32 v14, v11' "$tmp/tail_mod3_q1.s" || { echo "FAIL: tail_mod3.s: the q2 step not found"; fail=1; }
cp "$cases/kernel_tail_args.inc" "$tmp/"
"$lint" "$tmp/tail_mod3_q1.s" > "$tmp/tp.txt"; rc=$?
{ [ $rc = 4 ] && [ "$(grep -c 'lds-dma-pending' "$tmp/tp.txt")" = 3 ]; } ||
  { echo "FAIL: tail_mod3.s without the second refinement: exit $rc, want 4 with 3 lds-dma-pending"; cat "$tmp/tp.txt"; fail=1; }

# ---- LLVM's waits as oracle: mutants of compiler output -------------------
"$PYTHON3" "$top_srcdir/tests/analyze/mutants.py" --gcnlint "$lint" --clang "$CLANG22" \
  --include "$top_srcdir/kernels/hip" $hips || fail=1

# ---- SARIF and text output ----------------------------------------------
"$lint" --format=sarif --explain --suggest "$cases/dbuf_weak.s" "$cases/smem_order.s" > "$tmp/out.sarif"
[ $? = 4 ] || { echo "FAIL: sarif run exit status"; fail=1; }
"$top_builddir/tests/analyze/test_sarif" "$tmp/out.sarif" || fail=1

"$lint" "$cases/smem_order.s" > "$tmp/out.txt"
rc=$?
[ $rc = 4 ] || { echo "FAIL: text exit status $rc"; fail=1; }
# gcc style: FILE:LINE: severity: message [check]
n=$(grep -cE '^[^:]+smem_order\.s:[0-9]+: (error|warning): .* \[[a-z-]+\]$' "$tmp/out.txt")
[ "$n" = 4 ] || { echo "FAIL: expected 4 gcc-style lines, got $n:"; cat "$tmp/out.txt"; fail=1; }

# -Wno-<check> removes a check; all removed: clean
"$lint" -Wno-smem-out-of-order "$cases/smem_order.s" > "$tmp/out.txt"
grep -q smem-out-of-order "$tmp/out.txt" && { echo "FAIL: -Wno-smem-out-of-order"; fail=1; }
"$lint" -Wno-smem-out-of-order -Wno-pending-read -Wno-pending-overwrite "$cases/smem_order.s" >/dev/null
[ $? = 0 ] || { echo "FAIL: all checks disabled must exit 0"; fail=1; }

# exit codes: usage 1, input error 2, clean 0
"$lint" >/dev/null 2>&1; [ $? = 1 ] || { echo "FAIL: no file: exit 1"; fail=1; }
"$lint" --bogus x.s >/dev/null 2>&1; [ $? = 1 ] || { echo "FAIL: bad option: exit 1"; fail=1; }
"$lint" "$tmp/none.hsaco" >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: missing file: exit 2"; fail=1; }
printf 'v_bogus v1\n' > "$tmp/bad.s"
"$lint" "$tmp/bad.s" > /dev/null 2> "$tmp/err.txt"; [ $? = 2 ] || { echo "FAIL: bad asm: exit 2"; fail=1; }
grep -q 'bad.s:1' "$tmp/err.txt" || { echo "FAIL: assembler message lacks file:line"; cat "$tmp/err.txt"; fail=1; }
"$lint" "$cases/dbuf_ok.s" > /dev/null; [ $? = 0 ] || { echo "FAIL: clean file: exit 0"; fail=1; }

# a binary without line information: file:0: severity: symbol+0xOFFSET: message
"$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -I "$cases" "$cases/smem_order.s" -o "$tmp/k.hsaco"
"$lint" --explain "$tmp/k.hsaco" > "$tmp/out.txt"
grep -qE '^[^:]*k\.hsaco:0: error: k\+0x[0-9a-f]+: .*\[smem-out-of-order\]$' "$tmp/out.txt" ||
  { echo "FAIL: no file:0: error: kernel+0xOFFSET: diagnostic"; cat "$tmp/out.txt"; fail=1; }
grep -qE '^[^:]*k\.hsaco:0: note: k\+0x[0-9a-f]+: the producing instruction is here$' "$tmp/out.txt" ||
  { echo "FAIL: no file:0: note: kernel+0xOFFSET: producer line"; fail=1; }
# ... and in a callee (helper+0xOFF) or in code no symbol covers (.text+0xOFF)
"$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -I "$cases" "$cases/callee.s" -o "$tmp/callee.hsaco"
"$lint" "$tmp/callee.hsaco" > "$tmp/callee.txt"
"$lint" --format=json "$tmp/callee.hsaco" > "$tmp/callee.json"
grep -qE 'callee\.hsaco:0: error: \.text\+0x3c: v_mov_b32_e32 v7, v6 .*\(\.text\+0x34\)' "$tmp/callee.txt" &&
grep -qE 'callee\.hsaco:0: error: helper\+0x8: v_mov_b32_e32 v9, v8 .*\(helper\+0x0\)' "$tmp/callee.txt" ||
  { echo "FAIL: locations outside the kernel symbol"; cat "$tmp/callee.txt"; fail=1; }
"$PYTHON3" - "$tmp/callee.json" <<'PY' || fail=1
import json, sys
fs = json.load(open(sys.argv[1]))["findings"]
got = sorted((f["kernel"], f["location"], f["offset"], f["producer"]["location"]) for f in fs)
want = [("k", ".text+0x3c", "0x3c", ".text+0x34"), ("k", "helper+0x8", "0x8", "helper+0x0")]
if got != want:
    print("FAIL: JSON locations", got)
    sys.exit(1)
PY

# the text output parses with editors' gcc-style error parsers: VS Code's $gcc
# problem matcher, vim's default 'errorformat' (when vim is installed)
# (without --explain: its indented lines are not diagnostics)
"$lint" "$tmp/k.hsaco" > "$tmp/both.txt"
cat "$tmp/callee.txt" >> "$tmp/both.txt"
"$lint" "$cases/smem_order.s" >> "$tmp/both.txt"
"$PYTHON3" - "$tmp/both.txt" <<'PY' || fail=1
import re, sys
gcc = re.compile(r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$")  # VS Code $gcc
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if ": error: " in l]
bad = [l for l in lines if not gcc.match(l) or not gcc.match(l).group(1).endswith((".hsaco", ".s"))]
where = re.compile(r"^(k|helper|\.text)\+0x[0-9a-f]+: ")
binary = [gcc.match(l).group(5) for l in lines if gcc.match(l) and gcc.match(l).group(2) == "0"]
if bad or len(lines) != 10 or len(binary) != 6 or not all(where.match(m) for m in binary):
    print("FAIL: $gcc problem matcher: %d lines, unparsed %r, binary %r" % (len(lines), bad, binary))
    sys.exit(1)
PY
if command -v vim >/dev/null 2>&1; then
  (cd "$tmp" && vim -u NONE -i NONE -N -es -c 'cgetfile both.txt' \
     -c 'call writefile(map(filter(getqflist(), "v:val.valid"), "bufname(v:val.bufnr).\":\".v:val.lnum.\":\".v:val.text"), "qf.txt")' \
     -c 'qa!' < /dev/null)
  n=$(grep -cE '(k\.hsaco:0: *error: k\+0x|callee\.hsaco:0: *error: (helper|\.text)\+0x|smem_order\.s:[0-9]+: *error: )' "$tmp/qf.txt" 2>/dev/null)
  [ "$n" = 10 ] || { echo "FAIL: vim's errorformat read $n of 10 errors:"; cat "$tmp/qf.txt"; fail=1; }
fi

# a rule broken at many sites of one kernel is one finding with the count and
# the sites; --no-group lists each; the summary counts both
{ sed -n '1,/^k:/p' "$cases/smem_order.s"
  printf '    s_mov_b32 s4, 0\n    v_mov_b32 v1, 0\n'
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    printf '    s_mov_b32 m0, s4\n    buffer_load_dword v1, s[0:3], 0 offen lds\n'; done
  printf '    s_waitcnt vmcnt(0)\n    s_endpgm\n.Lk_end:\n.include "kernel_tail.inc"\n'; } > "$tmp/m0.s"
cp "$cases/kernel_tail.inc" "$tmp/"
nogroup="-Wno-lds-cross-wave-race -Wno-lds-dma-race"
"$lint" $nogroup --summary "$tmp/m0.s" > "$tmp/m0.txt" 2> "$tmp/m0.sum"
n=$(grep -c 'hazard-salu-m0-read\]$' "$tmp/m0.txt")
[ "$n" = 1 ] && grep -q 'm0.s:13: error: .*the same rule is broken at 11 more sites in this kernel: line 15, line 17, line 19, ' "$tmp/m0.txt" &&
  grep -q '(3 more; --no-group lists each)' "$tmp/m0.txt" &&
  grep -qE ': 1 error \(12 sites\), 0 warnings, 0 notes, 0 input errors$' "$tmp/m0.sum" ||
  { echo "FAIL: grouped hazard:"; cat "$tmp/m0.txt" "$tmp/m0.sum"; fail=1; }
"$lint" $nogroup --summary --no-group "$tmp/m0.s" > "$tmp/m0.txt" 2> "$tmp/m0.sum"
[ $? = 4 ] && [ "$(grep -c 'hazard-salu-m0-read\]$' "$tmp/m0.txt")" = 12 ] &&
  grep -qE ': 12 errors, 0 warnings, 0 notes, 0 input errors$' "$tmp/m0.sum" ||
  { echo "FAIL: --no-group"; cat "$tmp/m0.txt" "$tmp/m0.sum"; fail=1; }
"$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -I "$tmp" "$tmp/m0.s" -o "$tmp/m0.hsaco"
"$lint" $nogroup --format=json "$tmp/m0.hsaco" > "$tmp/m0.json"
"$lint" $nogroup --format=sarif "$tmp/m0.hsaco" > "$tmp/m0.sarif"
"$top_builddir/tests/analyze/test_sarif" "$tmp/m0.sarif" > /dev/null || fail=1
"$PYTHON3" - "$tmp/m0.json" "$tmp/m0.sarif" <<'PY' || fail=1
import json, sys
fs = json.load(open(sys.argv[1]))["findings"]
res = json.load(open(sys.argv[2]))["runs"][0]["results"]
ok = len(fs) == 1 and fs[0]["count"] == 12 and len(fs[0]["sites"]) == 12
ok = ok and fs[0]["sites"][0]["location"] == fs[0]["location"]
ok = ok and len({s["offset"] for s in fs[0]["sites"]}) == 12
ok = ok and all(s["location"].startswith("k+0x") and s["message"] for s in fs[0]["sites"])
rel = res[0].get("relatedLocations", []) if len(res) == 1 else []
fq = [r["physicalLocation"]["address"]["fullyQualifiedName"] for r in rel if r["id"] >= 2]
ok = ok and fq == [s["location"] for s in fs[0]["sites"]]
if not ok:
    print("FAIL: grouped JSON/SARIF:", json.dumps(fs)[:800], fq)
    sys.exit(1)
PY

# one s_waitcnt that leaves two LDS-DMAs in flight for ten reads of their bytes
# (five each: fewer than 8 per producer) is one finding, grouped by the wait,
# whose fix retires both producers: vmcnt(5) leaves DMA 1 (4 younger) and
# DMA 2 (3 younger) pending; vmcnt(3) retires both
{ sed -n '1,/^k:/p' "$cases/smem_order.s"
  cat <<'ASM'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_readfirstlane_b32 s12, v0
    v_lshlrev_b32 v1, 2, v0
    s_lshl_b32 s12, s12, 2
    s_add_u32 s13, s12, 0x800
    s_add_u32 s14, s12, 0xc00
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, s13
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    s_mov_b32 m0, s14
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    buffer_load_dword v2, v1, s[4:7], 0 offen
    buffer_load_dword v3, v1, s[4:7], 0 offen
    buffer_load_dword v4, v1, s[4:7], 0 offen
    s_waitcnt vmcnt(5)
ASM
  for r in 5 6 7 8 9; do printf '    ds_read_b32 v%s, v1 offset:2048
' $r; done
  for r in 10 11 12 13 14; do printf '    ds_read_b32 v%s, v1 offset:3072
' $r; done
  printf '    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
'; } > "$tmp/bywait.s"
"$lint" "$tmp/bywait.s" > "$tmp/bywait.txt"
n=$(grep -c 'lds-dma-pending\]$' "$tmp/bywait.txt")
[ "$n" = 1 ] && grep -q 'the same s_waitcnt (line 26) leaves the operations in flight at 9 more sites in this kernel: .*vmcnt(3) there would retire them all \[lds-dma-pending\]$' "$tmp/bywait.txt" ||
  { echo "FAIL: grouped by the wait:"; cat "$tmp/bywait.txt"; fail=1; }
[ "$("$lint" --no-group "$tmp/bywait.s" | grep -c 'lds-dma-pending\]$')" = 10 ] ||
  { echo "FAIL: --no-group by the wait"; fail=1; }

# lds-cross-wave-race groups per kernel (its sites are the pairs a missing
# barrier leaves unordered, each naming its own write): nine arrays, each
# written by every lane into its own word and read at the neighbour's word
# (the values read are summed: a read whose value is never used is no race)
{ sed -n '1,/^k:/p' "$cases/smem_order.s"
  printf '    v_lshlrev_b32 v1, 2, v0\n    v_mov_b32 v3, 0\n'
  for i in 0 1 2 3 4 5 6 7 8; do
    printf '    ds_write_b32 v1, v0 offset:%d\n    ds_read_b32 v%d, v1 offset:%d\n' $((1024 * i)) $((4 + i)) $((1024 * i + 4)); done
  printf '    s_waitcnt lgkmcnt(0)\n'
  for i in 0 1 2 3 4 5 6 7 8; do printf '    v_add_u32 v3, v3, v%d\n' $((4 + i)); done
  printf '    s_endpgm\n.Lk_end:\n.include "kernel_tail.inc"\n'; } > "$tmp/xw9.s"
"$lint" "$tmp/xw9.s" > "$tmp/xw9.txt"
[ "$(grep -c 'lds-cross-wave-race\]$' "$tmp/xw9.txt")" = 1 ] &&
  grep -q 'accesses of different waves meet with no barrier between them at 8 more sites in this kernel' "$tmp/xw9.txt" &&
  [ "$("$lint" --no-group "$tmp/xw9.s" | grep -c 'lds-cross-wave-race\]$')" = 9 ] ||
  { echo "FAIL: lds-cross-wave-race grouped per kernel:"; cat "$tmp/xw9.txt"; fail=1; }

# --werror: the cfg-indirect warning becomes an error
"$lint" "$cases/indirect.s" | grep -q ': warning: .*\[cfg-indirect\]$' ||
  { echo "FAIL: cfg-indirect warning"; fail=1; }
"$lint" --werror "$cases/indirect.s" | grep -q ': error: .*\[cfg-indirect\]$' ||
  { echo "FAIL: --werror"; fail=1; }

# a clang offload bundle (HIP device code, bundled)
"$CLANG22" -x hip --offload-arch=gfx942 -nogpulib -nogpuinc --cuda-device-only -O2 \
  "$top_srcdir/tests/analyze/hip/sgemm_tiled.hip" -o "$tmp/bundle.hipfb" &&
"$lint" --summary "$tmp/bundle.hipfb" > /dev/null 2> "$tmp/sum.txt"
rc=$?
[ $rc = 0 ] && grep -q ' 1 kernel: 0 errors' "$tmp/sum.txt" ||
  { echo "FAIL: offload bundle (exit $rc)"; cat "$tmp/sum.txt"; fail=1; }

# -j over many files, one summary line
"$lint" -j 2 "$cases"/*.s > /dev/null 2> "$tmp/sum.txt"
grep -qE '^gcnlint: [0-9]+ files, [0-9]+ kernels: [0-9]+ errors?, [0-9]+ warnings?, [0-9]+ notes?, 0 input errors$' "$tmp/sum.txt" ||
  { echo "FAIL: summary line"; cat "$tmp/sum.txt"; fail=1; }

exit $fail

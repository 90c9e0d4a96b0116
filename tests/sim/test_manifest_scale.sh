#!/bin/sh
# test_manifest_scale.sh -- manifests that scale to many builds and sizes (issue 18):
#   another build of the kernel in place of the manifest's code (--code FILE, or FILE after
#   --manifest), checked against the kernel's argument metadata (count, sizes, offsets,
#   pointers: exit 2 naming the argument); --all-sizes (a summary line per test size, the
#   worst exit code); file inputs sliced ("offset"/"bytes") or a prefix of a longer file,
#   swept with --set; dumps of the outputs only unless --dump-inputs (also with --output);
#   an out-of-range --wave is a usage error naming the valid range.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "SKIP: gcnsim not built"; exit 77; }
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
if [ -z "${CLANG22:-}" ] || ! command -v "$CLANG22" >/dev/null 2>&1; then
    echo "SKIP: clang-22 (CLANG22) is needed to assemble the kernels"; exit 77
fi
export GCN_CLANG=$CLANG22
T=$(mktemp -d /tmp/gcnsim-scale-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# kernel NAME KERNARG_SIZE ARGS...  -- B[i] = A[i] + 1 for i < 64, metadata args as given
# (each ARG "name:size:offset:kind")
kernel() {
    name=$1 kas=$2
    shift 2
    {
        cat <<EOF
.amdhsa_code_object_version 5
.text
.globl $name
.p2align 8
.type $name,@function
$name:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32 v2, 1, v2
    global_store_dword v1, v2, s[6:7]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel $name
  .amdhsa_kernarg_size $kas
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: $name
    .symbol: $name.kd
    .kernarg_segment_size: $kas
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
EOF
        for a in "$@"; do
            IFS=: read -r an as ao ak <<EOF
$a
EOF
            echo "      - {.name: $an, .size: $as, .offset: $ao, .value_kind: $ak}"
        done
        echo "..."
        echo ".end_amdgpu_metadata"
    } > "$T/$name.s"
}

expect() {
    want=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! printf '%s' "$out" | grep -q -- "$pat"; then
        echo "FAIL: $* -> exit $rc (want $want), output lacks '$pat':"
        printf '%s\n' "$out" | sed 's/^/    /' | head -20
        fails=$((fails + 1))
    else
        echo "ok   exit $rc: $*"
    fi
}

G=global_buffer
kernel copy 24 A:8:0:$G B:8:8:$G n:4:16:by_value
kernel copy_v2 24 A:8:0:$G B:8:8:$G n:4:16:by_value          # another build, another name
kernel copy_u64 24 A:8:0:$G B:8:8:$G n:8:16:by_value         # n is 8 bytes
kernel copy_gap 24 A:8:0:$G B:8:8:$G n:4:20:by_value         # n at offset 20
kernel copy_four 32 A:8:0:$G B:8:8:$G n:4:16:by_value m:4:20:by_value
kernel copy_ptr 24 A:8:0:$G B:8:8:$G n:8:16:$G               # a pointer where a u64 goes
mkdir "$T/builds" && cp "$T/copy.s" "$T/builds/copy.s"
cat > "$T/copy.json" <<'EOF'
{"code": "copy.s", "kernel": "copy", "targets": ["gfx942", "gfx950"],
 "params": {"N": 64},
 "grid": [1], "block": [64],
 "buffers": {"A": {"size": "N*4", "init": {"random": "u32", "seed": 7}},
             "B": {"size": "N*4", "init": "zero"}},
 "args": [{"buffer": "A"}, {"buffer": "B"}, {"u32": "N"}],
 "outputs": ["B"],
 "test_sizes": [{"N": 64}, {"N": 128}, {"N": 96}]}
EOF

echo "# ---- another build in place of the manifest's code"
expect 0 "0 findings" "$gcnsim" --manifest "$T/copy.json" --set N=128 --dump-dir "$T/d0"
expect 0 "copy on gfx942" "$gcnsim" --manifest "$T/copy.json" --set N=128 "$T/builds/copy.s" --dump-dir "$T/d1"
cmp -s "$T/d0/B.bin" "$T/d1/B.bin" || fail "the same build given as FILE made another B"
"$py" -c 'import json,sys; c=json.load(open(sys.argv[1]))["code"]; sys.exit(0 if c.endswith("builds/copy.s") else 1)' \
    "$T/d1/run.json" || fail "run.json does not name the code that ran"
expect 0 "copy_v2 on gfx950" "$gcnsim" --manifest "$T/copy.json" --set N=128 --code "$T/copy_v2.s" \
    --kernel copy_v2 --mcpu gfx950
expect 2 "no kernel named copy" "$gcnsim" --manifest "$T/copy.json" --code "$T/copy_v2.s"
expect 2 "copy_u64.s: kernel copy_u64 argument 2 (n) is 8 bytes at offset 16; the manifest .*copy.json gives a u32, 4 bytes at offset 16" \
    "$gcnsim" --manifest "$T/copy.json" --code "$T/copy_u64.s" --kernel copy_u64
expect 2 "argument 2 (n) is 4 bytes at offset 20; the manifest .* gives a u32, 4 bytes at offset 16" \
    "$gcnsim" --manifest "$T/copy.json" "$T/copy_gap.s" --kernel copy_gap
expect 2 "copy_four.s: kernel copy_four has 4 explicit arguments, the manifest .*copy.json gives 3" \
    "$gcnsim" --manifest "$T/copy.json" "$T/copy_four.s" --kernel copy_four
sed 's/{"u32": "N"}/{"u64": "N"}/' "$T/copy.json" > "$T/copy64.json"
expect 2 "argument 2 (n) is a pointer (global_buffer); the manifest .* gives a u64" \
    "$gcnsim" --manifest "$T/copy64.json" "$T/copy_ptr.s" --kernel copy_ptr
expect 1 "--code .* replaces a manifest's code" "$gcnsim" --code "$T/copy.s"
expect 1 "give one code file" "$gcnsim" --manifest "$T/copy.json" "$T/copy.s" --code "$T/copy.s"
expect 1 "describe a dispatch without a manifest" "$gcnsim" --manifest "$T/copy.json" --kernel copy
expect 2 "No such file" "$gcnsim" --manifest "$T/copy.json" "$T/nonesuch.s"

echo "# ---- --all-sizes"
out=$("$gcnsim" --manifest "$T/copy.json" --all-sizes 2>"$T/err")
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || fail "--all-sizes of a clean kernel: exit $rc"
[ "$(printf '%s\n' "$out" | grep -c '^size [123]/3 (N=[0-9]*): grid 1x1x1, block 64x1x1, 1 wave, 8 wave-instructions: clean (exit 0)$')" = 3 ] ||
    fail "--all-sizes: not 3 summary lines"
grep -q "3 sizes: 3 clean, 0 with findings, 0 kernel faults, 0 not run" "$T/err" || fail "--all-sizes total: $(cat "$T/err")"
# a size that faults (N=128 with A of 64 elements: the loads of lanes 0..63 stay inside,
# so shrink A instead) and one with bad input: the worst exit code wins
sed 's/"A": {"size": "N\*4"/"A": {"size": "N*2"/; s/"test_sizes": \[.*\]/"test_sizes": [{"N": 128}, {"N": 64}, {"N": 256}]/' \
    "$T/copy.json" > "$T/sizes.json"
out=$("$gcnsim" --manifest "$T/sizes.json" --all-sizes 2>/dev/null)
rc=$?
printf '%s\n' "$out"
[ $rc = 3 ] || fail "--all-sizes with a faulting size: exit $rc, want 3"
printf '%s\n' "$out" | grep -q '^size 2/3 (N=64): .*kernel fault: .*(exit 3)$' || fail "--all-sizes: no fault line for N=64"
printf '%s\n' "$out" | grep -q '^size 1/3 (N=128): .*clean (exit 0)$' || fail "--all-sizes: N=128 not clean"
sed 's/"test_sizes": \[.*\]/"test_sizes": [{"N": 64}, {"N": -1}, {"N": 96}]/' "$T/copy.json" > "$T/bad.json"
out=$("$gcnsim" --manifest "$T/bad.json" --all-sizes 2>/dev/null)
rc=$?
[ $rc = 2 ] || fail "--all-sizes with a bad size: exit $rc, want 2"
printf '%s\n' "$out" | grep -q '^size 2/3 (N=-1): bad input (exit 2)$' || fail "--all-sizes: no bad-input line: $out"
# findings outrank clean: the weak loop of vector_add reports at some sizes only
out=$("$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add_weak_loop.json" --all-sizes -q 2>/dev/null)
rc=$?
printf '%s\n' "$out"
[ $rc = 4 ] || fail "--all-sizes of vector_add_weak_loop: exit $rc, want 4"
printf '%s\n' "$out" | grep -q 'N=1 WG=1): .*clean (exit 0)$' && printf '%s\n' "$out" | grep -q 'N=1000 WG=2): .*finding.* (exit 4)$' ||
    fail "--all-sizes of vector_add_weak_loop: not clean at N=1 and findings at N=1000"
# each summary line is what the single run at that size reports
one=$("$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add_weak_loop.json" --set N=4097 --set WG=2 2>&1 |
      sed -n 's/.*block 256x1x1, \([0-9]* waves, [0-9]* wave-instructions\),.*/\1/p')
printf '%s\n' "$out" | grep -q "N=4097 WG=2): grid 2x1x1, block 256x1x1, $one:" || fail "--all-sizes line differs from the run at N=4097 ($one)"
# with another build
expect 0 "3 sizes: 3 clean" "$gcnsim" --manifest "$T/copy.json" --all-sizes "$T/copy_v2.s" --kernel copy_v2
expect 1 "--all-sizes prints a summary line per size" "$gcnsim" --manifest "$T/copy.json" --all-sizes --dump-dir "$T/x"
expect 1 "--all-sizes runs the test_sizes of a manifest" "$gcnsim" "$T/copy.s" --all-sizes
"$py" -c 'import json,sys; m=json.load(open(sys.argv[1])); del m["test_sizes"]; json.dump(m, open(sys.argv[2], "w"))' \
    "$T/copy.json" "$T/nosizes.json"
expect 0 "size 1/1 (the manifest's params)" "$gcnsim" --manifest "$T/nosizes.json" --all-sizes

echo "# ---- file inputs: a slice, a prefix, swept with --set"
"$py" -c 'import sys; open(sys.argv[1], "wb").write(bytes(range(256)) * 4)' "$T/in.bin"   # 1024 bytes
mk() {  # mk NAME INIT-JSON
    sed "s|\"A\": {\"size\": \"N\*4\", \"init\": {\"random\": \"u32\", \"seed\": 7}}|\"A\": {\"size\": \"N*4\", \"init\": $2}|" \
        "$T/copy.json" > "$T/$1.json"
}
mk whole '{"file": "in.bin"}'
expect 2 "in.bin is larger than the buffer's 256 bytes (\"prefix\": true" "$gcnsim" --manifest "$T/whole.json"
expect 0 "0 findings" "$gcnsim" --manifest "$T/whole.json" --set N=256 --dump-dir "$T/fw" --dump-inputs
mk prefix '{"file": "in.bin", "prefix": true}'
for n in 64 100 200 256; do
    expect 0 "0 findings" "$gcnsim" --manifest "$T/prefix.json" --set N=$n --dump-dir "$T/fp$n" --dump-inputs
    "$py" - "$T/in.bin" "$T/fp$n/A.in.bin" $n <<'PY' || fail "prefix N=$n: A is not the file's first bytes"
import sys
f, a, n = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), int(sys.argv[3])
sys.exit(0 if a == f[:4 * n] else 1)
PY
done
mk slice '{"file": "in.bin", "offset": "N", "bytes": "N*2"}'
expect 0 "0 findings" "$gcnsim" --manifest "$T/slice.json" --set N=100 --dump-dir "$T/fs" --dump-inputs
"$py" - "$T/in.bin" "$T/fs/A.in.bin" "$T/fs/B.bin" <<'PY' || fail "slice: A is not bytes [100, 300) then zeros, or B != A+1"
import struct, sys
f, a, b = (open(p, "rb").read() for p in sys.argv[1:4])
if a != f[100:300] + bytes(200):
    sys.exit(1)
A, B = struct.unpack("<100I", a), struct.unpack("<100I", b)
sys.exit(0 if all(B[i] == (A[i] + 1) & 0xffffffff for i in range(64)) else 1)
PY
expect 2 "the slice of 1600 bytes at offset 800 ends beyond the file's 1024 bytes" \
    "$gcnsim" --manifest "$T/slice.json" --set N=800 --dump-dir "$T/fs"
sed 's/"N\*2"/"N*8"/' "$T/slice.json" > "$T/slice2.json"
expect 2 "bytes 512 is more than the buffer's 256 bytes" "$gcnsim" --manifest "$T/slice2.json"
mk far '{"file": "in.bin", "offset": 2000}'
expect 2 "offset 2000 is beyond the file's 1024 bytes" "$gcnsim" --manifest "$T/far.json"
mk typo '{"file": "in.bin", "ofset": 4}'
expect 2 "unknown key \"ofset\" in a file init" "$gcnsim" --manifest "$T/typo.json"
mk neg '{"file": "in.bin", "offset": "0-4"}'
expect 2 "file offset -4 is negative" "$gcnsim" --manifest "$T/neg.json"

echo "# ---- dumps: the outputs, inputs on request"
expect 0 "0 findings" "$gcnsim" "$T/copy.s" --mcpu gfx942 --buffer A:256:random=u32,1 --buffer B:256 \
    --arg buffer:A --arg buffer:B --arg u32:64 --output B --dump-dir "$T/o1"
[ "$(ls "$T/o1" | tr '\n' ' ')" = "B.bin run.json " ] || fail "--output B dumped: $(ls "$T/o1")"
"$py" -c 'import json,sys; b=json.load(open(sys.argv[1]))["buffers"]; sys.exit(0 if b["A"]["in"] is None and b["A"]["out"] is None and b["B"]["out"] == "B.bin" else 1)' \
    "$T/o1/run.json" || fail "run.json does not say which files the dump holds"
expect 0 "0 findings" "$gcnsim" "$T/copy.s" --mcpu gfx942 --buffer A:256:random=u32,1 --buffer B:256 \
    --arg buffer:A --arg buffer:B --arg u32:64 --output B --dump-dir "$T/o1" --dump-inputs
[ "$(ls "$T/o1" | tr '\n' ' ')" = "A.in.bin B.bin B.in.bin run.json " ] || fail "--output B --dump-inputs dumped: $(ls "$T/o1")"
# with a manifest, --output picks the buffers to dump instead of its "outputs"
expect 0 "0 findings" "$gcnsim" --manifest "$T/copy.json" --output A --output B --dump-dir "$T/o2"
[ "$(ls "$T/o2" | tr '\n' ' ')" = "A.bin B.bin run.json " ] || fail "--manifest --output A --output B dumped: $(ls "$T/o2")"
expect 2 "--output Q: .*copy.json has no buffer named Q" "$gcnsim" --manifest "$T/copy.json" --output Q
expect 1 "--dump-inputs adds the inputs to a dump; give --dump-dir" "$gcnsim" --manifest "$T/copy.json" --dump-inputs
if [ -x "$builddir/kernels/vector_add/ref" ]; then
    "$gcnsim" -q --manifest "$srcdir/kernels/vector_add/vector_add.json" --dump-dir "$T/va" >/dev/null 2>&1
    expect 2 "BAD INPUT" "$builddir/kernels/vector_add/ref" "$T/va"
    "$builddir/kernels/vector_add/ref" "$T/va" 2>&1 | grep -q "run gcnsim with --dump-inputs" ||
        fail "ref does not say that the dump lacks the inputs"
fi

echo "# ---- --wave outside the dispatch"
expect 1 "--wave=99,0: out of range: the dispatch has 2 workgroups of 4 waves (valid: WG 0..1, W 0..3)" \
    "$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add.json" --wave=99,0
expect 1 "--wave=1,4: out of range" "$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add.json" \
    --wave=1,4 --trace-json "$T/t.json"
[ -e "$T/t.json" ] && fail "a trace was written for an out-of-range wave"
expect 0 "0 findings" "$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add.json" --wave=1,3 \
    --trace-json "$T/t.json"
[ -s "$T/t.json" ] || fail "no trace for wave 1,3"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all manifest-scaling checks passed"

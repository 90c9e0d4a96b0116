#!/bin/sh
# test_cli_common.sh -- what every tool's command line does alike (issue 18, "consistent
# command lines"): --mcpu X, --mcpu=X, -mcpu=X and -mcpu X in gcndis, gcnsim, gcnlint and
# gcnrun; the target taken from the input when it states one (.amdgcn_target of a .s, an ELF
# object against a manifest's "targets"), an --mcpu that contradicts it refused (exit 2);
# gcnsim's findings and faults located gcc-style (FILE:LINE: error: KERNEL+0xOFF:), read by
# VS Code's $gcc problem matcher and, where installed, vim's default errorformat.
# The proof of the target is a gfx950-only instruction (v_prng_b32): it assembles and
# decodes only for gfx950.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcndis=$builddir/gcndis gcnsim=$builddir/gcnsim gcnlint=$builddir/gcnlint gcnrun=$builddir/gcnrun
clang=${CLANG22:-clang-22}
py=${PYTHON3:-python3}
for t in "$gcndis" "$gcnsim" "$gcnlint" "$gcnrun"; do
    [ -x "$t" ] || { echo "$t not built: skipped"; exit 77; }
done
command -v "$clang" >/dev/null 2>&1 || { echo "no $clang (assembler): skipped"; exit 77; }
T=$(mktemp -d /tmp/gcn-clicommon-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
# expect RC PATTERN CMD... -- the exit code, and PATTERN (grep -E) in stdout+stderr
expect() {
    want=$1 pat=$2
    shift 2
    "$@" > "$T/out" 2>&1
    rc=$?
    if [ $rc -ne "$want" ]; then
        bad "exit $rc (expected $want): $*"; sed 's/^/    /' "$T/out" | head -20
    elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$T/out"; then
        bad "no /$pat/ in the output of: $*"; sed 's/^/    /' "$T/out" | head -20
    else
        ok "$want /$pat/: $(echo "$*" | sed "s|$T/||g; s|$builddir/||g")"
    fi
}
cd "$T"

# k950.s: a kernel with a gfx950-only instruction; k950t.s: the same stating its target
cat > k950.s <<'EOF'
.amdhsa_code_object_version 5
.text
.globl k950
.p2align 8
.type k950,@function
k950:
  v_prng_b32 v1, v0
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k950
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
EOF
{ echo '.amdgcn_target "amdgcn-amd-amdhsa--gfx950"'; cat k950.s; } > k950t.s
printf '\002\261\002\176' > prng.bin          # v_prng_b32_e32 v1, v2 (gfx950)

# ---- --mcpu in every spelling, every tool ---------------------------------------------------
for m in "--mcpu gfx950" "--mcpu=gfx950" "-mcpu=gfx950" "-mcpu gfx950"; do
    # shellcheck disable=SC2086
    expect 0 "^v_prng_b32_e32 v1, v2$" "$gcndis" --raw $m --llvm-text prng.bin
    # shellcheck disable=SC2086
    expect 0 "k950 on gfx950" "$gcnsim" $m k950.s
    # shellcheck disable=SC2086
    expect 0 "" "$gcnlint" $m k950.s
    # shellcheck disable=SC2086
    expect 0 "^kernarg vector_add gfx950 " "$gcnrun" $m --no-device --print-kernarg \
        --manifest "$srcdir/kernels/vector_add/vector_add.json"
done
expect 0 "^\.long 0x7e02b102" "$gcndis" --raw --mcpu gfx942 --llvm-text prng.bin
expect 1 "unsupported -mcpu 'gfx1100'" "$gcndis" --raw -mcpu=gfx1100 prng.bin
expect 1 "-mcpu needs a value" "$gcnsim" k950.s -mcpu
expect 1 "unsupported -mcpu=gfx90a" "$gcnlint" -mcpu=gfx90a k950.s
expect 1 "--mcpu needs a value" "$gcnlint" k950.s --mcpu
expect 1 "-mcpu needs a value" "$gcnrun" --no-device -mcpu
# gcnlint's other valued options take the space form too
expect 4 '"check": "pending-read"|\[pending-read\]|error' "$gcnlint" --format json --kernel vector_add_weak_loop \
    --mcpu gfx942 "$srcdir/kernels/vector_add/vector_add_weak_loop.s"
grep -q '"tool": "gcnlint"' out && ok "gcnlint --format json (space form)" || bad "gcnlint --format json"

# ---- the target from the input -------------------------------------------------------------
expect 0 "k950 on gfx950" "$gcnsim" k950t.s
expect 0 "" "$gcnlint" k950t.s
expect 2 "k950t.s: the source is for gfx950 \(.amdgcn_target\), not gfx942" "$gcnsim" --mcpu gfx942 k950t.s
expect 2 "k950t.s: the source is for gfx950 \(.amdgcn_target\), not --mcpu=gfx942" "$gcnlint" --mcpu=gfx942 k950t.s
expect 2 "assembly source needs a target: --mcpu, \"targets\" in the manifest, or an .amdgcn_target" "$gcnsim" k950.s
expect 2 "instruction not supported on this GPU" "$gcnlint" k950.s     # default gfx942 without the line
{ echo '.amdgcn_target "amdgcn-amd-amdhsa--gfx950:xnack-"'; cat k950.s; } > k950x.s
expect 0 "k950 on gfx950" "$gcnsim" k950x.s
expect 0 "" "$gcnlint" k950x.s
{ echo '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"'; cat k950.s; } > k1100.s
expect 2 "gfx1100 is not simulated" "$gcnsim" k1100.s
expect 2 "gfx1100: unsupported target" "$gcnlint" k1100.s
{ echo '.amdgcn_target "gfx950"'; cat k950.s; } > kbad.s
expect 2 "kbad.s:1: malformed .amdgcn_target" "$gcnsim" kbad.s
# a manifest for two targets takes a gfx950 object without --mcpu; one for gfx942 refuses it
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx950 k950.s -o k950.hsaco || bad "assembling k950.s"
printf '{"code": "k950.hsaco", "targets": ["gfx942", "gfx950"], "grid": 1, "block": 64}\n' > two.json
printf '{"code": "k950.hsaco", "targets": ["gfx942"], "grid": 1, "block": 64}\n' > one.json
printf '{"code": "k950t.s", "targets": ["gfx942", "gfx950"], "grid": 1, "block": 64}\n' > twos.json
expect 0 "k950 on gfx950" "$gcnsim" --manifest two.json
expect 0 "k950 on gfx950" "$gcnsim" --manifest twos.json
expect 0 "k950 on gfx950" "$gcnsim" --manifest two.json --mcpu gfx950
expect 2 "the code object is for gfx950, not gfx942" "$gcnsim" --manifest two.json --mcpu gfx942
expect 2 "k950.hsaco: the code object is for gfx950, not gfx942" "$gcnsim" --manifest one.json
expect 2 "target gfx950 is not among the manifest's targets" "$gcnsim" --manifest one.json --mcpu gfx950
# a two-target manifest on source that states none is assembled for its first target
expect 0 "vector_add on gfx942" "$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add.json"

# ---- locations: gcc-style, with the kernel name ------------------------------------------------
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 \
    "$srcdir/kernels/vector_add/vector_add_weak_loop.s" -o wl.hsaco || bad "assembling vector_add_weak_loop.s"
args="--grid 2 --block 256 --buffer A:4000 --buffer B:4000 --buffer C:4000 --arg buffer:A --arg buffer:B --arg buffer:C --arg u32:1000 --arg u32:512"
# shellcheck disable=SC2086
expect 4 "^wl.hsaco:0: error: vector_add_weak_loop\+0x120: lds-dma-read-before-retire at pc 0x1720: ds_read_b32 v5, v3 offset:3072$" \
    "$gcnsim" wl.hsaco $args
cp out bin.txt
cp "$srcdir/kernels/vector_add/vector_add_weak_loop.s" wl.s
# shellcheck disable=SC2086
expect 4 "^wl.s:111: error: vector_add_weak_loop\+0x120: lds-dma-read-before-retire at pc 0x1720: " \
    "$gcnsim" --mcpu gfx942 wl.s $args
cp out src.txt
expect 4 "^.*kernels/vector_add/vector_add_weak_loop.s:111: error: vector_add_weak_loop\+0x120: " \
    "$gcnsim" --manifest "$srcdir/kernels/vector_add/vector_add_weak_loop.json"
# a fault is located too
# shellcheck disable=SC2086
expect 3 "^wl.hsaco:0: error: vector_add_weak_loop\+0x[0-9a-f]+: kernel fault at pc 0x[0-9a-f]+: memory fault" \
    "$gcnsim" wl.hsaco $(echo $args | sed 's/A:4000/A:40/')
cp out fault.txt
# VS Code's $gcc problem matcher (its regexp, as docs/gcnlint.md quotes it) reads each first line
if command -v "$py" >/dev/null 2>&1; then
    $py - bin.txt src.txt fault.txt <<'EOF' && ok "\$gcc reads file, line, severity and message" || bad "\$gcc regex"
import re, sys
gcc = re.compile(r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$")
want = [("wl.hsaco", "0", "vector_add_weak_loop+0x120: lds-dma"), ("wl.s", "111", "vector_add_weak_loop+0x120: lds-dma"),
        ("wl.hsaco", "0", "vector_add_weak_loop+0x")]
for path, (f, l, msg) in zip(sys.argv[1:], want):
    m = next((gcc.match(x) for x in open(path) if gcc.match(x)), None)
    if not m or m.group(1) != f or m.group(2) != l or m.group(4) != "error" or not m.group(5).startswith(msg):
        print(path, m and m.groups()); sys.exit(1)
EOF
fi
# vim's default errorformat, where vim is installed
if command -v vim >/dev/null 2>&1; then
    for f in bin src; do
        vim -Es -u NONE -N -c "cgetfile $f.txt" -c 'let q = getqflist()' \
            -c 'call writefile([bufname(q[0].bufnr) . ":" . q[0].lnum . ":" . q[0].valid], "qf.txt")' -c 'qa!' </dev/null
        case $f in bin) w="wl.hsaco:0:1" ;; src) w="wl.s:111:1" ;; esac
        [ "$(cat qf.txt 2>/dev/null)" = "$w" ] && ok "vim's errorformat reads the $f location ($w)" ||
            bad "vim read $(cat qf.txt 2>/dev/null), not $w"
    done
else
    echo "skip: no vim (its errorformat is not checked)"
fi

echo "$fails failure(s)"
[ $fails -eq 0 ]

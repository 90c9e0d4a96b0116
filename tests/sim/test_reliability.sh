#!/bin/sh
# test_reliability.sh -- the input and output contracts of docs/reliability.md, end to end on
# gcnsim, gcnlint, gcndis and gcnrun (tests/device/gcnrun_nohip, sim backend): size limits
# refused at once, directories and empty files named as such, numeric options checked, exit 2
# when standard output cannot be written, buffer names that cannot leave the dump directory,
# special files and symbolic links never replaced, output modes that follow the umask, dumps
# that appear whole or not at all, no temporary file left by SIGTERM, an endless loop stopped
# at once.  Each check failed before the change that made it pass (issue 16).
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
gcnlint=${GCNLINT:-$builddir/gcnlint}
gcndis=${GCNDIS:-$builddir/gcndis}
gcnrun=${GCNRUN:-$builddir/tests/device/gcnrun_nohip}
for b in "$gcnsim" "$gcnlint" "$gcndis"; do
    [ -x "$b" ] || { echo "$b not built: skipped"; exit 77; }
done
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
T=$(mktemp -d /tmp/gcn-rel-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok   $*"; }

# expect RC PATTERN CMD... -- exit code and a pattern in stdout+stderr
expect() {
    want=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || { [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; }; then
        fail "$* -> exit $rc (want $want), output lacks '$pat':"
        printf '%s\n' "$out" | sed 's/^/    /' | head -8
    else
        ok "exit $rc: $*"
    fi
}
# alive PID -- the process exists and is no zombie (an orphan may wait to be reaped)
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null)
    [ -n "$st" ] && [ "${st#Z}" = "$st" ]
}
# within SECONDS CMD... -- the command ends within SECONDS (else it is killed)
within() {
    secs=$1
    shift
    timeout -s KILL "$secs" "$@" >/dev/null 2>&1
    [ $? != 137 ] || fail "$* did not end within $secs s"
}

# kernel NAME MAXWG <<body  -- $T/NAME.s: args A, B (buffers), n (u32)
kernel() {
    {
        echo ".amdhsa_code_object_version 5"
        echo ".text"
        echo ".globl $1"
        echo ".p2align 8"
        echo ".type $1,@function"
        echo "$1:"
        cat
        echo ".rodata"
        echo ".p2align 6"
        echo ".amdhsa_kernel $1"
        echo "  .amdhsa_kernarg_size 24"
        echo "  .amdhsa_user_sgpr_kernarg_segment_ptr 1"
        echo "  .amdhsa_next_free_vgpr 8"
        echo "  .amdhsa_next_free_sgpr 32"
        echo "  .amdhsa_accum_offset 8"
        echo ".end_amdhsa_kernel"
        echo ".amdgpu_metadata"
        echo "---"
        echo "amdhsa.version: [1, 2]"
        echo "amdhsa.kernels:"
        echo "  - .name: $1"
        echo "    .symbol: $1.kd"
        echo "    .kernarg_segment_size: 24"
        echo "    .kernarg_segment_align: 8"
        echo "    .group_segment_fixed_size: 0"
        echo "    .private_segment_fixed_size: 0"
        echo "    .wavefront_size: 64"
        echo "    .sgpr_count: 32"
        echo "    .vgpr_count: 8"
        echo "    .max_flat_workgroup_size: $2"
        echo "    .args:"
        echo "      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}"
        echo "      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}"
        echo "      - {.name: n, .size: 4, .offset: 16, .value_kind: by_value}"
        echo "..."
        echo ".end_amdgpu_metadata"
    } > "$T/$1.s"
}
# manifest NAME [BLOCK] [GRID] [BUFFERS]  -- $T/NAME.json
manifest() {
    bufs=${4:-'"A": {"size": 256, "init": {"random": "u32", "seed": 7}}, "B": {"size": 256}'}
    cat > "$T/$1.json" <<EOF
{"code": "$1.s", "kernel": "$1", "targets": ["gfx942"], "grid": [${3:-1}], "block": [${2:-64}],
 "buffers": {$bufs},
 "args": [{"buffer": "A"}, {"buffer": "B"}, {"u32": 64}]}
EOF
}

# B[i] = A[i] + 1 over the first 64 dwords; `spin` lanes loop S_ITERS times first
kernel copy 1024 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32 v2, 1, v2
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
manifest copy
kernel small 256 <<'EOF'
    s_endpgm
EOF
manifest small 512
kernel selfloop 64 <<'EOF'
.Lself:
    s_cbranch_scc0 .Lself
    s_endpgm
EOF
manifest selfloop
kernel slow 64 <<'EOF'
    s_mov_b32 s8, 0
.Lloop:
    s_add_u32 s8, s8, 1
    s_cmp_lt_u32 s8, 1000000000
    s_cbranch_scc1 .Lloop
    s_endpgm
EOF
manifest slow 64 1 '"A": {"size": 256}, "B": {"size": 256}'
# a finding, for gcnlint's text output
kernel nowait 64 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    v_add_u32 v2, 1, v2
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
expect 0 "0 findings" "$gcnsim" --manifest "$T/copy.json"

echo "# ---- arithmetic without undefined behaviour (UBSan in tests/sim/test_sanitized.sh)"
# V_MUL_I32_I24: (-(2^23-1))^2 = 0x3fffff000001, low 32 bits; V_MUL_LO_U16: 65535^2 = 0xfffe0001
kernel mulov 64 <<'EOF'
    s_load_dwordx2 s[6:7], s[0:1], 0x8
    v_mov_b32 v1, 0x800001
    v_mul_i32_i24 v2, v1, v1
    v_mov_b32 v4, 0xffff
    v_mul_lo_u16 v3, v4, v4
    v_mov_b32 v5, 0
    s_waitcnt lgkmcnt(0)
    global_store_dword v5, v2, s[6:7]
    global_store_dword v5, v3, s[6:7] offset:4
    s_endpgm
EOF
manifest mulov
expect 0 "0 findings" "$gcnsim" --manifest "$T/mulov.json" --dump-dir "$T/mulov.d"
od -An -tx4 -N8 "$T/mulov.d/B.bin" | grep -q "ff000001 00000001" ||
    fail "v_mul_i32_i24 / v_mul_lo_u16: $(od -An -tx4 -N8 "$T/mulov.d/B.bin")"

# the other multiplies whose 16- or 24-bit operands overflow int in C
kernel mulov2 64 <<'EOF2'
    s_load_dwordx2 s[6:7], s[0:1], 0x8
    v_mov_b32 v1, 0x800001
    v_mad_i32_i24 v2, v1, v1, 1
    v_mov_b32 v4, 0xffff
    v_mov_b32 v5, 2
    v_mad_u16 v3, v4, v4, v5
    v_mad_legacy_u16 v6, v4, v4, v5
    v_mov_b32 v5, 0
    s_waitcnt lgkmcnt(0)
    global_store_dword v5, v2, s[6:7]
    global_store_short v5, v3, s[6:7] offset:4
    global_store_short v5, v6, s[6:7] offset:6
    v_mov_b32 v1, -1
    v_mov_b32 v4, 0x20002
    v_pk_mul_lo_u16 v2, v1, v1
    v_pk_mad_u16 v3, v1, v1, v4
    v_pk_mad_i16 v6, v1, v1, v4
    global_store_dword v5, v2, s[6:7] offset:8
    global_store_dword v5, v3, s[6:7] offset:12
    global_store_dword v5, v6, s[6:7] offset:16
    s_endpgm
EOF2
manifest mulov2
expect 0 "0 findings" "$gcnsim" --manifest "$T/mulov2.json" --dump-dir "$T/mulov2.d"
od -An -tx4 -N20 -w20 "$T/mulov2.d/B.bin" | grep -q "ff000002 00030003 00010001 00030003 00030003" ||
    fail "v_mad_i32_i24 / v_mad_u16 / v_mad_legacy_u16 / v_pk_*_u16: $(od -An -tx4 -N20 "$T/mulov2.d/B.bin")"

echo "# ---- size limits, directories, empty files"
truncate -s 10G "$T/huge.hsaco"
expect 2 "more than the 2 GiB limit" "$gcnsim" "$T/huge.hsaco" --mcpu gfx942
within 10 "$gcnsim" "$T/huge.hsaco" --mcpu gfx942
{ echo "; an assembly source with 65 MiB of nothing after it"; } > "$T/huge.s"
truncate -s 65M "$T/huge.s"
expect 2 "more than the 64 MiB limit for assembly source" "$gcnsim" "$T/huge.s" --mcpu gfx942
expect 2 "more than the 64 MiB limit for assembly source" "$gcnlint" "$T/huge.s"
truncate -s 10G "$T/huge.s"
within 10 "$gcnlint" "$T/huge.s"
within 10 "$gcnsim" "$T/huge.s" --mcpu gfx942
mkdir "$T/dir.s"
expect 2 "dir.s: is a directory" "$gcnsim" "$T/dir.s" --mcpu gfx942
expect 2 "dir.s: is a directory" "$gcnlint" "$T/dir.s"
: > "$T/empty.s"
expect 2 "empty.s: is empty" "$gcnsim" "$T/empty.s" --mcpu gfx942
expect 2 "empty.s: is empty" "$gcnlint" "$T/empty.s"
echo "// no kernel here" > "$T/nokernel.s"
expect 2 "has no kernel, so nothing was checked" "$gcnlint" "$T/nokernel.s"
expect 2 "is a directory" "$gcnsim" --manifest "$T"
truncate -s 17M "$T/huge.json"
expect 2 "more than the 16 MiB limit for a manifest" "$gcnsim" --manifest "$T/huge.json"
manifest filedir 64 1 '"A": {"size": 256, "init": {"file": "."}}, "B": {"size": 256}'
sed -i 's/"filedir.s"/"copy.s"/; s/"kernel": "filedir"/"kernel": "copy"/' "$T/filedir.json"
expect 2 "buffer A: .*is a directory" "$gcnsim" --manifest "$T/filedir.json"

echo "# ---- dispatch sizes"
expect 2 "grid\[0\] = 2147483648 is out of range (1 .. 2147483647)" \
    "$gcnsim" "$T/copy.s" --mcpu gfx942 --grid 2147483648 --buffer A:256 --buffer B:256 \
    --arg buffer:A --arg buffer:B --arg u32:64
expect 0 "block 1024x1x1" "$gcnsim" "$T/copy.s" --mcpu gfx942 --block 1024 --buffer A:256 \
    --buffer B:256 --arg buffer:A --arg buffer:B --arg u32:64
expect 2 "larger than kernel small's maximum flat workgroup size, 256" \
    "$gcnsim" --manifest "$T/small.json"

echo "# ---- numeric options"
for o in "--max-insns -1" "--max-insns 0" "--max-insns 1x" "--quantum -1" "--max-findings abc" \
         "--max-findings -3" "--wave=-1,0" "--wave=0,-1" "--wave=0,16" "--wave=1" "--grid=-4" \
         "--block 64,+2" "-j 0" "-j 1025" "-j +2" "--jobs 2x"; do
    # shellcheck disable=SC2086
    expect 1 "expected" "$gcnsim" $o "$T/copy.s" --mcpu gfx942
done
expect 1 "the dispatch has 1 workgroup of 1 wave" "$gcnsim" --manifest "$T/copy.json" \
    --trace=fifo --wave=3,0
expect 1 "fill=abc: expected a byte value" "$gcnsim" "$T/copy.s" --buffer A:16:fill=abc
expect 1 "seed x: expected an integer" "$gcnsim" "$T/copy.s" --buffer A:16:random=u32,x
expect 1 "not a finite number" "$gcnsim" "$T/copy.s" --arg f32:nan
expect 1 "bad -j" "$gcnlint" -j -1 "$T/copy.s"
expect 1 "bad --max-states" "$gcnlint" --max-states=+5 "$T/copy.s"
expect 1 "number of threads" "$gcndis" -j +2 "$T/copy.s"
if [ -x "$gcnrun" ]; then
    expect 1 "expected seconds" "$gcnrun" --timeout +5 --manifest "$T/copy.json"
    expect 1 "expected a device ordinal" "$gcnrun" --device +0 --manifest "$T/copy.json"
fi

echo "# ---- standard output that cannot be written: exit 2"
if [ -w /dev/full ]; then
    expect 2 "cannot write standard output" sh -c '"$1" "$2" >/dev/full' - "$gcnlint" "$T/nowait.s"
    expect 2 "cannot write standard output" sh -c '"$1" --format=sarif "$2" >/dev/full' - \
        "$gcnlint" "$T/copy.s"
    expect 2 "cannot write standard output" sh -c '"$1" --format=json "$2" >/dev/full' - \
        "$gcnlint" "$T/copy.s"
    expect 2 "cannot write standard output" sh -c '"$1" --manifest "$2" --trace=fifo >/dev/full' - \
        "$gcnsim" "$T/copy.json"
    expect 2 "cannot write standard output" sh -c '"$1" --list-hazards >/dev/full' - "$gcnsim"
    expect 2 "cannot write standard output" sh -c '"$1" --list-checks >/dev/full' - "$gcnlint"
else
    echo "(no writable /dev/full: skipped)"
fi

echo "# ---- endless loop stopped at once"
start=$(date +%s)
expect 3 "endless loop: the branch jumps to itself" "$gcnsim" --manifest "$T/selfloop.json"
[ $(($(date +%s) - start)) -le 10 ] || fail "the endless loop took more than 10 s to stop"

echo "# ---- buffer names"
for n in "../escape" "" ".hidden" "a/b" 'a\tb'; do
    manifest badname 64 1 "\"$n\": {\"size\": 16}, \"A\": {\"size\": 256}, \"B\": {\"size\": 256}"
    sed -i 's/"badname.s"/"copy.s"/; s/"kernel": "badname"/"kernel": "copy"/' "$T/badname.json"
    mkdir -p "$T/nd"
    expect 2 "cannot name a dump file" "$gcnsim" --manifest "$T/badname.json" --dump-dir "$T/nd/d"
done
[ ! -e "$T/nd/escape.bin" ] && [ ! -e "$T/nd/escape.in.bin" ] || fail "a buffer named ../escape wrote outside the dump directory"
expect 2 "cannot name a dump file" "$gcnsim" "$T/copy.s" --mcpu gfx942 --buffer ../x:16 --dump-dir "$T/nd/d"

echo "# ---- special files and symbolic links are not replaced"
mkfifo "$T/fifo"
ln -s "$T/target.svg" "$T/link.svg"
expect 2 "fifo: is a FIFO; not replaced" "$gcnsim" --manifest "$T/copy.json" --plot "$T/fifo"
expect 2 "link.svg: is a symbolic link; not replaced" "$gcnsim" --manifest "$T/copy.json" --plot "$T/link.svg"
expect 2 "fifo: is a FIFO; not replaced" "$gcnsim" --manifest "$T/copy.json" --trace-json "$T/fifo"
[ -p "$T/fifo" ] || fail "the FIFO was replaced"
[ -L "$T/link.svg" ] && [ ! -e "$T/target.svg" ] || fail "the symbolic link was replaced or followed"
co=$T/copy.hsaco
"${CLANG22:-clang-22}" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 "$T/copy.s" -o "$co"
expect 2 "fifo: is a FIFO; not replaced" "$gcndis" -o "$T/fifo" "$co"
expect 2 "link.svg: is a symbolic link; not replaced" "$gcndis" -o "$T/link.svg" "$co"
[ -p "$T/fifo" ] && [ -L "$T/link.svg" ] || fail "gcndis -o replaced a FIFO or a symbolic link"
expect 2 "fifo: is a FIFO, not a directory" "$gcnsim" --manifest "$T/copy.json" --dump-dir "$T/fifo"
(umask 027 && "$gcndis" -o "$T/dis.txt" "$co") || fail "gcndis -o"
[ "$(stat -c %a "$T/dis.txt")" = 640 ] || fail "gcndis -o file mode $(stat -c %a "$T/dis.txt"), not 640 (umask 027)"
(umask 022 && "$gcnsim" -q --manifest "$T/copy.json" --plot "$T/p.svg" --dump-dir "$T/modes") ||
    fail "gcnsim --plot --dump-dir"
[ "$(stat -c %a "$T/p.svg")" = 644 ] && [ "$(stat -c %a "$T/modes/B.bin")" = 644 ] &&
    [ "$(stat -c %a "$T/modes")" = 755 ] || fail "output modes do not follow the umask"
ls "$T" | grep -q 'tmp' && fail "temporaries left: $(ls "$T" | grep tmp)"

echo "# ---- dump directories: whole or not at all"
mkdir "$T/user"
echo "keep me" > "$T/user/notes.txt"
expect 2 "holds 'notes.txt', which is not part of a dump" \
    "$gcnsim" --manifest "$T/copy.json" --dump-dir "$T/user"
[ "$(cat "$T/user/notes.txt")" = "keep me" ] || fail "a file in the dump directory was touched"
echo x > "$T/user2.bin" && mkdir "$T/user2" && mv "$T/user2.bin" "$T/user2/photo.bin"
expect 2 "is not a dump" "$gcnsim" --manifest "$T/copy.json" --dump-dir "$T/user2"
expect 0 "" "$gcnsim" -q --manifest "$T/copy.json" --dump-dir "$T/d" --dump-inputs
for f in A.in.bin B.in.bin A.bin B.bin run.json; do
    [ -f "$T/d/$f" ] || fail "dump $f missing"
done
mkdir "$T/real" && ln -s real "$T/dlink"
expect 0 "" "$gcnsim" -q --manifest "$T/copy.json" --dump-dir "$T/dlink/"
[ -L "$T/dlink" ] && [ -f "$T/real/run.json" ] || fail "a symbolic link to the dump directory was not followed"
# an earlier dump is replaced whole: a buffer of an earlier manifest does not survive
echo stale > "$T/d/OLD.bin"
expect 0 "" "$gcnsim" -q --manifest "$T/copy.json" --dump-dir "$T/d"
[ ! -e "$T/d/OLD.bin" ] && [ -f "$T/d/run.json" ] || fail "the earlier dump was not replaced whole"
sum0=$(cat "$T/d"/* | cksum)
# SIGTERM during the run: the earlier dump stays whole, no temporary is left
"$gcnsim" -q --manifest "$T/slow.json" --dump-dir "$T/d" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid 2>/dev/null
rc=$?
[ $rc = 143 ] || fail "gcnsim killed by SIGTERM exited $rc, not 143"
[ "$(cat "$T/d"/* | cksum)" = "$sum0" ] || fail "SIGTERM left the dump directory changed"
ls -a "$T" | grep -q 'tmp' && fail "SIGTERM left temporaries: $(ls -a "$T" | grep tmp)"
# SIGKILL: the earlier dump stays whole (only a temporary beside it may remain)
"$gcnsim" -q --manifest "$T/slow.json" --dump-dir "$T/d" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
[ "$(cat "$T/d"/* | cksum)" = "$sum0" ] || fail "SIGKILL left the dump directory changed"
rm -rf "$T"/d.tmp-*
# a fault: DIR holds this run's inputs only
manifest fault 64 1 '"A": {"size": 16}, "B": {"size": 256}'
sed -i 's/"fault.s"/"copy.s"/; s/"kernel": "fault"/"kernel": "copy"/' "$T/fault.json"
expect 3 "memory fault" "$gcnsim" -q --manifest "$T/fault.json" --dump-dir "$T/d" --dump-inputs
[ -f "$T/d/A.in.bin" ] && [ -f "$T/d/B.in.bin" ] && [ ! -e "$T/d/B.bin" ] && [ ! -e "$T/d/run.json" ] ||
    fail "after a fault the dump is not the inputs alone: $(ls "$T/d")"
# without --dump-inputs a fault leaves an empty dump (the earlier one is gone whole)
expect 3 "memory fault" "$gcnsim" -q --manifest "$T/fault.json" --dump-dir "$T/d"
[ -d "$T/d" ] && [ -z "$(ls -A "$T/d")" ] || fail "after a fault without --dump-inputs the dump is not empty: $(ls "$T/d")"
# bad input after the dump directory was checked: DIR is left as it was
expect 0 "" "$gcnsim" -q --manifest "$T/copy.json" --dump-dir "$T/d"
sum0=$(cat "$T/d"/* | cksum)
sed 's/{"u32": 64}/{"u64": 64}/' "$T/copy.json" > "$T/badarg.json"
expect 2 "is 4 bytes, the manifest gives a u64" "$gcnsim" --manifest "$T/badarg.json" --dump-dir "$T/d"
[ "$(cat "$T/d"/* | cksum)" = "$sum0" ] || fail "a failed run changed the dump directory"
ls -a "$T" | grep -q 'tmp' && fail "temporaries left: $(ls -a "$T" | grep tmp)"

echo "# ---- temporaries and children on SIGTERM (assembler that hangs)"
cat > "$T/slowclang" <<EOF
#!/bin/sh
echo \$\$ > "$T/clang.pid"
exec sleep 30
EOF
chmod +x "$T/slowclang"
before=$(ls -d /tmp/gcnlint.* 2>/dev/null | wc -l)
GCNLINT_CLANG=$T/slowclang "$gcnlint" "$T/copy.s" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid 2>/dev/null
[ $? = 143 ] || fail "gcnlint killed by SIGTERM did not end by it"
sleep 0.3
after=$(ls -d /tmp/gcnlint.* 2>/dev/null | wc -l)
[ "$after" -le "$before" ] || fail "gcnlint left /tmp/gcnlint.* behind"
alive "$(cat "$T/clang.pid")" && { fail "gcnlint left its assembler running"; kill "$(cat "$T/clang.pid")"; }
rm -f "$T/clang.pid"
mkdir "$T/tmpdir"
TMPDIR=$T/tmpdir GCN_CLANG=$T/slowclang "$gcnsim" --manifest "$T/copy.json" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid 2>/dev/null
sleep 0.3
[ -z "$(ls "$T/tmpdir")" ] || fail "gcnsim left $(ls "$T/tmpdir") in TMPDIR"
alive "$(cat "$T/clang.pid")" && { fail "gcnsim left its assembler running"; kill "$(cat "$T/clang.pid")"; }

echo "# ---- gcnrun"
if [ -x "$gcnrun" ]; then
    out=$("$gcnrun" --manifest "$T/nonexistent.json" 2>&1)
    rc=$?
    if [ $rc = 2 ] && ! printf '%s' "$out" | grep -q " on  ("; then
        ok "gcnrun: bad input, exit 2, no summary"
    else
        fail "gcnrun on a missing manifest: exit $rc, output: $out"
    fi
    expect 2 "holds 'notes.txt', which is not part of a dump" \
        "$gcnrun" --backend sim --manifest "$T/copy.json" --dump-dir "$T/user"
    expect 0 "sim backend" "$gcnrun" --backend sim --manifest "$T/copy.json" --dump-dir "$T/rd"
    [ -f "$T/rd/run.json" ] && [ -f "$T/rd/B.bin" ] || fail "gcnrun dump incomplete"
    expect 3 "memory fault" "$gcnrun" --backend sim --manifest "$T/fault.json" --dump-dir "$T/rd"
    [ -f "$T/rd/A.in.bin" ] && [ ! -e "$T/rd/run.json" ] || fail "gcnrun: after a fault the dump is not the inputs alone"
else
    echo "($gcnrun not built: gcnrun checks skipped)"
fi

echo "$fails failures"
[ "$fails" = 0 ]

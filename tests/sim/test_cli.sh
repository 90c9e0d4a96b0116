#!/bin/sh
# test_cli.sh -- gcnsim end to end: exit codes (0 clean, 1 usage, 2 bad input, 3 kernel fault,
# 4 findings), the message of each finding kind and fault, dumps (written atomically, none after
# a fault), bad manifests, --set, kernarg layout, the trace outputs.  Small kernels are generated
# here from a template.  Skipped (77) until gcnsim can decode scalar instructions.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
T=$(mktemp -d /tmp/gcnsim-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# kernel NAME LDS VGPRS <<body    -- writes $T/NAME.s with args (A,B: buffers; n: u32)
kernel() {
    name=$1 lds=$2 vgprs=$3
    {
        echo ".amdhsa_code_object_version 5"
        echo ".text"
        echo ".globl $name"
        echo ".p2align 8"
        echo ".type $name,@function"
        echo "$name:"
        cat
        echo ".rodata"
        echo ".p2align 6"
        echo ".amdhsa_kernel $name"
        echo "  .amdhsa_group_segment_fixed_size $lds"
        echo "  .amdhsa_kernarg_size 24"
        echo "  .amdhsa_user_sgpr_kernarg_segment_ptr 1"
        echo "  .amdhsa_system_sgpr_workgroup_id_x 1"
        echo "  .amdhsa_next_free_vgpr $vgprs"
        echo "  .amdhsa_next_free_sgpr 32"
        echo "  .amdhsa_accum_offset $vgprs"
        echo "  .amdhsa_float_denorm_mode_32 3"
        echo ".end_amdhsa_kernel"
        echo ".amdgpu_metadata"
        echo "---"
        echo "amdhsa.version: [1, 2]"
        echo "amdhsa.kernels:"
        echo "  - .name: $name"
        echo "    .symbol: $name.kd"
        echo "    .kernarg_segment_size: 24"
        echo "    .kernarg_segment_align: 8"
        echo "    .group_segment_fixed_size: $lds"
        echo "    .private_segment_fixed_size: 0"
        echo "    .wavefront_size: 64"
        echo "    .sgpr_count: 32"
        echo "    .vgpr_count: $vgprs"
        echo "    .max_flat_workgroup_size: 1024"
        echo "    .args:"
        echo "      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}"
        echo "      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}"
        echo "      - {.name: n, .size: 4, .offset: 16, .value_kind: by_value}"
        echo "..."
        echo ".end_amdgpu_metadata"
    } > "$T/$name.s"
}

# manifest NAME [block] [grid] [extra]  -- writes $T/NAME.json
manifest() {
    name=$1 block=${2:-64} grid=${3:-1}
    cat > "$T/$name.json" <<EOF
{
  "code": "$name.s", "kernel": "$name", "targets": ["gfx942", "gfx950"],
  "params": {"N": 64},
  "grid": [$grid], "block": [$block],
  "buffers": {"A": {"size": "N*4", "init": {"random": "u32", "seed": 7}},
              "B": {"size": "N*4", "init": "zero"}},
  "args": [{"buffer": "A"}, {"buffer": "B"}, {"u32": "N"}],
  "outputs": ["B"]
}
EOF
}

# expect RC PATTERN CMD... -- run, check the exit code and that stderr+stdout matches PATTERN
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

# ---- probe: can gcnsim run a scalar program at all?
kernel probe 0 4 <<'EOF'
    s_endpgm
EOF
manifest probe
if ! "$gcnsim" -q --manifest "$T/probe.json" >/dev/null 2>&1; then
    echo "gcnsim cannot run scalar instructions yet: skipped"
    "$gcnsim" -q --manifest "$T/probe.json" 2>&1 | head -3
    exit 77
fi

# ---- clean run with dumps: B[i] = A[i] + 1
kernel copy 0 4 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32 v2, 1, v2
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
manifest copy
expect 0 "0 findings" "$gcnsim" --manifest "$T/copy.json" --dump-dir "$T/d"
# the outputs ("outputs": ["B"]) and run.json only, unless --dump-inputs
for f in B.bin run.json; do
    [ -f "$T/d/$f" ] || { echo "FAIL: dump $f missing"; fails=$((fails + 1)); }
done
for f in A.in.bin B.in.bin A.bin; do
    [ -e "$T/d/$f" ] && { echo "FAIL: dump has $f without --dump-inputs (not an output)"; fails=$((fails + 1)); }
done
expect 0 "0 findings" "$gcnsim" --manifest "$T/copy.json" --dump-dir "$T/d" --dump-inputs
for f in A.in.bin B.in.bin B.bin run.json; do
    [ -f "$T/d/$f" ] || { echo "FAIL: dump $f missing"; fails=$((fails + 1)); }
done
[ -e "$T/d/A.bin" ] && { echo "FAIL: dump has A.bin (not an output)"; fails=$((fails + 1)); }
python3 - "$T/d" <<'EOF' || fails=$((fails + 1))
import json, struct, sys
d = sys.argv[1]
a = struct.unpack("<64I", open(d + "/A.in.bin", "rb").read())
b = struct.unpack("<64I", open(d + "/B.bin", "rb").read())
bad = [i for i in range(64) if b[i] != (a[i] + 1) & 0xffffffff]
r = json.load(open(d + "/run.json"))
if bad or r["params"]["N"] != 64 or r["target"] != "gfx942":
    print("FAIL: dump contents", bad[:4], r)
    sys.exit(1)
print("ok   dumps: B = A + 1, run.json resolved")
EOF
expect 0 "gfx950" "$gcnsim" --manifest "$T/copy.json" --mcpu gfx950
# the same dispatch from options (no manifest)
expect 0 "0 findings" "$gcnsim" "$T/copy.s" --mcpu gfx942 --block 64 --buffer A:256:random=u32,7 \
    --buffer B:256 --arg buffer:A --arg buffer:B --arg u32:64
# --set changes the size: fewer elements in A makes the kernel fault past the end
expect 3 "memory fault: lane 32 accesses 4 bytes" "$gcnsim" --manifest "$T/copy.json" --set N=32 --dump-dir "$T/d"
[ -f "$T/d/B.bin" ] && { echo "FAIL: B.bin written after a fault"; fails=$((fails + 1)); }
[ -f "$T/d/run.json" ] && { echo "FAIL: run.json written after a fault"; fails=$((fails + 1)); }

# ---- kernarg preloading: the hardware starts 256 bytes after the entry, past the
# compatibility prologue (which here leaves a marker in s10 that must not show)
kernel preload 0 4 <<'EOF'
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_load_dwordx2 s[4:5], s[0:1], 0x8
    s_mov_b32 s10, 1
    s_waitcnt lgkmcnt(0)
    s_branch .Lstart
.p2align 8
.Lstart:
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v2, s10
    global_store_dword v1, v2, s[4:5]
    s_endpgm
EOF
sed -i 's/  .amdhsa_user_sgpr_kernarg_segment_ptr 1/  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_user_sgpr_kernarg_preload_length 4\n  .amdhsa_user_sgpr_count 6/' "$T/preload.s"
manifest preload
for t in gfx942 gfx950; do
    expect 0 "0 findings" "$gcnsim" --manifest "$T/preload.json" --mcpu $t --dump-dir "$T/dp"
    python3 -c "import sys; b=open(sys.argv[1],'rb').read(); sys.exit(any(b))" "$T/dp/B.bin" &&
        echo "ok   preload $t: the prologue was skipped" ||
        { echo "FAIL: preload $t: the prologue ran (B holds its marker)"; fails=$((fails + 1)); }
done

# ---- findings
kernel nowait 0 4 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    v_add_u32 v2, 1, v2
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
manifest nowait
expect 4 "read-before-retire.*v_add_u32" "$gcnsim" --manifest "$T/nowait.json"
expect 4 "add s_waitcnt vmcnt(0) before" "$gcnsim" --manifest "$T/nowait.json"
expect 4 "overwrite-before-retire" "$gcnsim" --manifest "$T/nowait.json"
expect 4 "producer: pc .*global_load_dword v2, v1, s\[4:5\]" "$gcnsim" --manifest "$T/nowait.json"
expect 4 "nowait.s:" "$gcnsim" --manifest "$T/nowait.json"
expect 4 "FINDING" "$gcnsim" --manifest "$T/nowait.json" --trace=fifo
expect 4 "finding" "$gcnsim" --manifest "$T/nowait.json" --strict

kernel smemooo 0 4 <<'EOF'
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_load_dword s6, s[0:1], 0x10
    s_waitcnt lgkmcnt(1)
    s_mov_b32 s8, s4
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest smemooo
expect 4 "smem-out-of-order.*s_mov_b32 s8, s4" "$gcnsim" --manifest "$T/smemooo.json"
expect 4 "only lgkmcnt(0) guarantees" "$gcnsim" --manifest "$T/smemooo.json"

kernel barrier 2048 4 <<'EOF'
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    s_barrier
    v_xor_b32 v2, 0x100, v1
    ds_read_b32 v3, v2
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest barrier 128
expect 4 "barrier-with-pending-lds-write" "$gcnsim" --manifest "$T/barrier.json"
kernel barrier_ok 2048 4 <<'EOF'
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_xor_b32 v2, 0x100, v1
    ds_read_b32 v3, v2
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest barrier_ok 128
expect 0 "0 findings" "$gcnsim" --manifest "$T/barrier_ok.json"

# (the racy reads' values are used: a race on a dead read is no finding, test_findings.sh)
kernel race 2048 4 <<'EOF'
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    v_xor_b32 v2, 0x100, v1
    ds_read_b32 v3, v2
    s_waitcnt lgkmcnt(0)
    v_add_u32 v2, v3, v3
    s_endpgm
EOF
manifest race 128
expect 4 "lds-cross-wave-race.*ds_read_b32 v3, v2" "$gcnsim" --manifest "$T/race.json"
expect 4 "producer: .*ds_write_b32 v1, v0" "$gcnsim" --manifest "$T/race.json" --quantum 1000 --no-group
expect 0 "0 findings" "$gcnsim" --manifest "$T/barrier_ok.json" --quantum 1000

kernel war 2048 4 <<'EOF'
    v_readfirstlane_b32 s4, v0
    s_cmp_eq_u32 s4, 0
    s_cbranch_scc0 .Lwriter
    v_lshlrev_b32 v1, 2, v0
    ds_read_b32 v2, v1 offset:256
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, v2
    s_endpgm
.Lwriter:
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest war 128
expect 4 "lds-cross-wave-race.*ds_write_b32 v1, v0" "$gcnsim" --manifest "$T/war.json"
expect 4 "that wave 0 read with no s_barrier" "$gcnsim" --manifest "$T/war.json" --quantum 1000

kernel ldsdma 1024 4 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_and_b32 s5, s5, 0xffff
    s_mov_b32 s6, 256
    s_mov_b32 s7, 0x20000
    s_mov_b32 m0, 0
    v_lshlrev_b32 v1, 2, v0
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    ds_read_b32 v2, v1
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm
EOF
manifest ldsdma
expect 4 "lds-dma-read-before-retire.*ds_read_b32 v2, v1" "$gcnsim" --manifest "$T/ldsdma.json"

# ---- faults
kernel endless 0 4 <<'EOF'
.Lloop:
    s_add_u32 s8, s8, 1
    s_branch .Lloop
    s_endpgm
EOF
manifest endless
expect 3 "instruction budget exceeded" "$gcnsim" --manifest "$T/endless.json" --max-insns 10000
# the budget of a workgroup of four waves taking one-instruction turns (the run loop counts
# the rounds the budget holds, then tests it before each instruction): with N allowed, the
# workgroup's instruction N (from 0) faults, wave N % 4's instruction N / 4; hazard checks on
# and off (the two plain loops)
kernel budget4 0 4 <<'EOF'
    s_add_u32 s8, s8, 1
    s_add_u32 s9, s9, 2
    s_add_u32 s10, s10, 3
    s_add_u32 s11, s11, 4
    s_add_u32 s12, s12, 5
    s_endpgm
EOF
manifest budget4 256
for n in 1 3 4 6 11 17 19; do
    r=$((8 + n / 4))
    for hz in report off; do
        expect 3 "at pc .*: s_add_u32 s$r, s$r, $((r - 7))\$" "$gcnsim" --manifest "$T/budget4.json" \
            --max-insns $n --hazard-effect=$hz
        expect 3 "wave $((n % 4)) of workgroup" "$gcnsim" --manifest "$T/budget4.json" \
            --max-insns $n --hazard-effect=$hz
    done
done
expect 0 "4 waves, 24 wave-instructions" "$gcnsim" --manifest "$T/budget4.json" --max-insns 24
# the same on two threads, four workgroups (the budget is per workgroup; the first one's
# fault is the run's; each thread's rounds come in calls of at most 64)
manifest budget4x4 256 4
sed 's/"budget4x4.s"/"budget4.s"/; s/"kernel": "budget4x4"/"kernel": "budget4"/' \
    "$T/budget4x4.json" > "$T/budget4x4.tmp" && mv "$T/budget4x4.tmp" "$T/budget4x4.json"
for n in 5 18; do
    r=$((8 + n / 4))
    expect 3 "at pc .*: s_add_u32 s$r, s$r, $((r - 7))\$" "$gcnsim" --manifest "$T/budget4x4.json" \
        --max-insns $n -j 2
    expect 3 "wave $((n % 4)) of workgroup (0,0,0)" "$gcnsim" --manifest "$T/budget4x4.json" \
        --max-insns $n -j 2
done
expect 0 "16 waves, 96 wave-instructions" "$gcnsim" --manifest "$T/budget4x4.json" -j 2 \
    --max-insns 24
# turns of three instructions (the budget tested once for a turn it holds), and a lone wave
# (its turn cut to what the budget holds): N allowed, wave (N / 3) % 4's instruction
# 3 * (N / 12) + N % 3 faults; the lone wave's instruction N
for n in 2 3 7 13 16; do
    i=$((3 * (n / 12) + n % 3)) r=$((8 + n))
    expect 3 "at pc .*: s_add_u32 s$((8 + i)), s$((8 + i)), $((i + 1))\$" "$gcnsim" \
        --manifest "$T/budget4.json" --max-insns $n --quantum 3
    expect 3 "wave $((n / 3 % 4)) of workgroup" "$gcnsim" --manifest "$T/budget4.json" \
        --max-insns $n --quantum 3
done
manifest budget1 64
sed 's/"budget1.s"/"budget4.s"/; s/"kernel": "budget1"/"kernel": "budget4"/' \
    "$T/budget1.json" > "$T/budget1.tmp" && mv "$T/budget1.tmp" "$T/budget1.json"
for n in 1 2 4; do
    expect 3 "at pc .*: s_add_u32 s$((8 + n)), s$((8 + n)), $((n + 1))\$" "$gcnsim" \
        --manifest "$T/budget1.json" --max-insns $n
done
expect 0 "1 waves, 6 wave-instructions" "$gcnsim" --manifest "$T/budget1.json" --max-insns 6
expect 3 "budget exceeded: 23 wave" "$gcnsim" --manifest "$T/budget4.json" --max-insns 23
kernel unsim 0 4 <<'EOF'
    v_screen_partition_4se_b32 v0, v0
    s_endpgm
EOF
manifest unsim
expect 3 "v_screen_partition_4se_b32 is not simulated" "$gcnsim" --manifest "$T/unsim.json"
kernel vgpr 0 4 <<'EOF'
    v_mov_b32 v9, 0
    s_endpgm
EOF
manifest vgpr
expect 3 "v9 is beyond the kernel's VGPRs (8 allocated" "$gcnsim" --manifest "$T/vgpr.json"

# ---- bad input and usage
echo '{"code": "copy.s", "kernel": "copy", "grid": [1], "block": [64], "bogus": 1}' > "$T/bad1.json"
expect 2 'unknown key "bogus"' "$gcnsim" --manifest "$T/bad1.json"
echo '{"code": "copy.s", "grid": [1], ' > "$T/bad2.json"
expect 2 "bad2.json:.*invalid JSON" "$gcnsim" --manifest "$T/bad2.json"
echo '{"code": "nonexistent.s", "grid": [1], "block": [64]}' > "$T/bad3.json"
expect 2 "nonexistent.s" "$gcnsim" --manifest "$T/bad3.json" --mcpu gfx942
echo '{"code": "copy.s", "kernel": "copy", "grid": [1], "block": [64], "args": [{"u32": 1}]}' > "$T/bad4.json"
expect 2 "explicit arguments, the manifest gives 1" "$gcnsim" --manifest "$T/bad4.json" --mcpu gfx942
echo '{"code": "copy.s", "kernel": "nokernel", "grid": [1], "block": [64]}' > "$T/bad5.json"
expect 2 "no kernel named nokernel" "$gcnsim" --manifest "$T/bad5.json" --mcpu gfx942
echo '{"code": "copy.s", "params": {"N": 4}, "grid": ["N/0"], "block": [64]}' > "$T/bad6.json"
expect 2 "division by zero" "$gcnsim" --manifest "$T/bad6.json"
expect 2 'has no param "M"' "$gcnsim" --manifest "$T/copy.json" --set M=3
sed 's/"block": \[64\]/"block": [2048]/' "$T/copy.json" > "$T/bad7.json"
expect 2 "larger than 1024" "$gcnsim" --manifest "$T/bad7.json"
printf 'not assembly\n' > "$T/junk.s"
expect 2 "assembling for gfx942" "$gcnsim" "$T/junk.s" --mcpu gfx942
expect 1 "usage" "$gcnsim"
expect 1 "usage" "$gcnsim" --bogus-option
expect 1 "trace=fifo" "$gcnsim" --trace=other "$T/copy.s"
expect 1 "quantum" "$gcnsim" --quantum 0 "$T/copy.s"

# ---- observability outputs
expect 0 "vmcnt=1" "$gcnsim" --manifest "$T/copy.json" --trace=fifo --trace-json "$T/t.json" --plot "$T/p.svg"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['traceEvents']) > 10" "$T/t.json" \
    && echo "ok   trace json parses" || { echo "FAIL: trace json"; fails=$((fails + 1)); }
grep -q "</svg>" "$T/p.svg" && grep -q "s_waitcnt" "$T/p.svg" && echo "ok   plot written" \
    || { echo "FAIL: plot"; fails=$((fails + 1)); }

echo "$fails failures"
[ "$fails" = 0 ]

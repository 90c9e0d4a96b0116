#!/bin/sh
# test_findings.sh -- what gcnsim reports, on small kernels generated here (tests/sim/test_cli.sh
# covers the exit codes and each finding's message):
#   atomics   LDS atomics of several waves on the same bytes are no race (every ds_* atomic
#             form, ds_append, the exchanges), in both wave orders; an atomic against another
#             wave's plain write or plain read in the same barrier epoch is one; global atomics
#             of many waves and workgroups count right and are no finding;
#   barrier   barrier-with-pending-lds-write only for a read after the reader's own s_barrier
#             of bytes the writer left pending at its s_barrier (a read or atomic before the
#             reader's barrier is not ordered by it at all), the fix placed before that barrier;
#   advice    the proposed wait in cases that used to be too weak (a load overwriting a
#             register of a load of another stream, counted after it was issued; an operand
#             two loads write; a FLAT load of LDS needs lgkmcnt too) or too strict (an LDS
#             read with SMEM in flight), checked by inserting it; never a no-op count with the
#             FIFOs full;
#   grouping  one rule broken at many pcs is one finding with a count and the pcs, in text,
#             --json and run.json; --no-group keeps every site;
#   dead-reads  a cross-wave race on an LDS read counts only when the reading wave uses the
#             value (racyreg.c): used -> reported; overwritten before any use, or never used ->
#             not; one register of a pair overwritten and the other used (also through the
#             pair as a store's data) -> reported; a partial (SDWA) overwrite ends nothing;
#             overwritten in some lanes and used in the others -> reported, used only in the
#             overwritten lanes -> not; both wave orders (the read before or after the write);
#   wait-effect  a missing s_waitcnt: by default the consumer reads the old value (and an
#             overwritten register is clobbered when the load lands); --wait-effect=retire
#             reports the same findings and retires the loads as the proposed wait would, so the
#             consumer reads the loaded value and the overwrite stands.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
T=$(mktemp -d /tmp/gcnsim-find-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# kernel NAME LDS VGPRS <<body  -- $T/NAME.s; args A, B (buffers), n (u32); s2 = workgroup id
kernel() {
    name=$1 lds=$2 vgprs=$3
    {
        printf '.amdhsa_code_object_version 5\n.text\n.globl %s\n.p2align 8\n' "$name"
        printf '.type %s,@function\n%s:\n' "$name" "$name"
        cat
        printf '.rodata\n.p2align 6\n.amdhsa_kernel %s\n' "$name"
        printf '  .amdhsa_group_segment_fixed_size %s\n  .amdhsa_kernarg_size 24\n' "$lds"
        printf '  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_system_sgpr_workgroup_id_x 1\n'
        printf '  .amdhsa_next_free_vgpr %s\n  .amdhsa_next_free_sgpr 32\n' "$vgprs"
        printf '  .amdhsa_accum_offset %s\n.end_amdhsa_kernel\n' "$vgprs"
        printf '.amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels:\n'
        printf '  - .name: %s\n    .symbol: %s.kd\n    .kernarg_segment_size: 24\n' "$name" "$name"
        printf '    .kernarg_segment_align: 8\n    .group_segment_fixed_size: %s\n' "$lds"
        printf '    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n    .sgpr_count: 32\n'
        printf '    .vgpr_count: %s\n    .max_flat_workgroup_size: 1024\n    .args:\n' "$vgprs"
        printf '      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}\n'
        printf '      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}\n'
        printf '      - {.name: n, .size: 4, .offset: 16, .value_kind: by_value}\n...\n.end_amdgpu_metadata\n'
    } > "$T/$name.s"
}

# manifest NAME [block] [grid] [A bytes]  -- $T/NAME.json
manifest() {
    cat > "$T/$1.json" <<EOF
{"code": "$1.s", "kernel": "$1", "targets": ["gfx942", "gfx950"], "params": {"N": ${4:-4096}},
 "grid": [${3:-1}], "block": [${2:-64}],
 "buffers": {"A": {"size": "N", "init": {"random": "u32", "seed": 3}}, "B": {"size": "N", "init": "zero"}},
 "args": [{"buffer": "A"}, {"buffer": "B"}, {"u32": "N"}], "outputs": ["B"]}
EOF
}

# expect RC PATTERN CMD...  -- exit code and a line of stdout+stderr matching PATTERN
expect() {
    want=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! printf '%s' "$out" | grep -q -- "$pat"; then
        echo "FAIL: $* -> exit $rc (want $want), output lacks '$pat':"
        printf '%s\n' "$out" | sed 's/^/    /' | head -24
        fails=$((fails + 1))
    else
        echo "ok   exit $rc: $*"
    fi
}
# lacks PATTERN CMD...  -- the output has no line matching PATTERN
lacks() {
    pat=$1
    shift
    out=$("$@" 2>&1)
    if printf '%s' "$out" | grep -q -- "$pat"; then
        echo "FAIL: $* reports '$pat':"
        printf '%s\n' "$out" | sed 's/^/    /' | head -24
        fails=$((fails + 1))
    else
        echo "ok   no '$pat': $*"
    fi
}
# both orders of the waves: instruction-level round robin, and each wave to its barrier/end
run2() {
    want=$1 pat=$2 m=$3
    shift 3
    expect "$want" "$pat" "$gcnsim" --manifest "$T/$m.json" "$@"
    expect "$want" "$pat" "$gcnsim" --manifest "$T/$m.json" --quantum 1000 "$@"
}

# ====================================================================== atomics
# Two waves apply every kind of LDS atomic to the same four dwords in one barrier epoch, then
# wave-wide results are checked after a barrier: no finding.
kernel atomics_ok 256 8 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_and_b32 v1, 3, v0
    v_lshlrev_b32 v1, 2, v1                  // dword (lane & 3)
    v_mov_b32 v2, 1
    v_mov_b32 v3, 0
    s_mov_b32 m0, 64                         // ds_append's counter at LDS 64
    ds_add_u32 v1, v2
    ds_add_rtn_u32 v4, v1, v2 offset:16
    ds_inc_u32 v1, v2 offset:32
    ds_max_rtn_u32 v5, v1, v0 offset:48
    ds_or_b32 v1, v0 offset:16
    ds_cmpst_rtn_b32 v6, v1, v3, v2 offset:32
    ds_wrxchg_rtn_b32 v7, v1, v0 offset:48
    ds_sub_u32 v1, v2
    ds_append v4
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v4, v1
    v_lshlrev_b32 v5, 2, v0
    s_waitcnt lgkmcnt(0)
    global_store_dword v5, v4, s[6:7]
    s_endpgm
EOF
manifest atomics_ok 128
run2 0 "0 findings" atomics_ok
# global atomics: 4 workgroups x 2 waves add 1 to B[lane & 3]: each counter ends at 128
kernel gatomic_ok 0 4 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_and_b32 v1, 3, v0
    v_lshlrev_b32 v1, 2, v1
    v_mov_b32 v2, 1
    s_waitcnt lgkmcnt(0)
    global_atomic_add v1, v2, s[6:7]
    global_atomic_add_f32 v1, v2, s[6:7] offset:16
    s_endpgm
EOF
manifest gatomic_ok 128 4 64
expect 0 "0 findings" "$gcnsim" --manifest "$T/gatomic_ok.json" --dump-dir "$T/ga"
"$py" -c "
import struct, sys
b = struct.unpack('<4I', open(sys.argv[1], 'rb').read()[:16])
sys.exit(0 if b == (128, 128, 128, 128) else 1)" "$T/ga/B.bin" && echo "ok   global atomics counted" ||
    { echo "FAIL: global atomic counts"; fails=$((fails + 1)); }

# an atomic against another wave's plain write / plain read of the same dword, same epoch
kernel atomic_vs_write 256 8 <<'EOF'
    v_readfirstlane_b32 s8, v0
    v_mov_b32 v1, 0
    v_mov_b32 v2, 1
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc0 .Lother
    ds_write_b32 v1, v2                      // wave 0: plain write of dword 0
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lother:
    ds_add_u32 v1, v2                        // wave 1: atomic add to dword 0
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest atomic_vs_write 128
run2 4 "lds-cross-wave-race" atomic_vs_write
expect 4 "this atomic touches LDS byte 0x0 that wave 0 wrote with a plain" "$gcnsim" \
    --manifest "$T/atomic_vs_write.json" --quantum 1000
# (the plain read's value is used: a race on a read counts only then, dead-reads below)
use_v3() {
    awk '{ print } /ds_read_b32 v3, v1/ { print "    s_waitcnt lgkmcnt(0)"; print "    v_mov_b32 v4, v3" }' "$1"
}
sed -e 's/ds_write_b32 v1, v2 /ds_read_b32 v3, v1  /' "$T/atomic_vs_write.s" > "$T/atomic_vs_read_dead.s"
sed -i 's/atomic_vs_write/atomic_vs_read_dead/g' "$T/atomic_vs_read_dead.s"
use_v3 "$T/atomic_vs_read_dead.s" | sed 's/atomic_vs_read_dead/atomic_vs_read/g' > "$T/atomic_vs_read.s"
manifest atomic_vs_read 128
run2 4 "lds-cross-wave-race" atomic_vs_read
expect 4 "this atomic touches LDS byte 0x0 that wave 0 read with a plain" "$gcnsim" \
    --manifest "$T/atomic_vs_read.json" --quantum 1000
manifest atomic_vs_read_dead 128
run2 0 "0 findings" atomic_vs_read_dead
# roles swapped (wave 0 adds, wave 1 reads), wave 0 first: the plain read meets the atomic
sed -e 's/s_cbranch_scc0 .Lother/s_cbranch_scc1 .Lother/' -e 's/atomic_vs_read/read_vs_atomic/g' \
    "$T/atomic_vs_read.s" > "$T/read_vs_atomic.s"
manifest read_vs_atomic 128
expect 4 "reads LDS byte 0x0 that wave 0 changes with an atomic" "$gcnsim" \
    --manifest "$T/read_vs_atomic.json" --quantum 1000
# the same pairs of atomics only: no finding
sed -e 's/ds_write_b32 v1, v2 /ds_max_u32 v1, v2  /' -e 's/atomic_vs_write/atomic_vs_atomic/g' \
    "$T/atomic_vs_write.s" > "$T/atomic_vs_atomic.s"
manifest atomic_vs_atomic 128
run2 0 "0 findings" atomic_vs_atomic

# ====================================================================== barrier
# Wave 1 adds to dword 0 and reaches s_barrier at once without waiting; wave 0 first spins,
# then adds to the same dword before its own barrier.  Atomics of two waves: no finding (the
# old check called wave 1's add a barrier-with-pending-lds-write, though no barrier lies
# between the two adds).
kernel bar_early 256 8 <<'EOF'
    v_readfirstlane_b32 s8, v0
    v_mov_b32 v1, 0
    v_mov_b32 v2, 1
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc0 .Lfast
    s_mov_b32 s9, 20
.Lspin:
    s_sub_u32 s9, s9, 1
    s_cmp_lg_u32 s9, 0
    s_cbranch_scc1 .Lspin
    ds_add_u32 v1, v2                        // wave 0, before its barrier
    s_barrier
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lfast:
    ds_add_u32 v1, v2                        // wave 1: pending at its barrier
    s_barrier
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest bar_early 128
run2 0 "0 findings" bar_early
# the same with a plain write in wave 1 and a plain read in wave 0 before its barrier: a
# cross-wave race (no barrier orders them), and no barrier-with-pending-lds-write
sed -e 's/ds_add_u32 v1, v2                        \/\/ wave 0/ds_read_b32 v3, v1                       \/\/ wave 0/' \
    -e 's/ds_add_u32 v1, v2                        \/\/ wave 1/ds_write_b32 v1, v2                      \/\/ wave 1/' \
    -e 's/bar_early/bar_early_rd/g' "$T/bar_early.s" > "$T/bar_early_rd.s"
use_v3 "$T/bar_early_rd.s" > "$T/bar_early_rd.tmp" && mv "$T/bar_early_rd.tmp" "$T/bar_early_rd.s"
manifest bar_early_rd 128
expect 4 "lds-cross-wave-race at .*ds_read_b32 v3, v1" "$gcnsim" --manifest "$T/bar_early_rd.json"
lacks "barrier-with-pending-lds-write" "$gcnsim" --manifest "$T/bar_early_rd.json"
lacks "barrier-with-pending-lds-write" "$gcnsim" --manifest "$T/bar_early_rd.json" --quantum 1000
# the true case: wave 1's add is pending at its barrier and wave 0 reads the dword after its
# own barrier; the fix goes before wave 1's s_barrier
kernel bar_late_read 256 8 <<'EOF'
    v_readfirstlane_b32 s8, v0
    v_mov_b32 v1, 0
    v_mov_b32 v2, 1
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc0 .Lwriter
    s_barrier
    ds_read_b32 v3, v1                       // wave 0, after the barrier
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lwriter:
    ds_add_u32 v1, v2 offset:4
    ds_add_u32 v1, v2                        // wave 1: two adds pending at its barrier
    ds_read_b32 v4, v1 offset:8
    s_barrier
    s_waitcnt lgkmcnt(0)
    s_endpgm
EOF
manifest bar_late_read 128
run2 4 "barrier-with-pending-lds-write at .*ds_read_b32 v3, v1" bar_late_read
expect 4 "that wave needs s_waitcnt lgkmcnt(1) before s_barrier" "$gcnsim" --manifest "$T/bar_late_read.json"
expect 4 "fix: s_waitcnt lgkmcnt(1) before pc .*bar_late_read.s:.*s_barrier" "$gcnsim" \
    --manifest "$T/bar_late_read.json"
awk '/ds_read_b32 v4, v1 offset:8/ { print; print "    s_waitcnt lgkmcnt(1)"; next } { print }' \
    "$T/bar_late_read.s" > "$T/bar_fixed.s"
sed -i 's/bar_late_read/bar_fixed/g' "$T/bar_fixed.s"
manifest bar_fixed 128
run2 0 "0 findings" bar_fixed
sed -e 's/s_waitcnt lgkmcnt(1)$/s_waitcnt lgkmcnt(2)/' -e 's/bar_fixed/bar_weaker/g' "$T/bar_fixed.s" > "$T/bar_weaker.s"
manifest bar_weaker 128
run2 4 "barrier-with-pending-lds-write" bar_weaker

# ====================================================================== advice
# fixed KERNEL WAIT PATTERN: insert WAIT before the first line matching PATTERN, the run is
# clean; one counter weaker, it is not
fixed() {
    k=$1 wait=$2 pat=$3 weak=$4
    awk -v w="    $wait" -v p="$pat" '!d && index($0, p) { print w; d = 1 } { print }' "$T/$k.s" |
        sed "s/$k/${k}_fix/g" > "$T/${k}_fix.s"
    sed "s/$k/${k}_fix/g" "$T/$k.json" > "$T/${k}_fix.json"
    expect 0 "0 findings" "$gcnsim" --manifest "$T/${k}_fix.json"
    awk -v w="    $weak" -v p="$pat" '!d && index($0, p) { print w; d = 1 } { print }' "$T/$k.s" |
        sed "s/$k/${k}_weak/g" > "$T/${k}_weak.s"
    sed "s/$k/${k}_weak/g" "$T/$k.json" > "$T/${k}_weak.json"
    expect 4 "finding" "$gcnsim" --manifest "$T/${k}_weak.json"
}
# a global load overwrites v2 while a FLAT load of v2 (another stream) is pending; the wait
# goes before the global load, where two loads follow the FLAT one: vmcnt(2) (counting the
# new load too gave vmcnt(3), which does not retire the FLAT load)
kernel adv_flat 0 12 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v8, v1
    v_mov_b32 v9, 0
    s_waitcnt lgkmcnt(0)
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[8:9]
    flat_load_dword v2, v[4:5]
    global_load_dword v3, v1, s[4:5]
    global_load_dword v6, v1, s[4:5] offset:256
    global_load_dword v2, v1, s[4:5] offset:512
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_add_u32 v2, v2, v3
    v_add_u32 v2, v2, v6
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
manifest adv_flat 64 1 1024
expect 4 "overwrite-before-retire.*global_load_dword v2, v1, s\[4:5\] offset:512" "$gcnsim" --manifest "$T/adv_flat.json"
expect 4 "add s_waitcnt vmcnt(2) before" "$gcnsim" --manifest "$T/adv_flat.json"
fixed adv_flat "s_waitcnt vmcnt(2)" "global_load_dword v2, v1, s[4:5] offset:512" "s_waitcnt vmcnt(3)"
# v[2:3] is written by two loads; the operand needs the younger one: vmcnt(1), not vmcnt(2)
kernel adv_pair 0 8 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v3, 0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[4:5]
    global_load_dword v3, v1, s[4:5] offset:256
    global_load_dword v6, v1, s[4:5] offset:512
    v_and_b32 v2, 0xfc, v2
    global_store_dword v1, v2, s[6:7]
    s_waitcnt vmcnt(0)
    s_endpgm
EOF
sed -i 's/    v_and_b32 v2, 0xfc, v2/    v_add_u32 v7, v2, v3\n    v_mov_b32 v7, 0\n    v_lshl_add_u64 v[4:5], v[2:3], 0, 0/' "$T/adv_pair.s"
manifest adv_pair 64 1 1024
expect 4 "read-before-retire.*v_lshl_add_u64 v\[4:5\], v\[2:3\], 0, 0" "$gcnsim" --manifest "$T/adv_pair.json" --no-group
fixed adv_pair "s_waitcnt vmcnt(1)" "v_add_u32 v7, v2, v3" "s_waitcnt vmcnt(2)"
# a FLAT load of LDS counts in vmcnt and lgkmcnt: its result needs both
kernel adv_flat_lds 256 8 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_mov_b64 s[8:9], src_shared_base
    v_mov_b32 v5, s9
    s_waitcnt lgkmcnt(0)
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v4, v1
    flat_load_dword v2, v[4:5]
    global_load_dword v3, v1, s[4:5]
    v_add_u32 v2, v2, 1
    s_waitcnt vmcnt(0) lgkmcnt(0)
    global_store_dword v1, v2, s[6:7]
    s_endpgm
EOF
manifest adv_flat_lds 64 1 256
expect 4 "add s_waitcnt vmcnt(1) lgkmcnt(0) before this instruction" "$gcnsim" --manifest "$T/adv_flat_lds.json"
fixed adv_flat_lds "s_waitcnt vmcnt(1) lgkmcnt(0)" "v_add_u32 v2, v2, 1" "s_waitcnt vmcnt(2) lgkmcnt(0)"
awk -v p="v_add_u32 v2, v2, 1" '!d && index($0, p) { print "    s_waitcnt vmcnt(1)"; d = 1 } { print }' \
    "$T/adv_flat_lds.s" | sed 's/adv_flat_lds/adv_flat_lds_vm/g' > "$T/adv_flat_lds_vm.s"
manifest adv_flat_lds_vm 64 1 256
expect 4 "read-before-retire" "$gcnsim" --manifest "$T/adv_flat_lds_vm.json"
# lgkmcnt with an SMEM load among LDS reads: the LDS reads return in order, so the first of
# them is retired by lgkmcnt(2) (the two LDS reads after it), whatever the SMEM load does
kernel adv_lgkm 512 8 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    ds_read_b32 v2, v1
    ds_read_b32 v3, v1 offset:4
    s_load_dword s8, s[0:1], 0x10
    ds_read_b32 v4, v1 offset:8
    v_add_u32 v5, v2, v2
    s_waitcnt lgkmcnt(0)
    global_store_dword v1, v5, s[6:7]
    s_endpgm
EOF
manifest adv_lgkm 64 1 256
expect 4 "reads v2 before .*add s_waitcnt lgkmcnt(2) before this instruction" "$gcnsim" --manifest "$T/adv_lgkm.json"
fixed adv_lgkm "s_waitcnt lgkmcnt(2)" "v_add_u32 v5, v2, v2" "s_waitcnt lgkmcnt(3)"
# lgkmcnt(1) after [ds_read v2, ds_read v3, s_load]: v2 is done (v3's read returns after it),
# v3 is not (the s_load may have returned first): smem-out-of-order on v3 only
sed -e 's/    ds_read_b32 v4, v1 offset:8/    s_waitcnt lgkmcnt(1)/' -e 's/adv_lgkm/adv_lgkm1/g' "$T/adv_lgkm.s" > "$T/adv_lgkm1.s"
manifest adv_lgkm1 64 1 256
expect 0 "0 findings" "$gcnsim" --manifest "$T/adv_lgkm1.json"
sed -e 's/v_add_u32 v5, v2, v2/v_add_u32 v5, v3, v3/' -e 's/adv_lgkm1/adv_lgkm2/g' "$T/adv_lgkm1.s" > "$T/adv_lgkm2.s"
manifest adv_lgkm2 64 1 256
expect 4 "smem-out-of-order.*v_add_u32_e32 v5, v3, v3" "$gcnsim" --manifest "$T/adv_lgkm2.json"
# full FIFOs: 70 loads in flight (the counter stalls issue at 63) and 20 LDS reads (at 15);
# reading the first still pending needs vmcnt(62) / lgkmcnt(14), never the no-op 63 / 15
{
    echo "    s_load_dwordx4 s[4:7], s[0:1], 0x0"
    echo "    v_lshlrev_b32 v1, 2, v0"
    echo "    s_waitcnt lgkmcnt(0)"
    i=0; while [ $i -lt 70 ]; do echo "    global_load_dword v$((10 + i)), v1, s[4:5]"; i=$((i + 1)); done
    echo "    v_add_u32 v2, v17, v18"
    echo "    s_waitcnt vmcnt(0)"
    i=0; while [ $i -lt 20 ]; do echo "    ds_read_b32 v$((100 + i)), v1"; i=$((i + 1)); done
    echo "    v_add_u32 v2, v105, v106"
    echo "    s_waitcnt lgkmcnt(0)"
    echo "    s_endpgm"
} | kernel adv_full 256 128
manifest adv_full 64 1 256
expect 4 "reads v17 before .*add s_waitcnt vmcnt(62) before" "$gcnsim" --manifest "$T/adv_full.json"
expect 4 "reads v105 before .*add s_waitcnt lgkmcnt(14) before" "$gcnsim" --manifest "$T/adv_full.json" --no-group
lacks "vmcnt(63)\|lgkmcnt(15)" "$gcnsim" --manifest "$T/adv_full.json" --no-group

# ====================================================================== grouping
# one hazard rule (a VALU write of a VGPR read by DPP two instructions later needs 2 wait
# states) broken at 5 pcs, and a read-before-retire at one
{
    echo "    v_mov_b32 v1, v0"
    i=0; while [ $i -lt 5 ]; do
        echo "    v_add_u32 v1, 1, v1"
        echo "    v_mov_b32_dpp v$((2 + i)), v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
        i=$((i + 1))
    done
    echo "    s_load_dword s4, s[0:1], 0x10"
    echo "    s_mov_b32 s5, s4"
    echo "    s_waitcnt lgkmcnt(0)"
    echo "    s_endpgm"
} | kernel grp 0 8
manifest grp 128
expect 4 "the same hazard .* at 5 pcs, 10 occurrences in all" "$gcnsim" --manifest "$T/grp.json"
expect 4 ", 2 findings$" "$gcnsim" --manifest "$T/grp.json"
expect 4 ", 6 findings$" "$gcnsim" --manifest "$T/grp.json" --no-group
"$gcnsim" --manifest "$T/grp.json" > "$T/grp.txt" 2>&1
n=$(grep -cE "^[^ ]+:[0-9]+: error: ([^ ]+: )?hazard at pc" "$T/grp.txt")
[ "$n" = 1 ] && echo "ok   grouped: one hazard finding" || { echo "FAIL: $n hazard findings grouped"; fails=$((fails + 1)); }
"$gcnsim" --manifest "$T/grp.json" --no-group > "$T/grp1.txt" 2>&1
n=$(grep -cE "^[^ ]+:[0-9]+: error: ([^ ]+: )?hazard at pc" "$T/grp1.txt")
[ "$n" = 5 ] && echo "ok   --no-group: five hazard findings" || { echo "FAIL: $n hazard findings with --no-group"; fails=$((fails + 1)); }
"$gcnsim" --manifest "$T/grp.json" --json "$T/g.json" --dump-dir "$T/gd" >/dev/null 2>&1
"$gcnsim" --manifest "$T/grp.json" --json "$T/g1.json" --no-group >/dev/null 2>&1
"$py" - "$T/g.json" "$T/g1.json" "$T/gd/run.json" <<'EOF' || fails=$((fails + 1))
import json, sys
g, g1, rj = (json.load(open(p)) for p in sys.argv[1:])
hz = [f for f in g["findings"] if f["kind"] == "hazard"]
ok = (g["grouped"] and not g1["grouped"] and len(g["findings"]) == 2 and len(hz) == 1
      and hz[0]["npcs"] == 5 and len(hz[0]["pcs"]) == 5 and len(hz[0]["sites"]) == 5
      and hz[0]["count"] == 10 and hz[0]["pc"] == hz[0]["pcs"][0] and hz[0]["rule"]
      and len(g1["findings"]) == 6 and rj["findings"] == g["findings"]
      and all(f["fix"] is None for f in hz)
      and any(f["fix"] and f["fix"]["wait"] == "s_waitcnt lgkmcnt(0)" for f in g["findings"]))
print(("ok   " if ok else "FAIL: ") + "JSON findings grouped (%d), not grouped (%d), run.json"
      % (len(g["findings"]), len(g1["findings"])))
sys.exit(0 if ok else 1)
EOF

# ====================================================================== dead-reads
# Two waves; wave 1 writes LDS dwords [0, 256) (one per lane), wave 0 reads the same bytes
# (READ into v[2:3] or v2) with no s_barrier between, then runs USE and stores v4.  Round
# robin (run2's first run) has the write first (the race found at the read), --quantum 1000
# the read first (found at the write).
dead_read() {
    kernel "$1" 2048 8 <<EOF
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                  // 4 * lane: the same bytes in both waves
    v_mov_b32 v5, 0
    v_mov_b32 v4, 0
    v_readfirstlane_b32 s8, v0
    s_lshr_b32 s8, s8, 6                     // wave
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc1 .Lreader
    ds_write_b32 v1, v0                      // wave 1
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lreader:
    s_nop 0                                  // (round robin: the write comes first)
    s_nop 0
    $2
    s_waitcnt lgkmcnt(0)
$3
    s_waitcnt lgkmcnt(0)
    global_store_dword v1, v4, s[6:7]
    s_endpgm
EOF
    manifest "$1" 128
}
R64='ds_read_b64 v[2:3], v1' R32='ds_read_b32 v2, v1'
# (a) used
dead_read dr_used "$R64" '    v_add_u32 v4, v2, 1'
run2 4 "lds-cross-wave-race" dr_used
# (b) overwritten before any use; never used at all
dead_read dr_over "$R64" '    v_mov_b32 v2, 7
    v_mov_b32 v3, 7
    v_add_u32 v4, v2, v3'
run2 0 "0 findings" dr_over
dead_read dr_never "$R64" '    v_mov_b32 v4, 1'
run2 0 "0 findings" dr_never
# a later DS read into the same registers ends the racy value too (LDS returns in order)
dead_read dr_reread "$R64" '    ds_read_b64 v[2:3], v1 offset:1024
    s_waitcnt lgkmcnt(0)
    v_add_u32 v4, v2, v3'
run2 0 "0 findings" dr_reread
# (c) one register of the pair overwritten, the other used: by a VALU, and through the pair
# (a store's data)
dead_read dr_half "$R64" '    v_mov_b32 v2, 7
    v_add_u32 v4, v3, 1'
run2 4 "lds-cross-wave-race" dr_half
dead_read dr_pair "$R64" '    v_mov_b32 v2, 7
    global_store_dwordx2 v1, v[2:3], s[6:7] offset:256'
run2 4 "lds-cross-wave-race" dr_pair
# a partial overwrite ends nothing: v2's high half (SDWA) keeps the racy bits
dead_read dr_sdwa "$R64" '    v_mov_b32_sdwa v2, v5 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
    v_mov_b32 v3, 0
    v_add_u32 v4, v2, v3'
run2 4 "lds-cross-wave-race" dr_sdwa
# per lane: overwritten in lanes 0-31, used in all lanes -> reported; used only in the
# overwritten lanes -> not
dead_read dr_lanes "$R32" '    s_mov_b64 exec, 0xffffffff
    v_mov_b32 v2, 7
    s_mov_b64 exec, -1
    v_add_u32 v4, v2, 1'
run2 4 "lds-cross-wave-race" dr_lanes
dead_read dr_lanes_dead "$R32" '    s_mov_b64 exec, 0xffffffff
    v_mov_b32 v2, 7
    v_add_u32 v4, v2, 1
    s_mov_b64 exec, -1'
run2 0 "0 findings" dr_lanes_dead
# a cross-lane read takes any lane: readlane of a lane the overwrite did not reach
dead_read dr_readlane "$R32" '    s_mov_b64 exec, 0xffffffff
    v_mov_b32 v2, 7
    v_readlane_b32 s9, v2, 40
    s_mov_b64 exec, -1
    v_mov_b32 v4, s9'
run2 4 "lds-cross-wave-race" dr_readlane
# a used read reports what gcnsim reported before the check knew uses: the race at the read
# (the write first) or at the write (the read first), once
expect 4 "first seen: workgroup (0,0,0) wave 0, lanes 0-63; 1 occurrence" \
    "$gcnsim" --manifest "$T/dr_used.json"
expect 4 "race at pc .*: ds_read_b64 v\[2:3\], v1" "$gcnsim" --manifest "$T/dr_used.json"
expect 4 "first seen: workgroup (0,0,0) wave 1, lanes 0-63; 1 occurrence" \
    "$gcnsim" --manifest "$T/dr_used.json" --quantum 1000
expect 4 "race at pc .*: ds_write_b32 v1, v0" "$gcnsim" --manifest "$T/dr_used.json" --quantum 1000
# --strict stops at the use (a dead read stops nothing)
expect 4 "lds-cross-wave-race" "$gcnsim" --manifest "$T/dr_used.json" --strict
expect 0 "0 findings" "$gcnsim" --manifest "$T/dr_over.json" --strict

# ====================================================================== wait-effect
# v1 = A[lane] is used with no wait (v3 = v1 + 0), v2 = A[lane] is overwritten with 7 before
# its load retired; B[lane] = {v2, v3}.  stale: B = {A, 0} (the old v1; the load lands over
# the 7); retire: B = {7, A}.  The findings are the same both ways.
kernel wait_eff 0 8 <<'EOF'
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v4, 2, v0
    v_mov_b32 v1, 0
    s_waitcnt lgkmcnt(0)
    global_load_dword v1, v4, s[4:5]
    global_load_dword v2, v4, s[4:5]
    v_add_u32 v3, v1, 0
    v_mov_b32 v2, 7
    v_lshlrev_b32 v5, 3, v0
    s_waitcnt vmcnt(0)
    global_store_dwordx2 v5, v[2:3], s[6:7]
    s_endpgm
EOF
manifest wait_eff 64 1 512
for we in stale retire; do
    expect 4 "read-before-retire" "$gcnsim" --manifest "$T/wait_eff.json" --wait-effect=$we \
        --dump-dir "$T/we_$we" --dump-inputs
    expect 4 "overwrite-before-retire" "$gcnsim" --manifest "$T/wait_eff.json" --wait-effect=$we
done
expect 1 "expected stale or retire" "$gcnsim" --manifest "$T/wait_eff.json" --wait-effect=late
"$py" - "$T" <<'EOF' || fails=$((fails + 1))
import struct, sys
t = sys.argv[1]
a = struct.unpack("<128I", open(t + "/we_stale/A.in.bin", "rb").read(512))[:64]
ok = True
for mode, want in (("stale", lambda l: (a[l], 0)), ("retire", lambda l: (7, a[l]))):
    b = struct.unpack("<128I", open("%s/we_%s/B.bin" % (t, mode), "rb").read(512))
    got = [(b[2 * l], b[2 * l + 1]) for l in range(64)]
    good = all(got[l] == want(l) for l in range(64))
    print(("ok   " if good else "FAIL: ") + "--wait-effect=%s: B[0] = %s, want %s" % (mode, got[0], want(0)))
    ok = ok and good
sys.exit(0 if ok else 1)
EOF

echo "$fails failures"
[ "$fails" = 0 ]


#!/usr/bin/env python3
"""bench_decode_gen.py -- write a large, varied gfx942/gfx950 assembly kernel
for bench_decode.sh: N instructions (default 120000) drawn deterministically
from a mix of SALU, SMEM, VALU (VOP1/VOP2/VOP3/VOPC, literals, DPP-free),
VOP3P and MFMA, DS, FLAT/GLOBAL, MUBUF, waits, nops and branches, so the
decoder and printer see every family, not one instruction 100,000 times.

Lines LLVM 22 rejects for gfx942 or gfx950 (operand rules the generator
does not model, e.g. the constant bus limit) are dropped by asking
llvm-mc-22, then the stream is refilled, until N valid instructions remain.

usage: bench_decode_gen.py [N] > big.s
"""
import os
import random
import re
import subprocess
import sys
import tempfile

N = int(sys.argv[1]) if len(sys.argv) > 1 else 120000
R = random.Random(942950)


def s(n=1, hi=100):
    if n == 1:
        return "s%d" % R.randrange(0, hi)
    b = R.randrange(0, hi - n + 1) // n * n
    return "s[%d:%d]" % (b, b + n - 1)


def v(n=1, hi=250):
    if n == 1:
        return "v%d" % R.randrange(0, hi)
    b = R.randrange(0, hi - n + 1) // 2 * 2          # gfx90a+: tuples 64-bit aligned
    return "v[%d:%d]" % (b, b + n - 1)


def a(n=1):
    b = R.randrange(0, 256 - n + 1) // n * n
    return "a%d" % b if n == 1 else "a[%d:%d]" % (b, b + n - 1)


def ssrc():
    return R.choice([s(), s(), str(R.randrange(-16, 65)), "0x%x" % R.randrange(1 << 20, 1 << 31),
                     "vcc_lo", "exec_lo", "m0", "1.0", "-0.5"])


def vsrc():
    return R.choice([v(), v(), v(), s(), str(R.randrange(0, 65)), "0.5", "0x%x" % R.randrange(1 << 16, 1 << 30)])


def gen(label_count, here=0):
    """One instruction; branches go to a label within +-8 labels of `here`
    (4000 instructions: inside the simm16 word range of s_branch)."""
    k = R.randrange(100)
    if k < 10:
        op = R.choice(["s_add_u32", "s_sub_u32", "s_and_b32", "s_or_b32", "s_xor_b32", "s_lshl_b32",
                       "s_lshr_b32", "s_ashr_i32", "s_mul_i32", "s_min_u32", "s_max_i32", "s_cselect_b32"])
        return "%s %s, %s, %s" % (op, s(), ssrc(), ssrc())
    if k < 14:
        op = R.choice(["s_mov_b32", "s_not_b32", "s_brev_b32", "s_ff1_i32_b32", "s_bcnt1_i32_b32"])
        return "%s %s, %s" % (op, s(), ssrc())
    if k < 16:
        op = R.choice(["s_and_b64", "s_or_b64", "s_andn2_b64", "s_cselect_b64"])
        return "%s %s, %s, %s" % (op, s(2), s(2), s(2))
    if k < 18:
        op = R.choice(["s_cmp_eq_u32", "s_cmp_lt_i32", "s_cmp_gt_u32", "s_bitcmp1_b32"])
        return "%s %s, %s" % (op, s(), ssrc())
    if k < 19:
        return "s_movk_i32 %s, 0x%x" % (s(), R.randrange(0, 0x8000))
    if k < 24:
        n = R.choice([1, 2, 4, 8])
        op = {1: "s_load_dword", 2: "s_load_dwordx2", 4: "s_load_dwordx4", 8: "s_load_dwordx8"}[n]
        return "%s %s, %s, 0x%x" % (op, s(n), s(2), R.randrange(0, 4096) * 4)
    if k < 27:
        return "s_waitcnt vmcnt(%d) lgkmcnt(%d)" % (R.randrange(0, 64), R.randrange(0, 16))
    if k < 28:
        return "s_nop %d" % R.randrange(0, 8)
    if k < 29:
        return R.choice(["s_barrier", "s_sleep 1", "s_setprio 2", "s_waitcnt lgkmcnt(0)"])
    if k < 30 and label_count:
        lab = min(max(here + R.randrange(-8, 9), 0), label_count - 1)
        return "%s .L%d" % (R.choice(["s_branch", "s_cbranch_scc0", "s_cbranch_vccnz", "s_cbranch_execz"]),
                            lab)
    if k < 42:
        op = R.choice(["v_add_f32", "v_sub_f32", "v_mul_f32", "v_max_f32", "v_min_f32", "v_add_u32",
                       "v_sub_u32", "v_and_b32", "v_or_b32", "v_xor_b32", "v_lshlrev_b32",
                       "v_lshrrev_b32", "v_mul_lo_u16", "v_add_f16", "v_mul_hi_u32_u24"])
        return "%s %s, %s, %s" % (op, v(), vsrc(), v())
    if k < 48:
        op = R.choice(["v_mov_b32", "v_cvt_f32_i32", "v_cvt_i32_f32", "v_rcp_f32", "v_sqrt_f32",
                       "v_exp_f32", "v_not_b32", "v_bfrev_b32", "v_cvt_f16_f32", "v_fract_f32"])
        return "%s %s, %s" % (op, v(), vsrc())
    if k < 55:
        op = R.choice(["v_fma_f32", "v_mad_u32_u24", "v_bfe_u32", "v_alignbit_b32", "v_lshl_add_u32",
                       "v_add3_u32", "v_med3_f32", "v_max3_f32", "v_xad_u32", "v_or3_b32"])
        return "%s %s, %s, %s, %s" % (op, v(), R.choice([v(), s()]), v(), R.choice([v(), s(), "1.0"]))
    if k < 57:
        return "v_cndmask_b32 %s, %s, %s, vcc" % (v(), vsrc(), v())
    if k < 60:
        op = R.choice(["v_cmp_gt_f32", "v_cmp_eq_u32", "v_cmp_lt_i32", "v_cmpx_ne_u32", "v_cmp_class_f32"])
        if R.random() < 0.5:
            return "%s vcc, %s, %s" % (op, vsrc(), v())
        return "%s_e64 %s, %s, %s" % (op, s(2), v(), R.choice([v(), s()]))
    if k < 62:
        return "v_lshlrev_b64 %s, %d, %s" % (v(2), R.randrange(0, 32), v(2))
    if k < 63:
        return "v_add_co_u32 %s, vcc, %s, %s" % (v(), vsrc(), v())
    if k < 67:
        op = R.choice(["v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32"])
        if op == "v_pk_fma_f32":
            return "%s %s, %s, %s, %s" % (op, v(2), v(2), v(2), v(2))
        return "%s %s, %s, %s" % (op, v(2), v(2), v(2))
    if k < 69:
        op = R.choice(["v_pk_add_f16", "v_pk_mul_f16", "v_pk_max_i16", "v_pk_add_u16"])
        return "%s %s, %s, %s" % (op, v(), v(), v())
    if k < 71:
        return R.choice([
            "v_mfma_f32_32x32x8_f16 %s, %s, %s, %s" % (a(16), v(2), v(2), a(16)),
            "v_mfma_f32_16x16x16_f16 %s, %s, %s, %s" % (a(4), v(2), v(2), a(4)),
            "v_mfma_f32_16x16x4_f32 %s, %s, %s, %s" % (a(4), v(), v(), a(4)),
            "v_mfma_f64_16x16x4_f64 %s, %s, %s, %s" % (v(8), v(2), v(2), v(8)),
        ])
    if k < 72:
        return R.choice(["v_accvgpr_write_b32 %s, %s" % (a(), v()), "v_accvgpr_read_b32 %s, %s" % (v(), a())])
    if k < 78:
        return R.choice([
            "ds_read_b32 %s, %s offset:%d" % (v(), v(), R.randrange(0, 65536) // 4 * 4),
            "ds_read_b64 %s, %s" % (v(2), v()),
            "ds_write_b32 %s, %s offset:%d" % (v(), v(), R.randrange(0, 4096)),
            "ds_write_b128 %s, %s" % (v(), v(4)),
            "ds_read2_b32 %s, %s offset0:%d offset1:%d" % (v(2), v(), R.randrange(256), R.randrange(256)),
            "ds_add_u32 %s, %s" % (v(), v()),
            "ds_bpermute_b32 %s, %s, %s" % (v(), v(), v()),
        ])
    if k < 86:
        return R.choice([
            "global_load_dword %s, %s, %s offset:%d" % (v(), v(), s(2), R.randrange(-4096, 4096)),
            "global_load_dwordx4 %s, %s, off" % (v(4), v(2)),
            "global_store_dword %s, %s, %s" % (v(), v(), s(2)),
            "global_store_dwordx2 %s, %s, off offset:16" % (v(2), v(2)),
            "global_atomic_add %s, %s, %s" % (v(), v(), s(2)),
            "flat_load_dword %s, %s" % (v(), v(2)),
            "flat_store_dwordx4 %s, %s" % (v(2), v(4)),
            "global_load_dword %s, %s, off sc0 sc1" % (v(), v(2)),
            "global_load_dword %s, %s, off nt" % (v(), v(2)),
            "scratch_load_dword %s, %s, off" % (v(), v()),
        ])
    if k < 94:
        return R.choice([
            "buffer_load_dword %s, %s, %s, 0 offen" % (v(), v(), s(4)),
            "buffer_load_dwordx4 %s, %s, %s, %s offen offset:%d" % (v(4), v(), s(4), s(), R.randrange(4096)),
            "buffer_store_dword %s, %s, %s, 0 offen" % (v(), v(), s(4)),
            "buffer_load_dword %s, %s, 0 offen lds" % (v(), s(4)),
            "buffer_atomic_add %s, %s, %s, 0 idxen" % (v(), v(), s(4)),
            "buffer_load_ushort %s, off, %s, %s offset:%d" % (v(), s(4), s(), R.randrange(4096)),
        ])
    return R.choice(["v_readfirstlane_b32 %s, %s" % (s(), v()),
                     "v_readlane_b32 %s, %s, %s" % (s(), v(), s()),
                     "v_writelane_b32 %s, %s, %d" % (v(), s(), R.randrange(64)),
                     "s_getpc_b64 %s" % s(2),
                     "v_mov_b32_dpp %s, %s quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" % (v(), v()),
                     "v_add_f32_sdwa %s, %s, %s dst_sel:WORD_1 src0_sel:BYTE_0" % (v(), v(), v())])


LLVM_MC = os.environ.get("LLVM_MC") or "llvm-mc-22"


def rejected(lines, cpu):
    """Indexes of lines llvm-mc-22 rejects on cpu."""
    labels = "".join(".L%d:\n" % i for i in range(max(1, N // 500)))
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(labels + "\n".join(lines) + "\n")
        name = f.name
    try:
        p = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, "-filetype=null",
                            name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        os.unlink(name)
    nl = labels.count("\n")
    return {int(m.group(1)) - 1 - nl for m in re.finditer(r":(\d+):\d+: error", p.stderr)}


def valid_stream(nlab):
    good = []
    while len(good) < N:
        cand = [gen(nlab, (len(good) + i) // 500) for i in range(int((N - len(good)) * 1.3) + 16)]
        bad = rejected(cand, "gfx942") | rejected(cand, "gfx950")
        good += [c for i, c in enumerate(cand) if i not in bad]
    return good[:N]


def main():
    out = [".text", ".globl bench", ".p2align 8", ".type bench,@function", "bench:"]
    nlab = max(1, N // 500)
    for i, ins in enumerate(valid_stream(nlab)):
        if i % 500 == 0:
            out.append(".L%d:" % (i // 500))
        out.append("  " + ins)
    out += ["  s_endpgm", ".Lbench_end:", ".size bench, .Lbench_end-bench", "",
            ".rodata", ".p2align 6", ".amdhsa_kernel bench",
            "  .amdhsa_next_free_vgpr 256", "  .amdhsa_next_free_sgpr 102",
            "  .amdhsa_accum_offset 256", ".end_amdhsa_kernel"]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""lds_race_diff.py -- a differential fuzzer of gcnsim's LDS checks: random kernels of 2-4
waves (DS reads, writes and atomics of every width over coalesced, strided, unaligned,
broadcast and reversed lanes; buffer LDS-DMAs; partial EXEC; one-wave sections; spins;
barriers) run by two gcnsim binaries at several --quantum settings (and with --json); any
difference in exit code, output (times masked) or JSON is printed.  For changes to the race
and LDS-DMA bookkeeping that must not change a finding (docs/gcnsim.md, session 10).
With --uses the kernels also use, overwrite (whole, in part, in some lanes) and move the
registers the reads land in, rows 64 and up and AGPRs among them: the dead-read records of
racyreg.c (a race counts only when the read's value is used) (session 12).
usage: tools/lds_race_diff.py [--uses] GCNSIM_A GCNSIM_B [FIRST_SEED [LAST_SEED]]
(needs clang-22)
"""
import os
import random
import sys

import simdiff

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LDS = 8192
USES = False

# --uses: instructions on the registers DS reads land in (v9, v[14:19], v[62:65], v70, a0)
USE_OPS = [
    "v_add_f32 v20, v9, v7", "v_add_u32 v21, v14, v15", "v_add_u32 v21, v16, v19",
    "v_mov_b32 v9, 0", "v_mov_b32 v15, v7", "v_mov_b32 v17, 0",
    "v_add_u32_sdwa v9, v7, v9 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
    "v_add_u32_sdwa v14, v7, v10 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
    "v_mov_b32_dpp v22, v16 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    "v_readfirstlane_b32 s24, v17", "v_swap_b32 v9, v18", "v_writelane_b32 v9, s20, 5",
    "v_fma_f16 v9, v7, v7, v9 op_sel:[0,0,0,1]", "v_pk_add_f16 v15, v14, v15",
    "v_mfma_f32_4x4x1f32 a[4:7], v9, v14, a[4:7]",
    "v_add_f32 v23, v70, v7", "v_mov_b32 v70, 0", "v_add_u32 v23, v63, v64", "v_mov_b32 v64, 0",
    "v_accvgpr_read_b32 v22, a0", "v_accvgpr_write_b32 a0, 0",
    "buffer_load_dword v9, v2, s[8:11], 0 offen", "buffer_load_dwordx2 v[14:15], v2, s[8:11], 0 offen",
    "s_waitcnt vmcnt(0)", "s_waitcnt lgkmcnt(0)",
]


def gen(seed, path):
    """Write kernel `seed` to path; returns the block size (work-items)."""
    R = random.Random(seed)
    LDS = 8192
    L = []
    e = L.append
    e(".amdhsa_code_object_version 5\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:")
    e("    s_load_dwordx4 s[4:7], s[0:1], 0x0")
    e("    v_readfirstlane_b32 s20, v0")
    e("    s_lshr_b32 s20, s20, 6")
    e("    v_and_b32 v1, 63, v0")
    e("    v_lshlrev_b32 v2, 2, v1")
    e("    v_lshlrev_b32 v3, 3, v1")
    e("    v_add_u32 v4, 2, v2")
    e("    v_mov_b32 v5, 0")
    e("    v_lshlrev_b32 v6, 4, v1")
    e("    v_mov_b32 v7, 1")
    e("    v_mov_b32 v10, 3")
    e("    v_mov_b32 v11, 5")
    e("    v_sub_u32 v12, 252, v2")          # reversed lanes
    e("    s_waitcnt lgkmcnt(0)")
    e("    s_mov_b32 s8, s4")
    e("    s_and_b32 s9, s5, 0xffff")
    e("    s_mov_b32 s10, 0x1000")
    e("    s_mov_b32 s11, 0x20000")
    bases = {"v2": 252, "v3": 504, "v4": 254, "v5": 0, "v6": 1008, "v12": 252}
    nlab = 0
    nops = R.randint(4, 40)
    def addr_setup():
        K = R.choice([0, 0, 256, 512, 64, 4, 1024])
        vb = R.choice(list(bases))
        e(f"    s_mul_i32 s22, s20, {K}")
        e(f"    v_add_u32 v8, s22, {vb}")
        return K, vb
    def offset(K, vb, size, unit=4, maxo=65535):
        room = LDS - bases[vb] - 3 * K - size - 1
        room = min(room, maxo)
        o = R.choice([0, 0, 256, 512, R.randrange(0, 2048, unit), R.randrange(0, 4096, 256)])
        return min(o, room) // unit * unit
    for _ in range(nops):
        if USES:
            kind = R.choices(["read", "write", "atomic", "dma", "wait", "barrier", "spin", "use"],
                             [6, 5, 1, 5, 3, 1, 1, 6])[0]
        else:
            kind = R.choices(["read", "write", "atomic", "dma", "wait", "barrier", "spin"],
                             [6, 5, 1, 5, 3, 1, 1])[0]
        only = R.random() < 0.3
        masked = R.random() < 0.15
        if kind in ("wait", "barrier", "spin"):
            if kind == "wait":
                e("    s_waitcnt " + R.choice(["vmcnt(0)", "lgkmcnt(0)", "vmcnt(0) lgkmcnt(0)", "vmcnt(1)"]))
            elif kind == "barrier":
                e("    s_waitcnt " + R.choice(["vmcnt(0) lgkmcnt(0)", "lgkmcnt(0)", "vmcnt(0)"]))
                e("    s_barrier")
            else:
                nlab += 1
                e(f"    s_mul_i32 s23, s20, {R.choice([3, 7, 20])}")
                e(f"    s_add_u32 s23, s23, 1")
                e(f".Ls{nlab}:")
                e("    s_sub_u32 s23, s23, 1")
                e("    s_cmp_lg_u32 s23, 0")
                e(f"    s_cbranch_scc1 .Ls{nlab}")
            continue
        if only:
            nlab += 1
            lab = f".Lo{nlab}"
            e(f"    s_cmp_eq_u32 s20, {R.randint(0, 3)}")
            e(f"    s_cbranch_scc0 {lab}")
        K, vb = addr_setup()
        if masked:
            m = R.choice([0xffffffff, 0xffffffff00000000, 0x5555555555555555, 1 << R.randint(0, 63),
                          R.getrandbits(64)])
            e(f"    s_mov_b32 exec_lo, 0x{m & 0xffffffff:x}")
            e(f"    s_mov_b32 exec_hi, 0x{m >> 32:x}")
        if kind == "use":
            u = R.choice(USE_OPS + ["store"])
            if u == "store":
                e(f"    ds_write_b32 v8, v9 offset:{offset(K, vb, 4)}")
            else:
                e("    " + u)
        elif kind == "read":
            op = R.choice(["b32", "b32", "b32", "b64", "u8", "u16", "read2", "read2st64", "b128"] +
                          (["hi", "b32a", "b32h", "b128h", "d16"] if USES else []))
            if op == "hi":
                e(f"    ds_read_b32 v70, v8 offset:{offset(K, vb, 4)}")
            elif op == "b32a":
                e(f"    ds_read_b32 a0, v8 offset:{offset(K, vb, 4)}")
            elif op == "b32h":
                e(f"    ds_read_b64 v[64:65], v8 offset:{offset(K, vb, 8)}")
            elif op == "b128h":
                e(f"    ds_read_b128 v[62:65], v8 offset:{offset(K, vb, 16)}")
            elif op == "d16":
                e(f"    ds_read_u16_d16_hi v9, v8 offset:{offset(K, vb, 2, 2)}")
            elif op == "b32":
                e(f"    ds_read_b32 v9, v8 offset:{offset(K, vb, 4)}")
            elif op == "b64":
                e(f"    ds_read_b64 v[14:15], v8 offset:{offset(K, vb, 8)}")
            elif op == "b128":
                e(f"    ds_read_b128 v[16:19], v8 offset:{offset(K, vb, 16)}")
            elif op == "u8":
                e(f"    ds_read_u8 v9, v8 offset:{offset(K, vb, 1, 1)}")
            elif op == "u16":
                e(f"    ds_read_u16 v9, v8 offset:{offset(K, vb, 2, 2)}")
            else:
                a, b = R.randint(0, 63), R.randint(0, 63)
                if op == "read2st64":
                    a, b = R.randint(0, 3), R.randint(0, 3)
                e(f"    ds_{op}_b32 v[14:15], v8 offset0:{a} offset1:{b}")
        elif kind == "write":
            op = R.choice(["b32", "b32", "b32", "b64", "b8", "b16", "write2"])
            if op == "b32":
                e(f"    ds_write_b32 v8, v7 offset:{offset(K, vb, 4)}")
            elif op == "b64":
                e(f"    ds_write_b64 v8, v[10:11] offset:{offset(K, vb, 8)}")
            elif op == "b8":
                e(f"    ds_write_b8 v8, v7 offset:{offset(K, vb, 1, 1)}")
            elif op == "b16":
                e(f"    ds_write_b16 v8, v7 offset:{offset(K, vb, 2, 2)}")
            else:
                e(f"    ds_write2_b32 v8, v7, v10 offset0:{R.randint(0, 63)} offset1:{R.randint(0, 63)}")
        elif kind == "atomic":
            op = R.choice(["ds_add_u32 v8, v7", "ds_max_u32 v8, v7", "ds_add_rtn_u32 v9, v8, v7"])
            e(f"    {op} offset:{offset(K, vb, 4)}")
        else:   # dma
            o = R.choice([0, 0, 256, 512, 1024, R.randrange(0, 4096, 4), R.randrange(0, 4096, 256), 2])
            o = min(o, LDS - 3 * K - 1024 - 4)
            e(f"    s_add_u32 m0, s22, {o}")
            e("    s_nop 0")
            op = R.choice(["buffer_load_dword v2, s[8:11], 0 offen lds",
                           "buffer_load_dword v2, s[8:11], 0 offen lds",
                           "buffer_load_dword v3, s[8:11], 0 offen lds",
                           "buffer_load_ubyte v2, s[8:11], 0 offen lds",
                           "buffer_load_dword v5, s[8:11], 0 offen offset:16 lds"])
            e("    " + op)
        if masked:
            e("    s_mov_b64 exec, -1")
        if only:
            e(f"{lab}:")
    e("    s_waitcnt vmcnt(0) lgkmcnt(0)")
    e("    s_endpgm")
    e(".Lk_end:")
    tail = open(os.path.join(SRC, "tests/analyze/cases/kernel_tail_args.inc")).read()
    tail = tail.replace("group_segment_fixed_size 4096", f"group_segment_fixed_size {LDS}")
    tail = tail.replace("group_segment_fixed_size: 4096", f"group_segment_fixed_size: {LDS}")
    if USES:
        tail = tail.replace("next_free_vgpr 16", "next_free_vgpr 96").replace("accum_offset 16", "accum_offset 72").replace("vgpr_count: 16", "vgpr_count: 96")
    else:
        tail = tail.replace("next_free_vgpr 16", "next_free_vgpr 24").replace("accum_offset 16", "accum_offset 24").replace("vgpr_count: 16", "vgpr_count: 24")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n" + tail)
    return R.choice([128, 192, 256])


def main():
    global USES
    argv = sys.argv[1:]
    if argv and argv[0] == "--uses":
        USES = True
        argv = argv[1:]
    a, b = argv[0], argv[1]
    first = int(argv[2]) if len(argv) > 2 else 1
    last = int(argv[3]) if len(argv) > 3 else first + 99
    opts = [[], ["--quantum", "3"], ["--quantum", "1000"],
            ["--quantum", "2", "--hazard-effect=stale", "--wait-effect=retire"], ["--json"]]

    def case(seed, path):
        return "gfx942", ["--mcpu", "gfx942", "--block", str(gen(seed, path)), "{co}",
                          "--buffer", "src:4096:random=u32,1", "--buffer", "dst:1024",
                          "--arg", "buffer:src", "--arg", "buffer:dst", "--arg", "u32:0",
                          "--max-findings", "1000", "--no-group"]
    return simdiff.compare(a, b, first, last, case, opts, "lds-cross-wave-race",
                           "race findings")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""hz_diff.py -- a differential fuzzer of gcnsim's hazard checks: random kernels of 1-4 waves
with a loop whose iterations take one of two paths (a pseudo-random bit), made of producers and
consumers of the rule groups of src/analyze/hazards.def (MFMA and v_accvgpr, VALU writes of
SGPRs read by VMEM, M0 before LDS DMA, VCC, EXEC, v_readlane/v_writelane, DPP, transcendental,
v_div_fmas, s_getreg/s_setreg, SMEM and VMEM soft clauses under xnack), with s_nops of random
length between them, assembled for gfx942 and gfx950 (xnack on or off) and run by two gcnsim
binaries with several options (-j 1, --quantum, --llvm-conservative, --hazard-effect=stale
and off, --strict, --json); any difference in exit code, output (times masked) or JSON is printed.
For changes to the hazard hooks of the run loop that must not change a finding (the exactness
check beside tools/sim_ab_sweep.sh and tests/sim/test_hz_memo).
usage: tools/hz_diff.py GCNSIM_A GCNSIM_B [FIRST_SEED [LAST_SEED]]   (needs clang-22)
"""
import random
import sys

import simdiff

# register operands only, addresses inside the buffer A (4096 bytes): nothing faults
POOL = [
    "v_mfma_f32_16x16x16_f16 v[20:23], v[10:11], v[12:13], v[20:23]",
    "v_mfma_f32_16x16x16_f16 v[24:27], v[10:11], v[12:13], v[20:23]",
    "v_mfma_f32_4x4x4_16b_f16 v[20:23], v[10:11], v[12:13], v[24:27]",
    "v_mfma_f32_32x32x2_f32 v[0:15], v1, v2, v[0:15]",
    "v_mfma_f32_16x16x16_f16 a[0:3], v[10:11], v[12:13], a[0:3]",
    "v_accvgpr_write_b32 a0, v1",
    "v_accvgpr_read_b32 v2, a0",
    "v_accvgpr_write_b32 a1, v21",
    "v_accvgpr_read_b32 v10, a1",
    "v_mov_b32 v3, v21",
    "v_add_f32 v22, v1, v2",
    "v_mov_b32 v11, v4",
    "v_readfirstlane_b32 s4, v1",
    "v_add_u32 v5, s4, v5",
    "v_readlane_b32 s5, v2, s4",
    "v_writelane_b32 v6, s5, 3",
    "v_exp_f32 v7, v6",
    "v_rcp_f32 v8, v7",
    "v_add_f32 v8, v7, v8",
    "v_cmp_gt_u32 vcc, v1, v2",
    "v_cndmask_b32 v9, v1, v2, vcc",
    "v_div_fmas_f32 v15, v1, v2, v3",
    "v_cmp_lt_u32 s[6:7], v3, v4",
    "s_mov_b64 exec, -1",
    "v_mov_b32 v12, v9",
    "v_mov_b32_dpp v13, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    "v_add_f32_dpp v14, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf",
    "s_load_dword s16, s[10:11], 0x0",
    "s_load_dword s17, s[10:11], 0x4",
    "s_waitcnt lgkmcnt(0)",
    "s_add_u32 s14, s16, s17",
    "v_readfirstlane_b32 s18, v33",
    "global_load_dword v17, v30, s[18:19]",
    "global_load_dword v16, v30, s[10:11] offset:64",
    "s_waitcnt vmcnt(0)",
    "s_mov_b32 m0, s24",
    "buffer_load_dword v30, s[12:15], 0 offen lds",
    "s_getreg_b32 s26, hwreg(HW_REG_MODE)",
    "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf",
    "s_nop 0",
    "s_nop 1",
    "s_nop 3",
    "s_nop 7",
]

TAIL = """.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_kernarg_size 8
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 4096
  .amdhsa_next_free_vgpr 48
  .amdhsa_next_free_sgpr 40
  .amdhsa_accum_offset 40
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4096
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .max_flat_workgroup_size: 256
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata
"""


def gen(seed, path):
    """Write kernel `seed` to path; returns (block size, target)."""
    R = random.Random(seed)
    L = [".amdhsa_code_object_version 5", ".text", ".globl k", ".p2align 8",
         ".type k,@function", "k:",
         "  s_load_dwordx2 s[10:11], s[0:1], 0x0",
         "  v_and_b32 v31, 63, v0",
         "  v_lshlrev_b32 v30, 2, v31",          # a lane's offset in A (0..252)
         "  v_readfirstlane_b32 s24, v0",
         "  s_and_b32 s24, s24, 0xc0",
         "  s_lshl_b32 s24, s24, 2",             # M0: the wave's 256 bytes of LDS
         "  s_waitcnt lgkmcnt(0)",
         "  v_mov_b32 v33, s10",
         "  s_mov_b32 s19, s11",
         "  s_mov_b32 s12, s10",
         "  s_and_b32 s13, s11, 0xffff",
         "  s_mov_b32 s14, 4096",
         "  s_mov_b32 s15, 0x20000",
         "  v_mov_b32 v1, v0", "  v_add_u32 v2, 7, v0", "  v_mov_b32 v10, v0",
         "  v_mov_b32 v11, v2", "  v_mov_b32 v12, v1", "  v_mov_b32 v13, v2",
         "  s_mov_b32 s30, %d" % (4 + R.randrange(20)),
         "  s_mov_b32 s29, %d" % R.randrange(1 << 30),
         "L:"]

    def block(n):
        for _ in range(n):
            L.append("  " + R.choice(POOL))

    block(R.randint(0, 12))
    L += ["  s_mul_i32 s29, s29, 1103515245", "  s_add_u32 s29, s29, 12345",
          "  s_bitcmp1_b32 s29, %d" % (16 + R.randrange(12)), "  s_cbranch_scc1 J"]
    block(R.randint(1, 10))
    L.append("J:")
    block(R.randint(1, 10))
    L += ["  s_mov_b64 exec, -1", "  s_sub_u32 s30, s30, 1", "  s_cmp_lg_u32 s30, 0",
          "  s_cbranch_scc1 L", "  s_waitcnt vmcnt(0) lgkmcnt(0)", "  s_endpgm"]
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n" + TAIL)
    target = R.choice(["gfx942", "gfx942:xnack+", "gfx950", "gfx950:xnack+"])
    return R.choice([64, 128, 256]), target


def main():
    a, b = sys.argv[1], sys.argv[2]
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    last = int(sys.argv[4]) if len(sys.argv) > 4 else first + 99
    opts = [[], ["-j", "1"], ["-j", "1", "--quantum", "3"], ["--llvm-conservative"],
            ["-j", "1", "--hazard-effect=stale"], ["-j", "1", "--hazard-effect=off"], ["--strict"],
            ["--json"]]

    def case(seed, path):
        blk, target = gen(seed, path)
        return target, ["--mcpu", target.split(":")[0], "--block", str(blk), "--grid", "2",
                        "{co}", "--buffer", "A:4096:random=u32,1", "--arg", "buffer:A",
                        "--max-findings", "1000", "--no-group"]
    return simdiff.compare(a, b, first, last, case, opts, "hazard ", "hazard findings")


if __name__ == "__main__":
    sys.exit(main())

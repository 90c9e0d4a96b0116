// mbcnt_bfe.s -- lane from v_mbcnt_lo/hi(-1), wave from v_bfe_u32(v0, 6, 2), the per-lane address built with v_lshl_add_u32.
// ref: reverse
// broken: lds-cross-wave-race
.amdhsa_code_object_version 5
.include "common.inc"
.text
.globl k
.p2align 8
.type k,@function
k:
    START
    v_mbcnt_lo_u32_b32 v4, -1, 0
    v_mbcnt_hi_u32_b32 v4, -1, v4                 // lane
    v_bfe_u32 v7, v0, 6, 2                        // wave
    s_nop 0                                       // VALU write -> v_readfirstlane: 1 wait state
    v_readfirstlane_b32 s10, v7
    v_lshlrev_b32 v4, 2, v4
    v_lshl_add_u32 v5, v7, 8, v4                  // 256 * wave + 4 * lane
    ds_write_b32 v5, v1
    s_sub_u32 s12, 3, s10
    s_lshl_b32 s12, s12, 8
    v_add_u32 v6, s12, v4
    s_waitcnt lgkmcnt(0)
    s_barrier                                     //@drop
    ds_read_b32 v3, v6
    s_waitcnt lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

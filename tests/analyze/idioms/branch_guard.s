// branch_guard.s -- only wave 0 writes the table, behind a scalar branch on the wave index; after the barrier every wave reads table[lane].
// ref: table
// broken: lds-cross-wave-race
.amdhsa_code_object_version 5
.include "common.inc"
.text
.globl k
.p2align 8
.type k,@function
k:
    START
    v_readfirstlane_b32 s10, v0
    s_lshr_b32 s10, s10, 6
    s_cmp_lg_u32 s10, 0
    s_cbranch_scc1 .Lskip
    v_lshlrev_b32 v4, 2, v0
    ds_write_b32 v4, v1 offset:2048
.Lskip:
    s_waitcnt lgkmcnt(0)
    s_barrier                                     //@drop
    v_and_b32 v5, 63, v0
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v3, v5 offset:2048
    s_waitcnt lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

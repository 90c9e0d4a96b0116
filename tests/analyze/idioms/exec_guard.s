// exec_guard.s -- only the lanes with v0 < 64 (wave 0) write a 64-word table, under EXEC from v_cmp + s_and_saveexec; after the barrier every wave reads table[lane].
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
    v_cmp_gt_u32 vcc, 64, v0
    s_and_saveexec_b64 s[10:11], vcc
    v_lshlrev_b32 v4, 2, v0
    ds_write_b32 v4, v1 offset:2048
    s_mov_b64 exec, s[10:11]
    s_waitcnt lgkmcnt(0)
    s_barrier                                     //@drop
    v_and_b32 v5, 63, v0
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v3, v5 offset:2048
    s_waitcnt lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

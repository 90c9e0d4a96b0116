// shift_mul.s -- wave index = readfirstlane(v0 >> 6), lane = v0 & 63, slices of a padded size (s_mul_i32 by 260): per-wave privacy with a slot size that is not a power of two.
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
    v_lshrrev_b32 v7, 6, v0                       // wave
    s_nop 0                                       // VALU write -> v_readfirstlane: 1 wait state
    v_readfirstlane_b32 s10, v7
    s_mul_i32 s11, s10, 260                       // slot of 65 words
    v_and_b32 v4, 63, v0
    v_lshlrev_b32 v4, 2, v4
    v_add_u32 v5, s11, v4
    ds_write_b32 v5, v1
    s_sub_u32 s12, 3, s10
    s_mul_i32 s12, s12, 260
    v_add_u32 v6, s12, v4
    s_waitcnt lgkmcnt(0)
    s_barrier                                     //@drop
    ds_read_b32 v3, v6
    s_waitcnt lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

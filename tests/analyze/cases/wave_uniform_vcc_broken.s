// wave_uniform_vcc_broken.s -- a branch on VCC from a VALU compare of the
// work-item id: s_cbranch_vccz goes one way in waves 0-1 (every lane has
// v0 < 128) and the other in waves 2-3, after an s_barrier.  Waves 0-1
// write their slots [256 * wave, +256), waves 2-3 read wave 0's slot [0, 256)
// in the same barrier interval: a race, which gcnsim reports at run time.
// VCC is the same in every wave only when the compare's operands are
// (uniform.c); here they are not.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_readfirstlane_b32 s10, v0             // 64 * wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                 // 4 * lane
    s_lshl_b32 s12, s10, 2                  // 256 * wave
    v_add_u32 v2, s12, v1                   // the own slot
    v_mov_b32 v6, 0
    ds_write_b32 v2, v6                     // clear the own slot
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_cmp_gt_u32 vcc, 0x80, v0              // waves 0-1: every lane
    s_cbranch_vccz .Lreaders
    ds_write_b32 v2, v0                     // waves 0-1: the own slot
    s_branch .Ldone
.Lreaders:
    ds_read_b32 v3, v1                      // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v3                    // the value read is used
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

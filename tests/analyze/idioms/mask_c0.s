// mask_c0.s -- the wave's slice from readfirstlane(v0) masked with s_and_b32 0xc0 (redundant for 4 waves; the idiom that lost the old analysis). Each wave stores its 64 words in its own 256 bytes, and after the barrier reads the slice of wave 3 - w.
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
    v_readfirstlane_b32 s10, v0                   // 64 * wave
    s_and_b32 s10, s10, 0xc0                      // the mask: still 64 * wave
    s_lshl_b32 s11, s10, 2                        // slice: 256 * wave
    v_and_b32 v4, 63, v0                          // lane
    v_lshlrev_b32 v4, 2, v4
    v_add_u32 v5, s11, v4
    ds_write_b32 v5, v1
    s_sub_u32 s12, 0xc0, s10                      // 64 * (3 - wave)
    s_lshl_b32 s12, s12, 2
    v_add_u32 v6, s12, v4
    s_waitcnt lgkmcnt(0)
    s_barrier                                     //@drop
    ds_read_b32 v3, v6
    s_waitcnt lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

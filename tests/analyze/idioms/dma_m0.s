// dma_m0.s -- an LDS-DMA load into the wave's slice, M0 = (readfirstlane(v0) >> 6) << 8; after vmcnt(0) and a barrier each wave reads the slice of wave 3 - w.
// ref: reverse
// broken: barrier-lds-pending
.amdhsa_code_object_version 5
.include "common.inc"
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    s_lshl_b32 s8, s2, 10                         // wg * 1024 bytes
    v_lshlrev_b32 v2, 2, v0
    v_add_u32 v2, s8, v2
    v_readfirstlane_b32 s10, v0
    s_lshr_b32 s10, s10, 6                        // wave
    s_lshl_b32 s11, s10, 8
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s12, s4                             // raw buffer over in
    s_and_b32 s13, s5, 0xffff
    s_mov_b32 s14, -1
    s_mov_b32 s15, 0x20000
    s_mov_b32 m0, s11
    s_nop 0
    buffer_load_dword v2, s[12:15], 0 offen lds   // LDS [256 * wave, + 256)
    v_and_b32 v4, 63, v0
    v_lshlrev_b32 v4, 2, v4
    s_sub_u32 s16, 3, s10
    s_lshl_b32 s16, s16, 8
    v_add_u32 v6, s16, v4
    s_waitcnt vmcnt(0)                            //@drop
    s_barrier
    ds_read_b32 v3, v6
    s_waitcnt vmcnt(0) lgkmcnt(0)
    FINISH
.Lk_end:
.include "tail.inc"

// lattice.s -- LDS byte sets that an interval would blur.  Each wave reads two
// short rows of its 1024-byte slice (lane bits [2:0] pick a dword, lane bit 3,
// sign-extended by v_bfe_i32 and masked, picks the row 512 bytes on) while its
// LDS-DMA fills the gap between them: the rows' hull [0, 544) meets the DMA's
// [256, 512), their bytes do not.  Then an address that is only bounded (a
// masked value loaded from memory) meets another wave's writes in its hull
// alone: that is "not proven" (lds-unproven, a warning), never a claimed race
// (a bounded swizzle of the lane and wave ids alone, such as c ^ r, is taken
// over its whole range instead: kernels/lds_transpose).  Last, x ^ 1
// stays in the wave's slice, x ^ 64 lands in the next wave's.
// gcnlint-args: -Wlds-unproven
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_readfirstlane_b32 s12, v0              // 64 * wave
    s_lshl_b32 s12, s12, 4                   // 1024 * wave
    s_add_u32 s13, s12, 0x100                // the DMA: 1024 * wave + [256, 512)
    v_lshrrev_b32 v3, 6, v0
    v_lshlrev_b32 v3, 10, v3                 // 1024 * wave
    v_and_b32 v1, 7, v0
    v_lshlrev_b32 v1, 2, v1                  // 4 * (lane & 7)
    v_bfe_i32 v2, v0, 3, 1                   // 0 or -1: lane bit 3, sign-extended
    v_and_b32 v2, 0x200, v2                  // 512 * lane bit 3
    v_or_b32 v1, v1, v2
    v_add_u32 v1, v1, v3                     // 1024 * wave + {[0, 32), [512, 544)}
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, s13
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    ds_read_b32 v4, v1                       // the two rows: not the DMA's bytes
    ds_read_b32 v5, v1 offset:256            // expect: lds-dma-pending
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_barrier
    buffer_load_dword v6, v1, s[4:7], 0 offen   // an index from memory (a histogram's bin)
    s_waitcnt vmcnt(0)
    v_and_b32 v6, 0xffc, v6                  // somewhere in [0, 4096): bounded, not known
    v_lshlrev_b32 v7, 2, v0                  // 4 * work-item id: each wave its own 256 bytes
    ds_write_b32 v7, v0
    ds_read_b32 v8, v6                       // expect: lds-unproven
    v_xor_b32 v10, 1, v0                     // the neighbouring lane: the same wave
    v_lshlrev_b32 v10, 2, v10
    ds_read_b32 v11, v10                     // its own slice: in order, no race
    v_xor_b32 v12, 64, v0                    // the same lane of the neighbouring wave
    v_lshlrev_b32 v12, 2, v12
    ds_read_b32 v13, v12                     // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    v_add_u32 v9, v4, v5
    v_add_u32 v9, v9, v8
    v_add_u32 v9, v9, v13                    // the value read is used (a dead read would race harmlessly)
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

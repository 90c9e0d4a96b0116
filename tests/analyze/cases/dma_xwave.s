// dma_xwave.s -- every wave LDS-DMAs (a coalesced buffer load, all lanes) into the
// same 256 bytes and then reads them with no barrier: a race between the waves
// (the DMA of one wave and the read of another), which gcnsim once missed on
// its coalesced LDS-DMA path.  Arguments: src (4 KiB), dst (4 bytes per
// work-item), n (unused).
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                   // 4 * lane
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s4
    s_and_b32 s9, s5, 0xffff
    s_mov_b32 s10, 0x1000
    s_mov_b32 s11, 0x20000
    s_mov_b32 m0, 0
    s_nop 0
    buffer_load_dword v1, s[8:11], 0 offen lds  // LDS [0, 256), every wave
    s_waitcnt vmcnt(0)
    ds_read_b32 v2, v1                        // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v9, 0
    v_lshlrev_b32 v8, 2, v0
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]
    global_store_dword v[8:9], v2, off
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"

// dbuf_ok.s -- a correct double-buffered loop: global_load_lds_dword into two
// LDS buffers, each half reads one buffer, prefetches into it, then stores.
// FIFO (oldest first) at the first wait of the loop body: first iteration
// L1 P0 S0 (L1 needed: vmcnt(2)), steady state S0 P1 S1 P0 S0 (P1 needed:
// vmcnt(3)); the first iteration forces vmcnt(2).  No findings.
// gcnlint-args: --suggest
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    s_load_dword s8, s[0:1], 0x10             // iterations
    v_readfirstlane_b32 s12, v0
    v_lshlrev_b32 v1, 2, v0                   // lane's LDS byte address in a buffer
    s_lshl_b32 s12, s12, 2                    // M0 of buffer 0 (wave base)
    s_add_u32 s13, s12, 0x400                 // M0 of buffer 1
    s_waitcnt lgkmcnt(0)                      // expect-note: waitcnt-suggest: lgkmcnt(0) is the loosest safe value
    v_mov_b32 v5, 0
    v_mov_b32 v4, v1
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]   // no VCC carry chain: on gfx940+ a VALU reading VCC needs 2 wait states after the VALU writing it
    v_mov_b32 v9, 0
    v_mov_b32 v8, v1
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]   // no VCC carry chain: on gfx940+ a VALU reading VCC needs 2 wait states after the VALU writing it
    s_mov_b32 m0, s12
    s_nop 0
    global_load_lds_dword v[4:5], off         // L0 -> buffer 0
    v_lshl_add_u64 v[4:5], 1, 8, v[4:5]
    v_nop
    s_mov_b32 m0, s13
    s_nop 0
    global_load_lds_dword v[4:5], off         // L1 -> buffer 1
    s_waitcnt vmcnt(1)                        // expect-note: waitcnt-suggest: vmcnt(1) is the loosest safe value
.Lloop:
    ds_read_b32 v6, v1                        // buffer 0
    s_waitcnt lgkmcnt(0)
    v_lshl_add_u64 v[4:5], 1, 8, v[4:5]
    v_nop
    s_mov_b32 m0, s12
    s_nop 0
    global_load_lds_dword v[4:5], off         // P0 -> buffer 0
    global_store_dword v[8:9], v6, off        // S0
    s_waitcnt vmcnt(2)                        // expect-note: waitcnt-suggest: first iteration of the loop at line 36, when the vmcnt queue holds 3 operations
    ds_read_b32 v7, v1 offset:1024            // buffer 1
    s_waitcnt lgkmcnt(0)
    v_lshl_add_u64 v[4:5], 1, 8, v[4:5]
    v_nop
    s_mov_b32 m0, s13
    s_nop 0
    global_load_lds_dword v[4:5], off         // P1 -> buffer 1
    global_store_dword v[8:9], v7, off offset:256   // S1
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_waitcnt vmcnt(3)                        // expect-note: waitcnt-suggest: vmcnt(3) is the loosest safe value
    s_cbranch_scc1 .Lloop
    s_waitcnt vmcnt(0)                        // expect-note: waitcnt-stronger: can be dropped
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

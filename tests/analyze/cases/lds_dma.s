// lds_dma.s -- LDS written by buffer_load ... lds is valid only after vmcnt
// retires the load; the linter tells disjoint LDS ranges apart (M0 and DS
// addresses are both derived from the work-item id).
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_readfirstlane_b32 s12, v0
    v_lshlrev_b32 v1, 2, v0
    s_lshl_b32 s12, s12, 2
    s_add_u32 s13, s12, 0x800
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, s13
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    ds_read_b32 v2, v1
    ds_read_b32 v3, v1 offset:2048            // expect: lds-dma-pending
    ds_write_b32 v1, v0 offset:2048           // expect: lds-dma-pending
    s_waitcnt vmcnt(0) lgkmcnt(0)
    ds_read_b32 v3, v1 offset:2048
    buffer_load_dword v1, s[4:7], 0 offen lds // expect: lds-dma-race
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mov_b32 v4, v3
    v_mov_b32 v5, v2
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

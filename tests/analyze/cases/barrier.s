// barrier.s -- s_barrier must follow the retirement of this wave's LDS writes
// (lgkmcnt for DS writes, vmcnt for LDS-DMA), or other waves may read stale LDS.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    s_barrier                                 // expect: barrier-lds-pending
    ds_write_b32 v1, v0 offset:1024
    ds_read_b32 v2, v1 offset:2048
    s_waitcnt lgkmcnt(1)
    s_barrier
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, 0
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds
    s_barrier                                 // expect: barrier-lds-pending
    s_waitcnt vmcnt(0)
    s_barrier
    v_mov_b32 v3, v2
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

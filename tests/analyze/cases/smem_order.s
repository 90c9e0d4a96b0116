// smem_order.s -- scalar loads return out of order: lgkmcnt(N>0) guarantees
// none of them; LDS reads in the same counter stay in order.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_load_dwordx2 s[6:7], s[0:1], 0x8
    s_waitcnt lgkmcnt(1)
    s_add_u32 s8, s4, 4                       // expect: smem-out-of-order
    s_waitcnt lgkmcnt(0)
    s_add_u32 s9, s6, 4
    s_load_dword s10, s[0:1], 0x10
    v_mov_b32 v1, 0
    ds_read_b32 v2, v1
    ds_read_b32 v3, v1 offset:4
    s_waitcnt lgkmcnt(1)
    v_mov_b32 v4, v2
    v_mov_b32 v5, v3                          // expect: pending-read
    s_mov_b32 s11, s10                        // expect: smem-out-of-order
    s_waitcnt lgkmcnt(0)
    s_load_dword s10, s[0:1], 0x14
    s_mov_b32 s10, 1                          // expect: pending-overwrite
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

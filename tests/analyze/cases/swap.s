// swap.s -- v_swap_b32 writes its source register too (GCN_F_WR_SRC0 in the
// ISA table): swapping with a register whose load is pending both reads and
// overwrites it.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    global_load_dword v1, v[2:3], off
    v_swap_b32 v4, v1                         // expect: pending-read, pending-overwrite
    s_waitcnt vmcnt(0)
    global_load_dword v5, v[2:3], off
    v_swap_b32 v5, v6                         // expect: pending-read, pending-overwrite
    s_waitcnt vmcnt(0)
    v_swap_b32 v4, v1
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

// suppress.s -- "gcnlint: allow(check)" on a source line silences that check there.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    global_load_dword v4, v[2:3], off
    v_mov_b32 v5, v4                          // gcnlint: allow(pending-read)
    v_mov_b32 v6, v4                          // expect: pending-read
    v_mov_b32 v7, v4                          // gcnlint: allow(barrier-lds-pending, all)
    v_mov_b32 v8, v4                          // expect: pending-read ; gcnlint: allow(smem-out-of-order)
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

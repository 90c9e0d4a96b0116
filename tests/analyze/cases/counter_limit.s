// counter_limit.s -- the wait counters are as wide as their s_waitcnt fields
// (gfx9: vmcnt 6 bits, lgkmcnt 4): a wave never has more than 63 VMEM or 15
// LGKM operations outstanding, because issue stalls until one retires, and
// in-order operations retire oldest first.  An in-order load with 63 (15)
// younger in-order operations of its counter behind it has therefore
// retired; one with fewer may be pending, and its fix is a real wait
// (vmcnt(62), lgkmcnt(14)), never the "no wait" encodings vmcnt(63) and
// lgkmcnt(15).  Scalar loads return out of order and are not retired by it.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    v_mov_b32 v1, 0
    v_mov_b32 v6, 0
    v_mov_b32 v7, 0
    s_waitcnt lgkmcnt(0)
    // 16 LDS reads: the first has 15 younger ones, so it has retired
    ds_read_b32 v2, v1
    .rept 15
    ds_read_b32 v3, v1 offset:4
    .endr
    v_mov_b32 v4, v2
    s_waitcnt lgkmcnt(0)
    // 15 LDS reads: the first may still be pending; lgkmcnt(14) retires it
    ds_read_b32 v2, v1
    .rept 14
    ds_read_b32 v3, v1 offset:4
    .endr
    v_mov_b32 v4, v2                          // expect: pending-read
    s_waitcnt lgkmcnt(0)
    // a scalar load and 16 LDS reads: the LDS reads retire in order, the
    // scalar load may not: only lgkmcnt(0) guarantees it
    s_load_dword s10, s[4:5], 0x0
    .rept 16
    ds_read_b32 v3, v1 offset:4
    .endr
    s_mov_b32 s11, s10                        // expect: pending-read
    s_waitcnt lgkmcnt(0)
    // 64 VMEM operations: the load has 63 younger stores, so it has retired
    global_load_dword v5, v[6:7], off
    .rept 63
    s_nop 0                                   // no VMEM soft clause (xnack any)
    global_store_dword v[6:7], v1, off
    .endr
    v_mov_b32 v4, v5
    s_waitcnt vmcnt(0)
    // 63 VMEM operations: the load may be pending; vmcnt(62) retires it
    global_load_dword v5, v[6:7], off
    .rept 62
    s_nop 0                                   // no VMEM soft clause (xnack any)
    global_store_dword v[6:7], v1, off
    .endr
    v_mov_b32 v4, v5                          // expect: pending-read
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

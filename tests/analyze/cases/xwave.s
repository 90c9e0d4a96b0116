// xwave.s -- LDS accesses of different waves of a work-group (4 waves here) are
// ordered only by s_barrier.  v1 = 4 * work-item id: each wave owns a 256-byte
// slice, so a read of the neighbouring lane's word reaches into the next wave's.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    ds_read_b32 v2, v1                        // own slice: no race
    ds_read_b32 v3, v1 offset:4               // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v4, v1 offset:4               // after the barrier: ordered
    v_mov_b32 v5, 0
    ds_write_b32 v5, v0 offset:3072
    ds_write_b32 v5, v2 offset:3072           // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_mul_hi_u32 v6, v0, v0                   // an address the analysis does not follow
    ds_write_b32 v6, v0 offset:2048
    ds_write_b32 v6, v2 offset:2048           // two writes: not reported (shared tiles look so)
    ds_read_b32 v7, v6 offset:2048            // not proven either way: lds-unproven (off by default)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v8, v3, v4
    v_add_u32 v8, v8, v7
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

// barrier.s -- s_barrier must follow the retirement of this wave's LDS writes
// (lgkmcnt for DS writes, vmcnt for LDS-DMA) when another wave touches those
// bytes before the next barrier, or it may read stale LDS.  Barrier phases: a
// write still pending at a barrier that nobody else touches in the next
// interval (a prefetch into the other buffer) is not a finding.
// v1 = 4 * (64 * wave + lane): each wave owns 256 bytes; offset:4 reaches
// into the next wave's first word.
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
    ds_write_b32 v1, v0 offset:1280
    ds_read_b32 v2, v1 offset:4               // the neighbour's word: needs the write landed
    s_waitcnt lgkmcnt(1)
    s_barrier
    ds_write_b32 v1, v0 offset:2560           // pending at the next barrier, but no other
    s_barrier                                 // wave touches [2560, 3584) before the one after
    ds_read_b32 v4, v1 offset:2560
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v5, v1 offset:2564
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, 0
    s_nop 0
    buffer_load_dword v1, s[4:7], 0 offen lds // every wave writes LDS [0, 256)
    s_barrier                                 // expect: barrier-lds-pending
    v_mov_b32 v6, 0
    ds_read_b32 v7, v6 offset:128             // expect: lds-dma-pending
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_barrier
    v_mov_b32 v3, v2
    v_add_u32 v3, v3, v4
    v_add_u32 v3, v3, v5
    v_add_u32 v3, v3, v7
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

// tied_dst_broken.s -- tied_dst.s with the waits one load short: the index has retired
// but the accumulator the SMFMAC reads (its destination) has not, and v_fmac/v_dot2c read
// their destination while its load is in flight.  Before the destination of these rows
// counted as read (GCN_F_RD_DST) only the overwrite was seen.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    global_load_dword v1, v[2:3], off            // the sparsity index
    global_load_dwordx4 v[4:7], v[2:3], off      // the accumulator
    s_waitcnt vmcnt(1)
    v_smfmac_f32_16x16x32_f16 v[4:7], v[8:9], v[10:13], v1   // expect: pending-read, pending-overwrite
    global_load_dword v14, v[2:3], off
    global_load_dword v15, v[2:3], off
    s_waitcnt vmcnt(1)
    v_fmac_f32 v14, v2, v3
    v_dot2c_i32_i16 v15, v2, v3                  // expect: pending-read, pending-overwrite
    s_waitcnt vmcnt(0)
    s_nop 7
    s_nop 7
    global_store_dwordx4 v[2:3], v[4:7], off
    global_store_dword v[2:3], v14, off
    global_store_dword v[2:3], v15, off
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

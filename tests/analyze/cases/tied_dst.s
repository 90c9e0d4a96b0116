// tied_dst.s -- instructions whose destination is also read (GCN_F_RD_DST in the ISA
// table): an SMFMAC accumulates into its destination (LLVM VOP3PInstructions.td
// SMFMACInst: Constraints = "$vdst = $src2"; the printed third source is the sparsity
// index), v_fmac/v_dot2c add into theirs (VOP2Instructions.td: "$vdst = $src2").  Every
// load feeding them has retired here: no finding.  tied_dst_broken.s waits too little.
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
    s_waitcnt vmcnt(0)
    v_smfmac_f32_16x16x32_f16 v[4:7], v[8:9], v[10:13], v1
    global_load_dword v14, v[2:3], off
    global_load_dword v15, v[2:3], off
    s_waitcnt vmcnt(0)
    v_fmac_f32 v14, v2, v3
    v_dot2c_i32_i16 v15, v2, v3
    s_nop 7
    s_nop 7
    global_store_dwordx4 v[2:3], v[4:7], off
    global_store_dword v[2:3], v14, off
    global_store_dword v[2:3], v15, off
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"

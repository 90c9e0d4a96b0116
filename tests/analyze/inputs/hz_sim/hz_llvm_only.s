// hz_llvm_only.s -- a correct kernel with three back-to-back pairs where only
// LLVM's hazard recognizer would insert s_nops (the llvm-conservative rows of
// src/analyze/hazards.def), for tests/analyze/test_hazard_sim.sh:
//   v_add_co_u32 then v_addc_co_u32 reading VCC as its carry-in (ISA guide
//   4.5: a carry-in read needs 0 wait states; LLVM: 2, VALU_SGPR_CARRY);
//   v_pk_mul_f32 then a VALU reading its result (a packed op writes its whole
//   destination; LLVM reads op_sel_hi as a partial-dst select:
//   VOP3P_OPSEL_VALU);
//   v_mov_b32 v10 then a DPP add reading v10 as src1, which is not swizzled
//   (ISA 4.5 / DPP: src0; LLVM: every VGPR operand, VGPR_DPP_OPERAND).
// gcnsim and gcnlint report nothing by default and the three with
// --llvm-conservative / -Wllvm-conservative.  Per lane t of one wave of 64:
// out[3t] = (t != 0) (the carry of t + 0xffffffff), out[3t+1] = 1.5*1.5 + 2*2
// = 6.25, out[3t+2] = (t ^ 1) + 7.
.amdhsa_code_object_version 5
.text
.globl hz_llvm_only
.p2align 8
.type hz_llvm_only,@function
hz_llvm_only:
    s_load_dwordx2 s[6:7], s[0:1], 0x0
    v_mov_b32 v1, -1
    v_mov_b32 v4, 1.5
    v_mov_b32 v5, 2.0
    v_mul_u32_u24 v9, 12, v0
    v_add_co_u32 v2, vcc, v0, v1
    v_addc_co_u32 v3, vcc, 0, 0, vcc
    v_pk_mul_f32 v[6:7], v[4:5], v[4:5]
    v_add_f32 v8, v6, v7
    v_mov_b32 v10, 7
    v_add_u32_dpp v11, v0, v10 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    s_waitcnt lgkmcnt(0)
    global_store_dword v9, v3, s[6:7]
    global_store_dword v9, v8, s[6:7] offset:4
    global_store_dword v9, v11, s[6:7] offset:8
    s_endpgm
.Lhz_llvm_only_end:
.size hz_llvm_only, .Lhz_llvm_only_end - hz_llvm_only

.rodata
.p2align 6
.amdhsa_kernel hz_llvm_only
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 12
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 12
.end_amdhsa_kernel

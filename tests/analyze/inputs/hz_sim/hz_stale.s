// hz_stale.s -- two hazards whose consumer reads a register too early, for
// gcnsim's hazard findings and --hazard-effect=stale (tests/analyze/
// test_hazard_sim.sh):
//   v_readfirstlane_b32 s4 then v_add_u32 reading s4 at once (VALU writes an
//   SGPR a VALU reads: 2 wait states, LLVM checkVALUHazards), and
//   v_exp_f32 v5 then v_add_f32 reading v5 at once (transcendental result
//   read by a VALU: 1 wait state).
// out[2*tid] = s4 + tid (5 + tid; 100 + tid when s4 is read stale),
// out[2*tid+1] = v5 (exp2(2) = 4.0; 1.0 stale).  One wave of 64.
.amdhsa_code_object_version 5
.text
.globl hz_stale
.p2align 8
.type hz_stale,@function
hz_stale:
    s_load_dwordx2 s[6:7], s[0:1], 0x0
    v_lshlrev_b32 v9, 3, v0
    s_mov_b32 s4, 100
    v_mov_b32 v1, 5
    v_mov_b32 v5, 1.0
    v_mov_b32 v6, 2.0
    v_mov_b32 v8, 0
    s_nop 0
    v_readfirstlane_b32 s4, v1
    v_add_u32 v3, s4, v0
    v_exp_f32 v5, v6
    v_add_f32 v7, v5, v8
    s_waitcnt lgkmcnt(0)
    global_store_dword v9, v3, s[6:7]
    global_store_dword v9, v7, s[6:7] offset:4
    s_endpgm
.Lhz_stale_end:
.size hz_stale, .Lhz_stale_end - hz_stale

.rodata
.p2align 6
.amdhsa_kernel hz_stale
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 12
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 12
.end_amdhsa_kernel

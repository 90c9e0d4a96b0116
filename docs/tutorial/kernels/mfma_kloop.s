// mfma_kloop.s -- tutorial chapter 3: an MFMA K-loop.  One wave computes the 16x16 f32
// matrix C = A * B, A 16xK and B Kx16 (row-major f32, K a multiple of 8), with
// v_mfma_f32_16x16x4_f32: each MFMA multiplies a 16x4 slice of A by a 4x16 slice of B and adds
// the product to the accumulators a[0:3].  The slices of step s+1 are loaded while the MFMA of
// step s runs: two VGPR pairs (v5,v6 and v7,v8) alternate, the loop is unrolled twice, and
// every wait is vmcnt(2) -- "all but the two loads just issued".
//
// Operand layout of v_mfma_f32_16x16x4_f32 (AMD Matrix Instruction Calculator, CDNA3), lane l:
//   A: one VGPR, A[i = l%16][k = l/16];   B: one VGPR, B[k = l/16][j = l%16];
//   C/D: four registers, register r holds C[i = 4*(l/16) + r][j = l%16].
// Step s reads A[i][4s + l/16] at byte (i*K + 4s + l/16)*4 (16 bytes further each step) and
// B[4s + l/16][j] at byte ((4s + l/16)*16 + j)*4 (256 bytes further each step).
//
// Arguments: A, B, C (8 bytes each), K (u32).  One workgroup of 64 work-items.
// Registers: s[4:9] A, B, C; s10 K; s11 pairs of steps left; v1 l%16, v2 l/16, v3 byte offset
// of this lane's A element, v4 of its B element, v5/v6 and v7/v8 the A/B values of even/odd
// steps, a[0:3] the accumulators, v9..v12 the result, v13 its byte offset in C.
.amdhsa_code_object_version 5
.text
.globl mfma_kloop
.p2align 8
.type mfma_kloop,@function
mfma_kloop:
    s_load_dwordx4 s[4:7], s[0:1], 0x0         // A, B
    s_load_dwordx2 s[8:9], s[0:1], 0x10        // C
    s_load_dword s10, s[0:1], 0x18             // K
    v_and_b32 v1, 15, v0                       // l % 16: i of A, j of B and C
    v_lshrrev_b32 v2, 4, v0                    // l / 16: k within a step
    v_accvgpr_write_b32 a0, 0                  // accumulators = 0
    v_accvgpr_write_b32 a1, 0
    v_accvgpr_write_b32 a2, 0
    v_accvgpr_write_b32 a3, 0
    v_lshlrev_b32 v4, 4, v2                    // (l/16) * 16
    v_add_u32 v4, v4, v1                       //   + j
    v_lshlrev_b32 v4, 2, v4                    // byte offset of B[l/16][j]
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    v_mul_lo_u32 v3, v1, s10                   // i * K
    v_add_u32 v3, v3, v2                       //   + l/16
    v_lshlrev_b32 v3, 2, v3                    // byte offset of A[i][l/16]
    s_lshr_b32 s11, s10, 3                     // K/8 pairs of steps
    global_load_dword v5, v3, s[4:5]           // step 0: A slice          vmcnt 1
    global_load_dword v6, v4, s[6:7]           //         B slice          vmcnt 2
    v_add_u32 v3, 16, v3
    v_add_u32 v4, 0x100, v4
.Lloop:
    global_load_dword v7, v3, s[4:5]           // step 2p+1 -> v7, v8       vmcnt 4
    global_load_dword v8, v4, s[6:7]
    v_add_u32 v3, 16, v3
    v_add_u32 v4, 0x100, v4
    s_waitcnt vmcnt(2)                         // step 2p (v5, v6) has arrived
    v_mfma_f32_16x16x4_f32 a[0:3], v5, v6, a[0:3]
    s_sub_u32 s11, s11, 1
    s_cmp_eq_u32 s11, 0
    s_cbranch_scc1 .Llast
    global_load_dword v5, v3, s[4:5]           // step 2p+2 -> v5, v6       vmcnt 4
    global_load_dword v6, v4, s[6:7]
    v_add_u32 v3, 16, v3
    v_add_u32 v4, 0x100, v4
    s_waitcnt vmcnt(2)                         // step 2p+1 (v7, v8) has arrived
    v_mfma_f32_16x16x4_f32 a[0:3], v7, v8, a[0:3]
    s_branch .Lloop
.Llast:
    s_waitcnt vmcnt(0)                         // the last step (v7, v8)
    v_mfma_f32_16x16x4_f32 a[0:3], v7, v8, a[0:3]
    v_lshlrev_b32 v13, 8, v2                   // C row 4*(l/16): byte (l/16)*256
    v_lshl_add_u32 v13, v1, 2, v13             //   + j*4
    s_nop 7                                    // the MFMA result is read by VALU:
    s_nop 7                                    //   wait states (chapter 4)
    s_nop 2
    v_accvgpr_read_b32 v9, a0
    v_accvgpr_read_b32 v10, a1
    v_accvgpr_read_b32 v11, a2
    v_accvgpr_read_b32 v12, a3
    global_store_dword v13, v9, s[8:9]         // C[4*(l/16) + 0][j]
    global_store_dword v13, v10, s[8:9] offset:64
    global_store_dword v13, v11, s[8:9] offset:128
    global_store_dword v13, v12, s[8:9] offset:192
    s_endpgm
.Lmfma_kloop_end:
.size mfma_kloop, .Lmfma_kloop_end - mfma_kloop

.rodata
.p2align 6
.amdhsa_kernel mfma_kloop
    .amdhsa_kernarg_size 28
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 20
    .amdhsa_next_free_sgpr 12
    .amdhsa_accum_offset 16
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: mfma_kloop
    .symbol: mfma_kloop.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 20
    .agpr_count: 4
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: K, .size: 4, .offset: 24, .value_kind: by_value}
...
.end_amdgpu_metadata

// ex2_unroll.s -- SOLUTION of tutorial exercise 2.  The first add needs A[idx] and B[idx],
// the oldest two of four loads (the stores of the previous iteration are older still and
// retire with them): vmcnt(2).  The store of C[idx] then joins the queue behind
// A[idx+stride] and B[idx+stride], so the second add needs vmcnt(1), which lets that store
// stay in flight.
//
// Arguments: A, B, C, N, stride.  Registers as oob.s, and s29 2*stride in bytes, v2 byte
// offset of idx+stride, v3..v6 the four values.  Limit: (N + 2*stride) * 4 < 2^32.
.amdhsa_code_object_version 5
.text
.globl ex2_unroll
.p2align 8
.type ex2_unroll,@function
ex2_unroll:
    s_load_dwordx8 s[4:11], s[0:1], 0x0        // A, B, C, N, stride
    s_lshl_b32 s24, s2, 8                      // first element of the workgroup: wg * 256
    v_add_u32 v1, s24, v0                      // idx = wg*256 + tid
    v_lshlrev_b32 v1, 2, v1                    // byte offset of idx
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    s_lshl_b32 s28, s11, 2                     // stride in bytes
    s_lshl_b32 s29, s11, 3                     // 2*stride in bytes
    s_lshl_b32 s14, s10, 2                     // num_records = N * 4 bytes
    s_mov_b32 s12, s4                          // V# of A: base[31:0]
    s_and_b32 s13, s5, 0xffff                  //   base[47:32]; stride 0, no swizzle
    s_mov_b32 s15, 0x20000                     //   word 3: raw buffer, 32-bit data format
    s_mov_b32 s16, s6                          // V# of B
    s_and_b32 s17, s7, 0xffff
    s_mov_b32 s18, s14
    s_mov_b32 s19, s15
    s_mov_b32 s20, s8                          // V# of C
    s_and_b32 s21, s9, 0xffff
    s_mov_b32 s22, s14
    s_mov_b32 s23, s15
.Lloop:
    v_add_u32 v2, s28, v1                      // byte offset of idx + stride
    buffer_load_dword v3, v1, s[12:15], 0 offen    // A[idx]
    buffer_load_dword v4, v1, s[16:19], 0 offen    // B[idx]
    buffer_load_dword v5, v2, s[12:15], 0 offen    // A[idx+stride]
    buffer_load_dword v6, v2, s[16:19], 0 offen    // B[idx+stride]
    s_waitcnt vmcnt(2)                         // A[idx], B[idx]: the oldest two
    v_add_f32 v3, v3, v4
    buffer_store_dword v3, v1, s[20:23], 0 offen   // C[idx]
    s_waitcnt vmcnt(1)                         // A[idx+stride], B[idx+stride]; the store may go on
    v_add_f32 v5, v5, v6
    buffer_store_dword v5, v2, s[20:23], 0 offen   // C[idx+stride]
    v_add_u32 v1, s29, v1                      // idx += 2*stride
    v_cmp_gt_u32 vcc, s14, v1                  // any lane still inside?
    s_cbranch_vccnz .Lloop
    s_endpgm
.Lex2_unroll_end:
.size ex2_unroll, .Lex2_unroll_end - ex2_unroll

.rodata
.p2align 6
.amdhsa_kernel ex2_unroll
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 30
    .amdhsa_accum_offset 8
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: ex2_unroll
    .symbol: ex2_unroll.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 36
    .vgpr_count: 8
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 24, .value_kind: by_value}
      - {.name: stride, .size: 4, .offset: 28, .value_kind: by_value}
...
.end_amdgpu_metadata

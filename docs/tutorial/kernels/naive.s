// naive.s -- tutorial chapter 1: C[i] = A[i] + B[i], one element per work-item, the way a
// first kernel is written: global loads, EXEC masking for the tail, and s_waitcnt vmcnt(0)
// after every load, so nothing is ever in flight while the next instruction issues.
//
// Arguments (as every vector add of the tutorial and kernels/vector_add): A, B, C (8 bytes
// each), N (u32, elements), stride (u32, unused here).  Workgroups of 256 work-items; the grid
// has ceil(N/256) of them.  Registers: s[4:11] arguments, s[12:13] saved EXEC, v1 element
// index and then its byte offset, v2 A (and the sum), v3 B.
.amdhsa_code_object_version 5
.text
.globl naive
.p2align 8
.type naive,@function
naive:
    s_load_dwordx8 s[4:11], s[0:1], 0x0        // A, B, C, N, stride
    s_lshl_b32 s12, s2, 8                      // first element of the workgroup: wg * 256
    v_add_u32 v1, s12, v0                      // idx = wg*256 + tid
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    v_cmp_gt_u32 vcc, s10, v1                  // lanes with idx < N
    s_and_saveexec_b64 s[12:13], vcc           // switch the others off
    s_cbranch_execz .Ldone
    v_lshlrev_b32 v1, 2, v1                    // byte offset of idx
    global_load_dword v2, v1, s[4:5]           // A[idx]
    s_waitcnt vmcnt(0)                         // wait for it
    global_load_dword v3, v1, s[6:7]           // B[idx]
    s_waitcnt vmcnt(0)                         // wait for it
    v_add_f32 v2, v2, v3
    global_store_dword v1, v2, s[8:9]          // C[idx]
.Ldone:
    s_endpgm
.Lnaive_end:
.size naive, .Lnaive_end - naive

.rodata
.p2align 6
.amdhsa_kernel naive
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 14
    .amdhsa_accum_offset 4
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: naive
    .symbol: naive.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 20
    .vgpr_count: 4
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

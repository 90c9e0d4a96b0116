// gridstride.s -- tutorial chapter 2, pattern 1: a persistent grid-stride loop.  The host
// launches a fixed number of workgroups (one per compute unit on a real GPU) and passes
// stride = number of work-items in the grid; each lane handles idx, idx+stride, idx+2*stride...
// Memory access is still the naive one: global loads, EXEC masking, vmcnt(0).
//
// Arguments: A, B, C, N (elements), stride (elements).  Workgroups of 256.  Registers:
// s[4:11] arguments, s14 stride in bytes, s15 N*4, v1 byte offset of the element, v2 A (and
// the sum), v3 B.
.amdhsa_code_object_version 5
.text
.globl gridstride
.p2align 8
.type gridstride,@function
gridstride:
    s_load_dwordx8 s[4:11], s[0:1], 0x0        // A, B, C, N, stride
    s_lshl_b32 s12, s2, 8                      // first element of the workgroup: wg * 256
    v_add_u32 v1, s12, v0                      // idx = wg*256 + tid
    v_lshlrev_b32 v1, 2, v1                    // byte offset of idx
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    s_lshl_b32 s14, s11, 2                     // stride in bytes
    s_lshl_b32 s15, s10, 2                     // N * 4
.Lloop:
    v_cmp_gt_u32 vcc, s15, v1                  // lanes still inside the array
    s_and_b64 exec, exec, vcc                  // the others stop for good
    s_cbranch_execz .Ldone
    global_load_dword v2, v1, s[4:5]           // A[idx]
    global_load_dword v3, v1, s[6:7]           // B[idx]
    s_waitcnt vmcnt(0)                         // both (and the previous store)
    v_add_f32 v2, v2, v3
    global_store_dword v1, v2, s[8:9]          // C[idx]
    v_add_u32 v1, s14, v1                      // idx += stride
    s_branch .Lloop
.Ldone:
    s_endpgm
.Lgridstride_end:
.size gridstride, .Lgridstride_end - gridstride

.rodata
.p2align 6
.amdhsa_kernel gridstride
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 4
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: gridstride
    .symbol: gridstride.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 22
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

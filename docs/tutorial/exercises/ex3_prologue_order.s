// ex3_prologue_order.s -- tutorial exercise 3.  The pipelined vector add of chapter 3
// (kernels/vector_add/vector_add.s) with its prologue loads reordered: both A loads first,
// then both B loads.  The waits were not changed.  Find what broke and fix it with one edit.
// Check:  ./gcnlint docs/tutorial/exercises/ex3_prologue_order.s
//         ./gcnsim -q --manifest docs/tutorial/exercises/ex3_prologue_order.json
// check: lds-dma-pending
//
// Arguments, registers, LDS: as kernels/vector_add/vector_add.s (see its header).
.amdhsa_code_object_version 5

.text
.globl ex3_prologue_order
.p2align 8
.type ex3_prologue_order,@function
ex3_prologue_order:
    s_load_dwordx8 s[4:11], s[0:1], 0x0           // A, B, C, N, stride
    v_readfirstlane_b32 s24, v0                   // work-item id of lane 0 = 64 * wave index
    s_lshl_b32 s29, s2, 8                         // first element of the workgroup: wg * 256
    v_add_u32 v1, s29, v0                         // idx = wg*256 + tid
    v_lshlrev_b32 v1, 2, v1                       // byte offset of idx
    v_lshlrev_b32 v3, 2, v0                       // LDS address of this lane in a region
    s_lshl_b32 s24, s24, 2                        // M0 for buffer 0, A region (wave base)
    s_add_u32 s25, s24, 0x400                     // buffer 0, B region
    s_add_u32 s26, s24, 0x800                     // buffer 1, A region
    s_add_u32 s27, s24, 0xc00                     // buffer 1, B region
    s_waitcnt lgkmcnt(0)                          // kernargs have arrived
    s_lshl_b32 s28, s11, 2                        // stride in bytes
    s_lshl_b32 s14, s10, 2                        // num_records = N * 4
    s_mov_b32 s12, s4                             // descriptor of A: base[31:0]
    s_and_b32 s13, s5, 0xffff                     //   base[47:32], stride 0, no swizzle
    s_mov_b32 s15, 0x20000                        //   word 3: raw 32-bit buffer
    s_mov_b32 s16, s6                             // descriptor of B
    s_and_b32 s17, s7, 0xffff
    s_mov_b32 s18, s14
    s_mov_b32 s19, s15
    s_mov_b32 s20, s8                             // descriptor of C
    s_and_b32 s21, s9, 0xffff
    s_mov_b32 s22, s14
    s_mov_b32 s23, s15

    // Prologue: fill both buffers (halves 0 and 1), A loads first, then wait for buffer 0 only.
    s_mov_b32 m0, s24
    v_add_u32 v2, s28, v1                         // offset of idx + stride (and M0 wait state)
    buffer_load_dword v1, s[12:15], 0 offen lds   // A[idx]          -> buffer 0 A   vmcnt 1
    s_mov_b32 m0, s26
    s_nop 0
    buffer_load_dword v2, s[12:15], 0 offen lds   // A[idx+stride]   -> buffer 1 A   vmcnt 2
    s_mov_b32 m0, s25
    s_nop 0
    buffer_load_dword v1, s[16:19], 0 offen lds   // B[idx]          -> buffer 0 B   vmcnt 3
    s_mov_b32 m0, s27
    s_nop 0
    buffer_load_dword v2, s[16:19], 0 offen lds   // B[idx+stride]   -> buffer 1 B   vmcnt 4
    v_add_u32 v2, s28, v2                         // offset of idx + 2*stride
    s_waitcnt vmcnt(2)                            // buffer 0 has arrived; buffer 1 in flight

.Lbuf0:                                           // even halves: read buffer 0
    ds_read_b32 v4, v3                            // A
    ds_read_b32 v5, v3 offset:1024                // B
    s_waitcnt lgkmcnt(0)                          // buffer 0 is free again
    s_mov_b32 m0, s24
    v_add_f32 v4, v4, v5                          // A + B (and M0 wait state)
    buffer_load_dword v2, s[12:15], 0 offen lds   // prefetch A[idx+2*stride] -> buffer 0 A
    s_mov_b32 m0, s25
    s_nop 0
    buffer_load_dword v2, s[16:19], 0 offen lds   // prefetch B[idx+2*stride] -> buffer 0 B
    buffer_store_dword v4, v1, s[20:23], 0 offen  // C[idx] (dropped past the end)
    v_add_u32 v1, s28, v1                         // idx += stride
    v_add_u32 v2, s28, v2
    v_cmp_gt_u32 vcc, s14, v1                     // lanes with idx < N
    s_cbranch_vccz .Ldone                         // none: this wave is finished
    s_waitcnt vmcnt(3)                            // buffer 1 has arrived (forced by iteration 1)

.Lbuf1:                                           // odd halves: read buffer 1
    ds_read_b32 v4, v3 offset:2048                // A
    ds_read_b32 v5, v3 offset:3072                // B
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, s26
    v_add_f32 v4, v4, v5
    buffer_load_dword v2, s[12:15], 0 offen lds   // prefetch A[idx+2*stride] -> buffer 1 A
    s_mov_b32 m0, s27
    s_nop 0
    buffer_load_dword v2, s[16:19], 0 offen lds   // prefetch B[idx+2*stride] -> buffer 1 B
    buffer_store_dword v4, v1, s[20:23], 0 offen  // C[idx]
    v_add_u32 v1, s28, v1
    v_add_u32 v2, s28, v2
    v_cmp_gt_u32 vcc, s14, v1
    s_cbranch_vccz .Ldone
    s_waitcnt vmcnt(4)                            // buffer 0 has arrived
    s_branch .Lbuf0

.Ldone:
    s_waitcnt vmcnt(0)                            // nothing may still write our LDS
    s_endpgm
.Lex3_prologue_order_end:
.size ex3_prologue_order, .Lex3_prologue_order_end - ex3_prologue_order

.rodata
.p2align 6
.amdhsa_kernel ex3_prologue_order
    .amdhsa_group_segment_fixed_size 4096
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
  - .name: ex3_prologue_order
    .symbol: ex3_prologue_order.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4096
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

// vector_add.s -- C[i] = A[i] + B[i] on f32 arrays, hand-written for gfx942 and gfx950.
//
// The five patterns of seed 001, written anew:
//   1. persistent grid-stride loop: the host launches WG workgroups of 256 work-items and
//      passes stride = WG*256; each lane handles idx, idx+stride, idx+2*stride, ...
//   2. double LDS buffer: buffer 0 and buffer 1, each with an A and a B region of 1 KiB;
//      the loop is unrolled twice (.Lbuf0 reads buffer 0, .Lbuf1 reads buffer 1) and each
//      half prefetches two halves ahead into the buffer it has just read;
//   3. `buffer_load_dword ... offen lds`: global memory straight into LDS at
//      M0 + lane*4, bypassing VGPRs (M0 is written by an SALU instruction and read by the
//      LDS-DMA load one wait state later: GCNHazardRecognizer::checkReadM0Hazards,
//      hasReadM0LdsDmaHazard on GFX9, so there is always one instruction in between);
//   4. out-of-bounds control by num_records = N*4 in every buffer descriptor: loads past
//      the end return 0, stores past the end are dropped; EXEC is never written;
//   5. vmcnt pipelining at the loosest safe waits: vmcnt(2) after the prologue,
//      vmcnt(3) after the buffer-0 half, vmcnt(4) after the buffer-1 half.  The buffer-0
//      wait is forced to 3 by the first loop iteration only (its FIFO holds no store of
//      an earlier half); README.md has the FIFO arithmetic, tests/kernels/vmcnt_model.py
//      checks it.
//
// Kernel arguments (32 bytes): A (8), B (8), C (8), N (u32, elements), stride (u32, elements
// = grid work-items).  1-D workgroups of 256 work-items (4 waves); LDS 4 KiB.
// Limit: (N + 2*stride) * 4 must fit in 32 bits (byte offsets are 32-bit).
//
// Registers:
//   s[0:1] kernarg pointer, s2 workgroup id x (set up by the dispatch)
//   s[4:11]  kernargs: A s[4:5], B s[6:7], C s[8:9], N s10, stride s11
//   s[12:15] descriptor of A, s[16:19] of B, s[20:23] of C (num_records = N*4)
//   s24..s27 M0 values: buffer 0 A, buffer 0 B, buffer 1 A, buffer 1 B (this wave's part)
//   s28 stride in bytes, s29 scratch
//   v0 work-item id, v1 byte offset of the current element, v2 byte offset of the element
//   two halves ahead (prefetch), v3 LDS byte address of this lane within a region (tid*4),
//   v4 A value and then the sum, v5 B value
//
// No .amdgcn_target line: one source serves both targets and the assembler takes the
// target (ELF e_flags) from -mcpu; an explicit line would have to equal that target id.

.amdhsa_code_object_version 5

.text
.globl vector_add
.p2align 8
.type vector_add,@function
vector_add:
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

    // Prologue: fill both buffers (halves 0 and 1), then wait for buffer 0 only.
    s_mov_b32 m0, s24
    v_add_u32 v2, s28, v1                         // offset of idx + stride (and M0 wait state)
    buffer_load_dword v1, s[12:15], 0 offen lds   // A[idx]          -> buffer 0 A   vmcnt 1
    s_mov_b32 m0, s25
    s_nop 0
    buffer_load_dword v1, s[16:19], 0 offen lds   // B[idx]          -> buffer 0 B   vmcnt 2
    s_mov_b32 m0, s26
    s_nop 0
    buffer_load_dword v2, s[12:15], 0 offen lds   // A[idx+stride]   -> buffer 1 A   vmcnt 3
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
.Lvector_add_end:
.size vector_add, .Lvector_add_end - vector_add

.rodata
.p2align 6
.amdhsa_kernel vector_add
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
  - .name: vector_add
    .symbol: vector_add.kd
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

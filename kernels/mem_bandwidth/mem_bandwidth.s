// mem_bandwidth.s -- memory-read bandwidth kernel for gfx942 and gfx950: every work-item
// streams 16-byte vectors with global_load_dwordx4 along a grid-stride loop and sums all
// their dwords (u32, wrapping) so the loads are not dead; out[gid] = that sum.
//
//   out[gid] = sum over i = gid, gid+stride, ... < N of in[i].x + in[i].y + in[i].z + in[i].w
//
// Structure:
//   - main loop, while the whole wave has four vectors in range (a scalar test on the wave's
//     highest index, so EXEC stays full): four global_load_dwordx4 in flight, each from its
//     own scalar base (in + k*stride*16, k = 0..3) with one shared VGPR offset, consumed in
//     issue order with vmcnt(3), vmcnt(2), vmcnt(1), vmcnt(0) (the loosest waits: vector
//     memory returns in order);
//   - tail loop, one vector at a time under an EXEC mask that only shrinks
//     (v_cmp + s_and_b64 exec; s_cbranch_execz leaves), vmcnt(0);
//   - EXEC restored from the copy taken before the tail, one global_store_dword per lane.
//
// Kernel arguments (24 bytes): in (8), out (8), N (u32: number of 16-byte vectors), stride
// (u32: grid work-items = WG*256).  1-D workgroups of 256 work-items; no LDS.
// Limits: N*16 and (N + 4*stride) fit in 32 bits.
//
// Registers:
//   s[0:1] kernarg pointer, s2 workgroup id x
//   s[4:7] in, out; s8 N; s9 stride; s10 N*16 (byte limit); s11 stride*16 (byte step)
//   s12 index of the wave's lane 0 for the current main-loop iteration; s13 scratch
//   s[14:15] saved EXEC; s[16:23] four scalar bases in + k*stride*16
//   s24 3*stride + 63 (highest index of the iteration minus s12); s25 4*stride*16; s26 4*stride
//   v0 work-item id, v1 byte offset of the current vector (k = 0), v2 output byte offset,
//   v[4:19] the four loaded vectors, v20 the sum
//
// No .amdgcn_target line: one source serves both targets; the assembler takes the target
// from -mcpu.

.amdhsa_code_object_version 5

.text
.globl mem_bandwidth
.p2align 8
.type mem_bandwidth,@function
mem_bandwidth:
    s_load_dwordx4 s[4:7], s[0:1], 0x0            // in, out
    s_load_dwordx2 s[8:9], s[0:1], 0x10           // N, stride
    v_readfirstlane_b32 s12, v0                   // work-item id of lane 0
    s_lshl_b32 s13, s2, 8                         // wg * 256
    v_add_u32 v1, s13, v0                         // gid
    v_lshlrev_b32 v2, 2, v1                       // out offset: gid * 4
    v_lshlrev_b32 v1, 4, v1                       // in offset: gid * 16
    v_mov_b32 v20, 0                              // sum
    s_add_u32 s12, s12, s13                       // gid of lane 0
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s10, s8, 4                         // N * 16
    s_lshl_b32 s11, s9, 4                         // stride * 16
    s_mov_b32 s16, s4                             // base 0 = in
    s_mov_b32 s17, s5
    s_add_u32 s18, s16, s11                       // base 1 = in + stride*16
    s_addc_u32 s19, s17, 0
    s_add_u32 s20, s18, s11                       // base 2
    s_addc_u32 s21, s19, 0
    s_add_u32 s22, s20, s11                       // base 3
    s_addc_u32 s23, s21, 0
    s_mul_i32 s24, s9, 3
    s_add_u32 s24, s24, 63                        // 3*stride + 63
    s_lshl_b32 s25, s11, 2                        // 4 * stride * 16
    s_lshl_b32 s26, s9, 2                         // 4 * stride

.Lmain:                                           // four vectors per lane, EXEC full
    s_add_u32 s13, s12, s24                       // highest index this iteration reads
    s_cmp_lt_u32 s13, s8
    s_cbranch_scc0 .Ltail                         // not all in range: finish in the tail
    global_load_dwordx4 v[4:7], v1, s[16:17]      // in[idx]                 vmcnt 1
    global_load_dwordx4 v[8:11], v1, s[18:19]     // in[idx + stride]        vmcnt 2
    global_load_dwordx4 v[12:15], v1, s[20:21]    // in[idx + 2*stride]      vmcnt 3
    global_load_dwordx4 v[16:19], v1, s[22:23]    // in[idx + 3*stride]      vmcnt 4
    v_add_u32 v1, s25, v1                         // idx += 4*stride
    s_add_u32 s12, s12, s26
    s_waitcnt vmcnt(3)                            // the first vector has arrived
    v_add3_u32 v20, v20, v4, v5
    v_add3_u32 v20, v20, v6, v7
    s_waitcnt vmcnt(2)
    v_add3_u32 v20, v20, v8, v9
    v_add3_u32 v20, v20, v10, v11
    s_waitcnt vmcnt(1)
    v_add3_u32 v20, v20, v12, v13
    v_add3_u32 v20, v20, v14, v15
    s_waitcnt vmcnt(0)
    v_add3_u32 v20, v20, v16, v17
    v_add3_u32 v20, v20, v18, v19
    s_branch .Lmain

.Ltail:                                           // one vector per lane, EXEC shrinking
    s_mov_b64 s[14:15], exec
.Ltail_loop:
    v_cmp_gt_u32 vcc, s10, v1                     // lanes whose vector is in range
    s_and_b64 exec, exec, vcc
    s_cbranch_execz .Lstore
    global_load_dwordx4 v[4:7], v1, s[16:17]
    v_add_u32 v1, s11, v1                         // idx += stride
    s_waitcnt vmcnt(0)
    v_add3_u32 v20, v20, v4, v5
    v_add3_u32 v20, v20, v6, v7
    s_branch .Ltail_loop

.Lstore:
    s_mov_b64 exec, s[14:15]                      // every lane writes its sum
    global_store_dword v2, v20, s[6:7]
    s_endpgm
.Lmem_bandwidth_end:
.size mem_bandwidth, .Lmem_bandwidth_end - mem_bandwidth

.rodata
.p2align 6
.amdhsa_kernel mem_bandwidth
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 24
    .amdhsa_next_free_sgpr 27
    .amdhsa_accum_offset 24
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: mem_bandwidth
    .symbol: mem_bandwidth.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 33
    .vgpr_count: 24
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 16, .value_kind: by_value}
      - {.name: stride, .size: 4, .offset: 20, .value_kind: by_value}
...
.end_amdgpu_metadata

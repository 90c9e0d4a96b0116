// hz_readfirstlane.s -- tutorial chapter 5, BROKEN on purpose (a hazard): lds_dma.s with the
// wave's LDS base computed by a VALU instruction into v3 and read by v_readfirstlane_b32
// right after it.  A VALU write of a VGPR needs one wait state before v_readfirstlane_b32 /
// v_readlane_b32 reads it (LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard);
// with none, the read may see the value from before the write, here 0 for every wave, so
// all four waves of a workgroup load into the first wave's part of LDS.  Fix: one
// instruction (s_nop 0) between the two.
//
// Arguments, registers, LDS: as lds_dma.s.
.amdhsa_code_object_version 5
.text
.globl hz_readfirstlane
.p2align 8
.type hz_readfirstlane,@function
hz_readfirstlane:
    s_load_dwordx8 s[4:11], s[0:1], 0x0        // A, B, C, N, stride
    s_lshl_b32 s29, s2, 8                      // first element of the workgroup: wg * 256
    v_add_u32 v1, s29, v0                      // idx = wg*256 + tid
    v_lshlrev_b32 v1, 2, v1                    // byte offset of idx
    v_lshlrev_b32 v3, 2, v0                    // LDS address of this lane in a region
    v_readfirstlane_b32 s24, v3                // HAZARD: reads v3 one instruction too early
    s_add_u32 s25, s24, 0x400                  // M0 for the B region
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    s_lshl_b32 s28, s11, 2                     // stride in bytes
    s_lshl_b32 s14, s10, 2                     // num_records = N * 4 bytes
    s_mov_b32 s12, s4                          // V# of A
    s_and_b32 s13, s5, 0xffff
    s_mov_b32 s15, 0x20000
    s_mov_b32 s16, s6                          // V# of B
    s_and_b32 s17, s7, 0xffff
    s_mov_b32 s18, s14
    s_mov_b32 s19, s15
    s_mov_b32 s20, s8                          // V# of C
    s_and_b32 s21, s9, 0xffff
    s_mov_b32 s22, s14
    s_mov_b32 s23, s15
.Lloop:
    s_mov_b32 m0, s24
    s_nop 0                                    // M0 -> LDS-DMA: one wait state
    buffer_load_dword v1, s[12:15], 0 offen lds    // A[idx] -> LDS A region
    s_mov_b32 m0, s25
    s_nop 0
    buffer_load_dword v1, s[16:19], 0 offen lds    // B[idx] -> LDS B region
    s_waitcnt vmcnt(0)                         // both in LDS (and the previous store done)
    ds_read_b32 v4, v3                         // A
    ds_read_b32 v5, v3 offset:1024             // B
    s_waitcnt lgkmcnt(0)
    v_add_f32 v4, v4, v5
    buffer_store_dword v4, v1, s[20:23], 0 offen   // C[idx]
    v_add_u32 v1, s28, v1                      // idx += stride
    v_cmp_gt_u32 vcc, s14, v1
    s_cbranch_vccnz .Lloop
    s_endpgm
.Lhz_readfirstlane_end:
.size hz_readfirstlane, .Lhz_readfirstlane_end - hz_readfirstlane

.rodata
.p2align 6
.amdhsa_kernel hz_readfirstlane
    .amdhsa_group_segment_fixed_size 2048
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
  - .name: hz_readfirstlane
    .symbol: hz_readfirstlane.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
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

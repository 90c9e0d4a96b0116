// wave_reduce.s -- sum of 64 f32 values per wave with a six-stage DPP reduction; gfx942,
// gfx950.  Wave w (w = workgroup*4 + wave in workgroup) sums in[64w .. 64w+63] (0 past N)
// and writes the sum to out[w].
//
// Stages (v_add_f32_dpp v2, v2, v2 CTRL: dst = v2[source lane] + v2[own lane] in the lanes
// CTRL enables; other lanes keep v2):
//   1. quad_perm:[1,0,3,2]          lane l takes l^1        -> pair sums
//   2. quad_perm:[2,3,0,1]          lane l takes l^2        -> quad sums Q (all 4 lanes equal)
//   3. row_half_mirror              lane l takes 7-l (in 8) -> half-row sums H = Q1+Q0 or Q0+Q1
//   4. row_mirror                   lane l takes 15-l (16)  -> row sums R (all 16 lanes equal)
//   5. row_bcast:15 row_mask:0xa    rows 1 and 3 take lane 15 of the row below: R0+R1, R2+R3
//   6. row_bcast:31 row_mask:0xc    rows 2 and 3 take lane 31: lane 63 = (R0+R1) + (R2+R3)
// Only symmetric exchanges are used up to stage 4, so every lane of a quad/half-row/row
// holds bit-identical values (a+b == b+a in IEEE arithmetic); no source lane is ever out of
// range, so bound_ctrl does not matter.  row_bcast is accepted by LLVM 22 on gfx942/gfx950
// (GCNSubtarget::hasDPPBroadcasts: GFX9 generation).
// Hazard: a DPP instruction needs 2 wait states after any write of a VGPR it reads
// (GCNHazardRecognizer::checkDPPHazards, DppVgprWaitStates = 2): s_nop 1 between stages.
// The result leaves lane 63 by a global_store_dword with EXEC = lane 63 only.
//
// Kernel arguments (20 bytes): in (8), out (8), N (u32, elements).
// Grid ((N+255)/256) workgroups of 256 work-items; out holds 4 floats per workgroup.
//
// Registers: s[0:1] kernarg pointer, s2 workgroup id x, s[4:7] in, out, s8 N,
//   s9 scratch, s10 output byte offset of this wave, s[12:15] descriptor of in (num_records
//   N*4: lanes past the end load 0); v0 work-item id, v1 input byte offset, v2 the value,
//   v3 output byte offset
//
// No .amdgcn_target line: one source serves both targets; the assembler takes the target
// from -mcpu.

.amdhsa_code_object_version 5

.text
.globl wave_reduce
.p2align 8
.type wave_reduce,@function
wave_reduce:
    s_load_dwordx4 s[4:7], s[0:1], 0x0            // in, out
    s_load_dword s8, s[0:1], 0x10                 // N
    v_readfirstlane_b32 s10, v0                   // work-item id of lane 0 = 64 * wave index
    s_lshl_b32 s9, s2, 8                          // wg * 256
    v_add_u32 v1, s9, v0                          // gid
    v_lshlrev_b32 v1, 2, v1                       // input byte offset
    s_lshr_b32 s10, s10, 6                        // wave index in the workgroup
    s_lshl_b32 s9, s2, 2                          // wg * 4
    s_add_u32 s10, s10, s9                        // wave index in the grid
    s_lshl_b32 s10, s10, 2                        // output byte offset
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s12, s4                             // descriptor of in
    s_and_b32 s13, s5, 0xffff
    s_lshl_b32 s14, s8, 2                         // num_records = N * 4
    s_mov_b32 s15, 0x20000
    buffer_load_dword v2, v1, s[12:15], 0 offen   // in[gid], 0 past the end
    v_mov_b32 v3, s10
    s_waitcnt vmcnt(0)
    s_nop 1
    v_add_f32_dpp v2, v2, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    s_nop 1
    v_add_f32_dpp v2, v2, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
    s_nop 1
    v_add_f32_dpp v2, v2, v2 row_half_mirror row_mask:0xf bank_mask:0xf
    s_nop 1
    v_add_f32_dpp v2, v2, v2 row_mirror row_mask:0xf bank_mask:0xf
    s_nop 1
    v_add_f32_dpp v2, v2, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
    s_nop 1
    v_add_f32_dpp v2, v2, v2 row_bcast:31 row_mask:0xc bank_mask:0xf
    s_mov_b32 exec_lo, 0                          // lane 63 only
    s_mov_b32 exec_hi, 0x80000000
    global_store_dword v3, v2, s[6:7]             // out[wave] = lane 63
    s_endpgm
.Lwave_reduce_end:
.size wave_reduce, .Lwave_reduce_end - wave_reduce

.rodata
.p2align 6
.amdhsa_kernel wave_reduce
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 20
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
  - .name: wave_reduce
    .symbol: wave_reduce.kd
    .kernarg_segment_size: 20
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 22
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 16, .value_kind: by_value}
...
.end_amdgpu_metadata

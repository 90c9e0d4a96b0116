// hz_mfma_passes.s -- tutorial chapter 5, BROKEN on purpose (hazards): five MFMAs with 2, 4,
// 8 and 16 passes, each result read by v_accvgpr_read_b32 right after the MFMA that writes
// it.  An MFMA result read by a VALU instruction needs a number of wait states that grows
// with the MFMA's passes (LLVM GCNHazardRecognizer::checkMAIVALUHazards): on gfx942 passes+3
// for XDL MFMAs (f16, bf16, i8, f8 inputs) and passes+2 for the others (f32, f64 inputs);
// gfx950 adds one more to XDL MFMAs of more than 2 passes.  With none, the VALU reads the
// value the register had before the MFMA.  All inputs are 1.0, so every product sum is K
// (4, 16, 8, 4, 4), and the kernel writes what it read, per lane, to out[5*lane .. 5*lane+4].
//
// Arguments: out (8 bytes, 64*5 dwords).  One workgroup of 64.
.amdhsa_code_object_version 5
.text
.globl hz_mfma_passes
.p2align 8
.type hz_mfma_passes,@function
hz_mfma_passes:
    s_load_dwordx2 s[4:5], s[0:1], 0x0         // out
    v_mov_b32 v1, 1.0                          // f32 input 1.0
    v_mov_b32 v2, 0x3c003c00                   // f16 inputs: four halves of 1.0 in v[2:3]
    v_mov_b32 v3, 0x3c003c00
    v_mov_b32 v10, 0                           // what the reads below see if too early
    v_mov_b32 v11, 0
    v_mov_b32 v12, 0
    v_mov_b32 v13, 0
    v_mov_b32 v14, 0
    v_mul_u32_u24 v15, 20, v0                  // byte offset of out[5*lane]
    s_nop 1                                    // VALU write -> MFMA read: 2 wait states
    v_mfma_f32_4x4x4_16b_f16 a[0:3], v[2:3], v[2:3], 0        // XDL, 2 passes
    v_accvgpr_read_b32 v10, a0
    v_mfma_f32_16x16x16_f16 a[4:7], v[2:3], v[2:3], 0         // XDL, 4 passes
    v_accvgpr_read_b32 v11, a4
    v_mfma_f32_32x32x8_f16 a[16:31], v[2:3], v[2:3], 0        // XDL, 8 passes
    v_accvgpr_read_b32 v12, a16
    v_mfma_f32_32x32x4_2b_f16 a[32:63], v[2:3], v[2:3], 0     // XDL, 16 passes
    v_accvgpr_read_b32 v13, a32
    v_mfma_f32_16x16x4_f32 a[8:11], v1, v1, 0                 // not XDL (f32), 8 passes
    v_accvgpr_read_b32 v14, a8
    s_waitcnt lgkmcnt(0)
    global_store_dword v15, v10, s[4:5]
    global_store_dword v15, v11, s[4:5] offset:4
    global_store_dword v15, v12, s[4:5] offset:8
    global_store_dword v15, v13, s[4:5] offset:12
    global_store_dword v15, v14, s[4:5] offset:16
    s_endpgm
.Lhz_mfma_passes_end:
.size hz_mfma_passes, .Lhz_mfma_passes_end - hz_mfma_passes

.rodata
.p2align 6
.amdhsa_kernel hz_mfma_passes
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 80
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: hz_mfma_passes
    .symbol: hz_mfma_passes.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 80
    .agpr_count: 64
    .max_flat_workgroup_size: 64
    .args:
      - {.name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata

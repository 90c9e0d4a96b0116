// sim_template.s -- the template kernel of fuzz_sim (tests/fuzz/fuzz_sim.c): s[0:1] is the
// kernarg pointer, whose first 8 bytes hold a 64 KiB buffer's address; the prologue puts it
// in s[4:5], a buffer descriptor in s[8:11], the work-item's byte offset in v1 and M0 = 0;
// then 512 words of s_nop 0 (the fuzzer's instructions replace them) and s_endpgm.
// Assembled for gfx942 and gfx950 by tests/fuzz/build.sh.
.amdhsa_code_object_version 5
.text
.globl fz
.p2align 8
.type fz,@function
fz:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v2, 0
    s_mov_b32 m0, 0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s4
    s_and_b32 s9, s5, 0xffff
    s_mov_b32 s10, 0x10000
    s_mov_b32 s11, 0x00027000
    .rept 512
    s_nop 0
    .endr
    s_endpgm
.Lfz_end:
.size fz, .Lfz_end - fz
.rodata
.p2align 6
.amdhsa_kernel fz
    .amdhsa_group_segment_fixed_size 4096
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 16
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: fz
    .symbol: fz.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4096
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 32
    .agpr_count: 16
    .max_flat_workgroup_size: 256
    .args:
      - {.name: buf, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata

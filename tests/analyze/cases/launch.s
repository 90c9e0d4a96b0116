// launch.s -- an LDS layout sized for 4 waves in a kernel whose metadata
// allows 8 (max_flat_workgroup_size 512), as AITER's fmha_v4_fwd does: each
// wave writes its 256 bytes at 1024 * wave while every wave reads a table at
// 4096 in the same barrier interval.  With 4 waves the slices end at 4096;
// with 5 or more, wave 4's slice is the table.  gcnlint checks the launch the
// metadata allows, so it reports the race, and says that it needs 5 or more
// waves (test_gcnlint.sh checks the note, and that --workgroup-size=256 lints
// clean while --workgroup-size=512 keeps the error without the note).
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_readfirstlane_b32 s10, v0              // 64 * wave
    s_lshl_b32 s10, s10, 4                   // 1024 * wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                  // 4 * lane
    v_add_u32 v2, s10, v1
    ds_write_b32 v2, v0                      // this wave's slice: 1024 * wave + [0, 256)
    ds_read_b32 v3, v1 offset:4096           // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v5, v3                    // the value read is used (a dead read would race harmlessly)
    s_endpgm
.Lk_end:
.size k, .Lk_end - k
.rodata
.p2align 6
.amdhsa_kernel k
    .amdhsa_group_segment_fixed_size 8192
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 8192
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 512
    .args: []
...
.end_amdgpu_metadata

// wg_paths.s -- workgroups that differ: workgroup 1 spins a while (on threads later workgroups
// end first), workgroup k runs k/3 trips of a loop, then one of
// three paths by k % 3: path 0 waits for its load (clean), path 1 reads the load's
// register before it retires, path 2 reads the second of two loads after a wait that
// retires only the first (two read-before-retire findings at two pcs, first met in
// workgroups 1 and 2).  Workgroup FAULT (an argument; none when out of range) loads from
// address 0 instead: a memory fault.  B[k*64 + lane] = A[lane] + 1 (path 0), + 2 (1) or the
// sum of both loads (2).  tests/sim/test_threads.sh runs it at several -j and compares.
.amdhsa_code_object_version 5
.text
.globl wg_paths
.p2align 8
.type wg_paths,@function
wg_paths:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // A, B
    s_load_dword s8, s[0:1], 0x10               // FAULT
    v_lshlrev_b32 v1, 2, v0                     // lane * 4
    s_lshl_b32 s10, s2, 8                       // workgroup * 256
    v_add_u32 v5, s10, v1
    s_cmp_eq_u32 s2, 1                          // a delay: workgroup 1 spins 2^17 trips,
    s_cbranch_scc0 .Lnodelay                    // so on threads later ones end first
    s_mov_b32 s11, 0x20000
.Ldelay:
    s_sub_u32 s11, s11, 1
    s_cmp_eq_u32 s11, 0
    s_cbranch_scc0 .Ldelay
.Lnodelay:
    s_mov_b32 s9, s2
.Lmod:                                          // s9 = workgroup % 3, k/3 trips
    s_cmp_lt_u32 s9, 3
    s_cbranch_scc1 .Lmodded
    s_sub_u32 s9, s9, 3
    s_branch .Lmod
.Lmodded:
    s_waitcnt lgkmcnt(0)
    s_cmp_eq_u32 s2, s8
    s_cbranch_scc1 .Lfault
    s_cmp_eq_u32 s9, 1
    s_cbranch_scc1 .Lone
    s_cmp_eq_u32 s9, 2
    s_cbranch_scc1 .Ltwo
    global_load_dword v2, v1, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32 v3, 1, v2
    s_branch .Lstore
.Lone:
    global_load_dword v2, v1, s[4:5]
    v_add_u32 v3, 2, v2                         // read-before-retire
    s_branch .Lstore
.Ltwo:
    global_load_dword v2, v1, s[4:5]
    global_load_dword v4, v1, s[4:5]
    s_waitcnt vmcnt(1)
    v_add_u32 v3, v4, v2                        // read-before-retire of v4
    s_branch .Lstore
.Lfault:
    v_mov_b32 v6, 0
    s_mov_b32 s12, 0
    s_mov_b32 s13, 0
    global_load_dword v3, v6, s[12:13]          // address 0: a memory fault
.Lstore:
    s_waitcnt vmcnt(0)
    global_store_dword v5, v3, s[6:7]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel wg_paths
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_kernarg_size 20
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: wg_paths
    .symbol: wg_paths.kd
    .kernarg_segment_size: 20
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: FAULT, .size: 4, .offset: 16, .value_kind: by_value}
...
.end_amdgpu_metadata

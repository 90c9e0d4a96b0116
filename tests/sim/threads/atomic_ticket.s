// atomic_ticket.s -- every work-item takes a ticket from one global counter:
// OUT[global id] = atomic_add(COUNTER, 1) (the old value, returned).  The tickets a
// work-item gets depend on the order in which the workgroups run: gcnsim runs a kernel
// with global atomics in dispatch order on one thread whatever -j says, so workgroup k's
// 128 work-items hold the tickets k*128 .. k*128+127 (tests/sim/test_threads.sh).  A delay
// loop makes the later workgroups (ids below 64) reach the counter first when they run at
// the same time as earlier ones, so a run on threads would show in the tickets.
.amdhsa_code_object_version 5
.text
.globl atomic_ticket
.p2align 8
.type atomic_ticket,@function
atomic_ticket:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // COUNTER, OUT
    s_lshl_b32 s8, s2, 7                        // workgroup id * 128
    v_add_u32 v2, s8, v0                        // global id
    v_lshlrev_b32 v2, 2, v2
    v_mov_b32 v1, 1
    v_mov_b32 v3, 0
    s_sub_u32 s9, 64, s2                        // a delay: later workgroups spin less,
    s_lshl_b32 s9, s9, 6                        // (64 - id) * 64 trips, so on threads they
.Ldelay:                                        // would reach the counter first
    s_sub_u32 s9, s9, 1
    s_cmp_eq_u32 s9, 0
    s_cbranch_scc0 .Ldelay
    s_waitcnt lgkmcnt(0)
    global_atomic_add v4, v3, v1, s[4:5] sc0    // returns the old value
    s_waitcnt vmcnt(0)
    global_store_dword v2, v4, s[6:7]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel atomic_ticket
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_kernarg_size 16
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
  - .name: atomic_ticket
    .symbol: atomic_ticket.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 128
    .args:
      - {.name: COUNTER, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: OUT, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata

"""lds_frame.py -- the kernel frame of the LDS tests (test_lds_race.py, test_lds_pend.py): a
kernel k of 2-4 waves with src, dst and n arguments, 8 KiB of LDS and 16 VGPRs.  Its entry
sets s20 = the wave index, v1 = the lane, v2 = 4 * lane and the buffer descriptor of src
(4 KiB) in s[8:11]; each test adds its own set-up lines (`setup`, between the lane values and
the kernarg wait) and code; the tail waits for everything, runs `last` (lines) and ends.
"""

PRE = """.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_readfirstlane_b32 s20, v0
    s_lshr_b32 s20, s20, 6                    // wave index
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v2, 2, v1                   // 4 * lane
"""

POST = """    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s4                          // buffer descriptor of src (4 KiB)
    s_and_b32 s9, s5, 0xffff
    s_mov_b32 s10, 0x1000
    s_mov_b32 s11, 0x20000
"""

END = """    s_endpgm
.Lk_end:
.size k, .Lk_end - k
.rodata
.p2align 6
.amdhsa_kernel k
    .amdhsa_group_segment_fixed_size 8192
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 16
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 8192
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 16
    .max_flat_workgroup_size: 256
    .args:
      - {.name: src, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: dst, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: n, .offset: 16, .size: 4, .value_kind: by_value}
...
.end_amdgpu_metadata
"""


def head(setup):
    """The kernel's entry with the test's set-up lines (each indented, with its comment)."""
    return PRE + "".join("    %s\n" % l for l in setup) + POST


def tail(last=()):
    """The kernel's end and descriptors, after the test's code: wait, `last`, s_endpgm."""
    return "    s_waitcnt vmcnt(0) lgkmcnt(0)\n" + "".join("    %s\n" % l for l in last) + END

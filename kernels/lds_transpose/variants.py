# variants.py -- the variants of lds_transpose.s (kernels/common/make_variants.py; README.md
# and expect.json say what each must produce in the simulator and the linter).
BASE = "lds_transpose"

SYNC = ("    s_waitcnt lgkmcnt(0)\n"
        "    s_barrier\n")

VARIANTS = [
    ("lds_transpose_no_barrier",
     "BROKEN: no s_barrier between the LDS writes and the LDS reads; every wave reads tile\n"
     "elements that other waves write (README.md).",
     [(SYNC, "    s_waitcnt lgkmcnt(0)                          // BROKEN: no s_barrier\n")]),
    ("lds_transpose_no_wait",
     "BROKEN: s_barrier without s_waitcnt lgkmcnt(0) before it: this wave's ds_write_b32 may\n"
     "still be in flight when other waves pass the barrier and read them (README.md).",
     [(SYNC, "    s_barrier                                     // BROKEN: LDS writes may be pending\n")]),
]

VARIANTS.append(
    ("lds_transpose_no_swizzle",
     "CORRECT BUT SLOW: no XOR swizzle, element (r, c) at LDS word r*32 + c; each column\n"
     "read (32 lanes, rows j = 0..31 of one column i) hits one bank: 32-way conflicts (README.md).",
     [("    v_xor_b32 v10, v1, v2                         // c ^ r0\n",
       "    v_mov_b32 v10, v1                             // c (SLOW: no swizzle)\n"),
      ("    v_xor_b32 v10, v1, v3\n", "    v_mov_b32 v10, v1\n", 3),
      ("    v_xor_b32 v10, v2, v1                         // i ^ j for i = r0\n",
       "    v_mov_b32 v10, v2                             // i (SLOW: no swizzle)\n"),
      ("    v_xor_b32 v10, v3, v1\n", "    v_mov_b32 v10, v3\n", 3)]))

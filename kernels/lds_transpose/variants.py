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

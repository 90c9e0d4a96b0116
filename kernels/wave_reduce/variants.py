# variants.py -- the variants of wave_reduce.s (kernels/common/make_variants.py; README.md
# and expect.json say what each must produce in the simulator and the linter).
BASE = "wave_reduce"

STAGE3 = ("    s_nop 1\n"
          "    v_add_f32_dpp v2, v2, v2 row_half_mirror row_mask:0xf bank_mask:0xf\n")

VARIANTS = [
    ("wave_reduce_dpp_hazard",
     "BROKEN (hazard): stage 3 (row_half_mirror) follows stage 2, which writes the VGPR it\n"
     "reads, after s_nop 0 (1 wait state); a DPP read needs 2 (README.md).",
     [(STAGE3, STAGE3.replace("s_nop 1", "s_nop 0                                       "
                              "// BROKEN: 1 wait state, DPP needs 2"))]),
]

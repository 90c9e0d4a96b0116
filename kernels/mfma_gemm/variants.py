# variants.py -- the hazard-broken variants of mfma_gemm_bf16.s (kernels/common/make_variants.py;
# README.md and expect.json say what the simulator and the linter must report).
BASE = "mfma_gemm_bf16"

NOP = "    s_nop 11                                      // XDL 8-pass result -> VALU read: 11/12\n"

VARIANTS = [
    ("mfma_gemm_bf16_nop_removed",
     "BROKEN: the s_nop 11 before the v_accvgpr_reads is removed: the first read of a0\n"
     "follows the last MFMA after 3 wait states; 11 are needed on gfx942, 12 on gfx950.",
     [(NOP, "")]),
    ("mfma_gemm_bf16_nop_short",
     "BROKEN: s_nop 11 shortened to s_nop 4: 8 wait states before the first\n"
     "v_accvgpr_read; 11 are needed on gfx942, 12 on gfx950.",
     [(NOP, "    s_nop 4                                       // BROKEN: 3 + 5 = 8 wait states\n")]),
]

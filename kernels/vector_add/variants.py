# variants.py -- the variants of vector_add.s (kernels/common/make_variants.py; README.md
# and expect.json say what each must produce in the simulator and the linter).
BASE = "vector_add"

B0_WAIT = "    s_waitcnt vmcnt(3)                            // buffer 1 has arrived (forced by iteration 1)\n"
B1_WAIT = "    s_waitcnt vmcnt(4)                            // buffer 0 has arrived\n"
PRO_WAIT = "    s_waitcnt vmcnt(2)                            // buffer 0 has arrived; buffer 1 in flight\n"
M0_B0B = ("    s_mov_b32 m0, s25\n"
          "    s_nop 0\n"
          "    buffer_load_dword v2, s[16:19], 0 offen lds   // prefetch B[idx+2*stride] -> buffer 0 B\n")

RFL = "    v_readfirstlane_b32 s24, v0                   // work-item id of lane 0 = 64 * wave index\n"

VARIANTS = [
    ("vector_add_weak_loop",
     "BROKEN: the wait after the buffer-0 half is vmcnt(4) instead of vmcnt(3).  Safe on the\n"
     "back edge, wrong on the first loop iteration: the B load of buffer 1 issued by the\n"
     "prologue may still be in flight when .Lbuf1 reads it (README.md).",
     [(B0_WAIT, B0_WAIT.replace("vmcnt(3)", "vmcnt(4)")
       .replace("// buffer 1 has arrived (forced by iteration 1)", "// BROKEN: too weak in iteration 1"))]),
    ("vector_add_weak_prologue",
     "BROKEN: the prologue waits vmcnt(3) instead of vmcnt(2): the B load of buffer 0 may\n"
     "still be in flight when the first .Lbuf0 half reads it (README.md).",
     [(PRO_WAIT, PRO_WAIT.replace("vmcnt(2)", "vmcnt(3)")
       .replace("// buffer 0 has arrived; buffer 1 in flight", "// BROKEN: B of buffer 0 may be in flight"))]),
    ("vector_add_tight",
     "CORRECT BUT SLOW: both in-loop waits are vmcnt(0), which also drains the prefetches\n"
     "just issued and the store; no overlap of memory and work is left (README.md).",
     [(B0_WAIT, B0_WAIT.replace("vmcnt(3)", "vmcnt(0)")
       .replace("// buffer 1 has arrived (forced by iteration 1)", "// SLOW: vmcnt(3) suffices")),
      (B1_WAIT, B1_WAIT.replace("vmcnt(4)", "vmcnt(0)")
       .replace("// buffer 0 has arrived", "// SLOW: vmcnt(4) suffices"))]),
    ("vector_add_m0_hazard",
     "BROKEN (hazard): in .Lbuf0 the M0 write for the B prefetch is directly followed by the\n"
     "LDS-DMA load that reads M0; one wait state is required (README.md).",
     [(M0_B0B, M0_B0B.replace("    s_nop 0\n", "")
       .replace("// prefetch B[idx+2*stride] -> buffer 0 B", "// BROKEN: M0 hazard, 0 wait states"))]),
    ("vector_add_masked_wave",
     "CORRECT: masks the wave's first work-item id with s_and_b32 0xc0 before it becomes M0\n"
     "(redundant for 4 waves).  The idiom that made the old value analysis give up on every\n"
     "LDS address: gcnlint must prove it clean like the base (README.md).",
     [(RFL, RFL + "    s_and_b32 s24, s24, 0xc0                      // still 64 * wave index (4 waves)\n")]),
]

# variants.py -- the variants of lds_histogram.s (kernels/common/make_variants.py; README.md
# and expect.json say what each must produce in the simulator and the linter).
BASE = "lds_histogram"

ADD = "    ds_add_u32 v6, v5                             // bin += 1, atomically\n"
ZERO_SYNC = ("    s_lshl_b32 s13, s12, 2                        // ... in bytes\n"
             "    s_barrier                                     // every bin is zero\n")
COUNT_SYNC = ("    s_waitcnt lgkmcnt(0)                          // 3. this wave's adds are done ...\n"
              "    s_barrier                                     // ... and every other wave's\n")

VARIANTS = [
    ("lds_histogram_rmw",
     "BROKEN (race): the bin is counted with a plain read-modify-write (ds_read_b32, v_add_u32,\n"
     "ds_write_b32) instead of the atomic ds_add_u32; two waves that count into one bin read the\n"
     "same old value and one increment is lost (README.md).",
     [(ADD, "    ds_read_b32 v9, v6                            // BROKEN: not atomic\n"
            "    s_waitcnt lgkmcnt(0)\n"
            "    v_add_u32 v9, 1, v9\n"
            "    ds_write_b32 v6, v9\n")]),
    ("lds_histogram_no_zero_barrier",
     "BROKEN (race): no s_barrier between zeroing the bins and counting into them; a wave may add\n"
     "into a bin that another wave zeroes later (an atomic against a plain write, README.md).",
     [(ZERO_SYNC, ZERO_SYNC.replace("    s_barrier                                     // every bin is zero\n",
                                    "                                                  // BROKEN: no s_barrier\n"))]),
    ("lds_histogram_no_count_barrier",
     "BROKEN (race): no s_barrier between the counting and reading the bins back; a wave may read\n"
     "a bin that another wave still adds into (an atomic against a plain read, README.md).",
     [(COUNT_SYNC, "    s_waitcnt lgkmcnt(0)                          // BROKEN: no s_barrier\n")]),
]

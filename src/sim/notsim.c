/*
 * notsim.c -- ISA rows deliberately without a semantic body, each with the
 * reason the simulator gives when a kernel executes one ("instruction X is
 * not simulated: <reason>").  A pattern is an id name or a prefix ending in
 * '*'.  tests/sim/test_registry checks that every row has a body or an entry
 * here, so a new row never becomes a silent no-op.
 */
#include "sim_int.h"

const sim_notsim_ent sim_notsim[] = {
    {"V_MFMA_LD_SCALE_B32", "v_mfma_ld_scale_b32 acts only as the first half of a scaled "
                            "MFMA pair (decoded and simulated as v_mfma_scale_*); alone it "
                            "is not modelled"},
    {"DS_GWS_*", "global wave sync (GWS) is not modelled: its resources live in GDS (reserved "
                 "on gfx950, CDNA4 ISA Table 57) and synchronise waves across workgroups, which "
                 "gcnsim runs one after another, so a GWS barrier or semaphore wait on another "
                 "workgroup could never be satisfied"},
    {"DS_ORDERED_COUNT", "ordered count is not modelled: it updates GDS ordered-count "
                         "counters (reserved on gfx950) in wave-creation order across the "
                         "dispatch, which gcnsim does not have"},
    {"DS_*_SRC2_*", "LDS src2 forms are not modelled"},
    {"S_SCRATCH_*", "scalar scratch access is not modelled: the ISA gives ADDR = SGPR[base] + "
                    "inst_offset + offset * 64 (CDNA4 ISA 8.2.1.1) but not how that wave address "
                    "maps onto the swizzled per-lane private segment gcnsim models"},
    {"S_RFE_*", "trap handler return is not modelled"},
    {"S_ENDPGM_ORDERED_PS_DONE", "pixel-shader ordering is not modelled"},
    {"V_INTERP_*", "pixel interpolation is not modelled"},
    {"V_SCREEN_PARTITION_4SE_B32", "graphics screen partitioning: the CDNA3/CDNA4 ISA names it "
                                   "but gives no definition (no pseudo-code, no lookup table)"},
    {NULL, NULL}
};

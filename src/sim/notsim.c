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
    {"BUFFER_LOAD_FORMAT_*", "typed buffer formats (DATA_FORMAT/NUM_FORMAT conversion)"},
    {"BUFFER_STORE_FORMAT_*", "typed buffer formats (DATA_FORMAT/NUM_FORMAT conversion)"},
    {"TBUFFER_*", "typed buffer formats (DATA_FORMAT/NUM_FORMAT conversion)"},
    {"DS_GWS_*", "global wave sync (GWS) is not modelled"},
    {"DS_ORDERED_COUNT", "ordered count (GDS) is not modelled"},
    {"DS_APPEND", "GDS/LDS append counters are not modelled"},
    {"DS_CONSUME", "GDS/LDS append counters are not modelled"},
    {"DS_*_SRC2_*", "LDS src2 forms are not modelled"},
    {"DS_CONDXCHG32_RTN_B64", "conditional exchange is not modelled"},
    {"DS_WRXCHG2*", "two-address exchanges are not modelled"},
    {"DS_CMPST_RTN_F*", "float compare-store is not modelled"},
    {"DS_CMPST_F*", "float compare-store is not modelled"},
    {"DS_WRAP_RTN_B32", "ds_wrap is not modelled"},
    {"DS_READ_B64_TR_*", "gfx950 transposing LDS reads are not modelled yet"},
    {"DS_READ_B96_TR_*", "gfx950 transposing LDS reads are not modelled yet"},
    {"S_ATOMIC_*", "scalar atomics are not modelled"},
    {"S_BUFFER_ATOMIC_*", "scalar atomics are not modelled"},
    {"S_SCRATCH_*", "scalar scratch access is not modelled"},
    {"S_ATC_PROBE*", "address translation probes are not modelled"},
    {"S_RFE_*", "trap handler return is not modelled"},
    {"S_SET_GPR_IDX_ON", "VGPR index mode (M0[7:0] added to the VGPR operands M0[15:12] "
                          "selects of later VALU instructions) would re-address pre-decoded "
                          "operands at run time; not modelled"},
    {"S_SET_GPR_IDX_IDX", "VGPR index mode (M0[7:0] added to the VGPR operands M0[15:12] "
                          "selects of later VALU instructions) would re-address pre-decoded "
                          "operands at run time; not modelled"},
    {"S_SET_GPR_IDX_MODE", "VGPR index mode (M0[7:0] added to the VGPR operands M0[15:12] "
                          "selects of later VALU instructions) would re-address pre-decoded "
                          "operands at run time; not modelled"},
    {"S_SETVSKIP", "VSKIP mode (vector and memory instructions not issued) would "
                    "need the dispatcher to skip them; not modelled"},
    {"S_ENDPGM_ORDERED_PS_DONE", "pixel-shader ordering is not modelled"},
    {"V_INTERP_*", "pixel interpolation is not modelled"},
    {"V_SCREEN_PARTITION_4SE_B32", "graphics screen partitioning: the CDNA3/CDNA4 ISA names it "
                                   "but gives no definition (no pseudo-code, no lookup table)"},
    {NULL, NULL}
};

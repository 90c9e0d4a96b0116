/*
 * gcn_facts.h -- the bits of the generated per-row facts table src/decode/isa/facts.def
 * (tools/isagen/facts.py): one FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) row per INSN row.
 *
 *   CTL     control-flow kind, a gcn_lkind name without GCN_LK_ (below)
 *   ALU     value-analysis ALU class, a gcn_lalu name without GCN_LA_ (src/analyze/lint.h)
 *   LDS     GCN_FX_LDS_R / GCN_FX_LDS_W: what a DS row does to LDS memory
 *   EBYTES  bytes per lane of one data element of a memory row (0 for other rows)
 *   MEMX    GCN_FX_TWO_ADDR, GCN_FX_ST64, GCN_FX_SCC_CARRY, GCN_FX_UNSIGNED
 *   HZ      GCN_HR_* hazard roles (the classes src/analyze/hazards.def names that the
 *           format and the FLAGS column do not give)
 *
 * A consumer defines FACT() to pick the columns it needs and includes "isa/facts.def"
 * (see src/analyze/classify.c and hazard.c); the rows are keyed by ID, so the table can be
 * indexed by gcn_insn_id with designated initializers.
 */
#ifndef GCN_FACTS_H
#define GCN_FACTS_H

/* CTL column: the control-flow kinds (the analyzer's CFG, the simulator's loop check) */
enum gcn_lkind {
    GCN_LK_OTHER = 0,
    GCN_LK_INVALID,    /* no instruction on the target */
    GCN_LK_BRANCH,     /* s_branch */
    GCN_LK_CBRANCH,    /* s_cbranch_*: target and fall-through */
    GCN_LK_SETPC,      /* s_setpc_b64: target from a register pair */
    GCN_LK_SWAPPC,     /* s_swappc_b64: call through a register pair */
    GCN_LK_CALL,       /* s_call_b64: call to a pc-relative target */
    GCN_LK_GETPC,      /* s_getpc_b64 */
    GCN_LK_ENDPGM,     /* s_endpgm*, s_rfe_b64: no successor */
    GCN_LK_WAITCNT,    /* s_waitcnt */
    GCN_LK_BARRIER,    /* s_barrier */
    GCN_LK_NOP,        /* s_nop */
};

/* LDS and MEMX columns */
#define GCN_FX_LDS_R      (1u << 0)  /* reads LDS memory (loads, atomics, returning ops) */
#define GCN_FX_LDS_W      (1u << 1)  /* writes LDS memory (stores, atomics) */
#define GCN_FX_TWO_ADDR   (1u << 2)  /* ds_read2/write2/wrxchg2: offset0/offset1 in elements */
#define GCN_FX_ST64       (1u << 3)  /* ... in units of 64 elements (the st64 forms) */
#define GCN_FX_SCC_CARRY  (1u << 4)  /* SALU add/sub: SCC is the unsigned carry/borrow */
#define GCN_FX_UNSIGNED   (1u << 5)  /* s_cmp_*_u32: the operands compare as unsigned */

/* HZ column */
#define GCN_HR_DGEMM4     (1u << 0)  /* v_mfma_f64_4x4x4_4b_f64 */
#define GCN_HR_DGEMM16    (1u << 1)  /* v_mfma_f64_16x16x4_f64 */
#define GCN_HR_DOT        (1u << 2)  /* v_dot* */
#define GCN_HR_READLANE   (1u << 3)  /* reads a VGPR into an SGPR: v_readlane, v_readfirstlane */
#define GCN_HR_WRITELANE  (1u << 4)  /* v_writelane_b32 */
#define GCN_HR_RWLANE     (1u << 5)  /* lane select from an SGPR: v_readlane/v_writelane */
#define GCN_HR_DIVFMAS    (1u << 6)  /* reads VCC implicitly: v_div_fmas_* */
#define GCN_HR_SETREG     (1u << 7)
#define GCN_HR_GETREG     (1u << 8)
#define GCN_HR_RFE        (1u << 9)
#define GCN_HR_M0READ     (1u << 10) /* reads M0 implicitly (movrel, sendmsg, ttracedata, addtid) */
#define GCN_HR_FMA64      (1u << 11)
#define GCN_HR_PERMSWAP   (1u << 12) /* v_permlane16/32_swap */
#define GCN_HR_TIED_SRC2  (1u << 13) /* src2 tied to vdst (v_fmac, v_mac, v_dot*c, v_pk_fmac) */
#define GCN_HR_FP8_DSTSEL (1u << 14) /* fp8/bf8 stochastic-rounding converts with dst_sel */
#define GCN_HR_FP4_DSTSEL (1u << 15) /* packed fp4 ones */
#define GCN_HR_CARRY_IN   (1u << 16) /* VALU add/sub with carry-in (VCC or src2) */

#endif

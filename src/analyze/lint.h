/*
 * lint.h -- the static analyzer behind gcnlint: per-instruction facts, the
 * control-flow graph of a kernel, a value analysis for LDS addresses, the
 * dataflow of pending memory operations per wait counter, the hazard hook,
 * and the findings they produce.
 *
 * Layers (each file one job):
 *   classify.c  gcn_insn + ISA row -> gcn_lfacts (kind, counters, registers)
 *   cfg.c       recursive decoding from the kernel entry, basic blocks, known
 *               s_setpc/s_swappc targets, dominators and loops
 *   values.c    affine values of registers (lane id, wave base, constants)
 *               -> the LDS byte range each DS / LDS-DMA instruction touches
 *   waits.c     path-sensitive exploration of the vmcnt/lgkmcnt FIFOs
 *   xwave.c     LDS races between waves with no s_barrier between them
 *   uniform.c   branches every wave of a work-group takes alike (xwave.c siblings)
 *   suggest.c   loosest safe value of each s_waitcnt, and why
 *   hazard.c    the hook for wait-state rules (src/analyze/hazards.def)
 *   report.c    text / JSON / SARIF output of findings
 * The analysis works on facts, not on ISA ids, so its unit tests can build
 * instruction streams by hand.
 */
#ifndef GCN_LINT_H
#define GCN_LINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "gcn_decode.h"
#include "gcn_facts.h"

/* ---- per-instruction facts (classify.c) -------------------------------- */

/* enum gcn_lkind, the control-flow kinds: gcn_facts.h (the facts table's CTL column) */


/* Value-analysis operations (values.c, cfg.c); everything else makes its
 * destinations unknown. */
enum gcn_lalu {
    GCN_LA_NONE = 0,
    GCN_LA_S_MOV, GCN_LA_S_MOV64, GCN_LA_S_ADD, GCN_LA_S_ADDC, GCN_LA_S_SUB, GCN_LA_S_SUBB,
    GCN_LA_S_LSHL, GCN_LA_S_MUL,
    /* bit operations of the value analysis (values.c) */
    GCN_LA_S_AND, GCN_LA_S_OR, GCN_LA_S_XOR, GCN_LA_S_LSHR, GCN_LA_S_ASHR, GCN_LA_S_BFE_U32,
    GCN_LA_S_LSHL1_ADD, GCN_LA_S_LSHL2_ADD, GCN_LA_S_LSHL3_ADD, GCN_LA_S_LSHL4_ADD,
    GCN_LA_S_MOVK, GCN_LA_S_ADDK, GCN_LA_S_MULK,
    GCN_LA_V_MOV, GCN_LA_V_ADD, GCN_LA_V_SUB, GCN_LA_V_SUBREV, GCN_LA_V_LSHLREV,
    GCN_LA_V_LSHL_ADD, GCN_LA_V_ADD_LSHL, GCN_LA_V_MUL, GCN_LA_V_MAD, GCN_LA_V_ADD3,
    GCN_LA_V_READFIRSTLANE,
    GCN_LA_V_AND, GCN_LA_V_OR, GCN_LA_V_XOR, GCN_LA_V_LSHRREV, GCN_LA_V_ASHRREV,
    GCN_LA_V_BFE_U32, GCN_LA_V_BFE_I32, GCN_LA_V_LSHL_OR, GCN_LA_V_AND_OR, GCN_LA_V_OR3,
    GCN_LA_V_MBCNT_LO, GCN_LA_V_MBCNT_HI, GCN_LA_V_CNDMASK, GCN_LA_V_READLANE,
    /* comparisons (x OP y), in the order of gcn_lcmp; v_cmpx_* also write EXEC */
    GCN_LA_V_CMP_LT, GCN_LA_V_CMP_LE, GCN_LA_V_CMP_GT, GCN_LA_V_CMP_GE, GCN_LA_V_CMP_EQ,
    GCN_LA_V_CMP_NE,
    GCN_LA_S_CMP_LT, GCN_LA_S_CMP_LE, GCN_LA_S_CMP_GT, GCN_LA_S_CMP_GE, GCN_LA_S_CMP_EQ,
    GCN_LA_S_CMP_NE,
    /* lane masks */
    GCN_LA_S_AND64, GCN_LA_S_OR64, GCN_LA_S_AND_SAVEEXEC,
    /* SCC ? src0 : src1 (paths.c; outside the S_ range that values.c evaluates) */
    GCN_LA_S_CSELECT,
};

/* Counters an instruction increments. */
#define GCN_LC_VM   1u
#define GCN_LC_LGKM 2u

/* LDS access of an instruction. */
#define GCN_LL_READ  1u   /* DS instruction reading LDS */
#define GCN_LL_WRITE 2u   /* DS instruction writing LDS */
#define GCN_LL_DMA   4u   /* memory -> LDS, asynchronous, under vmcnt */

/* Memory class, for messages. */
enum gcn_lmem { GCN_LM_NONE = 0, GCN_LM_VMEM, GCN_LM_FLAT, GCN_LM_SMEM, GCN_LM_LDS, GCN_LM_MSG };

#define GCN_WAIT_NONE 0xFFu   /* counter not waited on */

typedef struct gcn_lfacts {
    uint64_t flags;          /* ISA row flags */
    const char *mnem;        /* LLVM mnemonic */
    uint8_t kind;            /* gcn_lkind */
    uint8_t alu;             /* gcn_lalu */
    uint8_t ctr;             /* GCN_LC_* */
    uint8_t lgkm_ooo;        /* returns out of order in lgkmcnt (SMEM, FLAT, messages) */
    uint8_t vm_ooo;          /* returns out of order in vmcnt (FLAT) */
    uint8_t lds;             /* GCN_LL_* */
    uint8_t fx;              /* GCN_FX_TWO_ADDR/ST64/SCC_CARRY of the row (gcn_facts.h) */
    uint8_t mem;             /* gcn_lmem */
    uint8_t wait_vm, wait_lgkm, wait_exp;  /* s_waitcnt fields, GCN_WAIT_NONE when at max */
    uint8_t nop_states;      /* s_nop N: N+1 wait states */
    uint16_t lds_bytes;      /* per-lane bytes an LDS access / LDS-DMA covers */
    int64_t target;          /* branch / call target address, -1 when none or unknown */
    gcn_regset uses, defs, adefs;
} gcn_lfacts;

/* Facts of a decoded instruction on a target. */
void gcn_lint_classify(const gcn_insn *in, gcn_target t, gcn_lfacts *out);
/* The same with an explicit mnemonic and row flags (hand-made streams). */
void gcn_lint_classify_as(const gcn_insn *in, const char *mnem, uint64_t flags,
                          gcn_lfacts *out);

/* s_waitcnt simm16 fields on GFX9 (LLVM AMDGPUBaseInfo.cpp, getVmcntBitShift*:
 * vmcnt = [3:0] | [15:14] << 4, expcnt = [6:4], lgkmcnt = [11:8]). */
#define GCN_VMCNT_MAX 63u
#define GCN_LGKMCNT_MAX 15u
#define GCN_EXPCNT_MAX 7u
void gcn_waitcnt_decode(uint16_t simm16, unsigned *vm, unsigned *exp, unsigned *lgkm);

/* ---- control-flow graph (cfg.c) ----------------------------------------- */

#define GCN_NOBLOCK 0xFFFFFFFFu

typedef struct gcn_block {
    unsigned first, last;        /* instruction index range, inclusive */
    unsigned *succ, nsucc;
    unsigned *pred, npred;
    unsigned idom;               /* immediate dominator (entry: itself) */
    unsigned loop;               /* innermost loop header containing the block, or GCN_NOBLOCK */
    bool header;                 /* target of a back edge */
    bool reachable;
} gcn_block;

/* Something the CFG builder could not follow. */
enum gcn_cfg_issue_kind {
    GCN_CI_INVALID = 1,      /* undecodable bytes on a path */
    GCN_CI_INDIRECT,         /* s_setpc/s_swappc with an unknown target */
    GCN_CI_OUTSIDE,          /* path leaves the code (branch outside .text, falls off the end) */
    GCN_CI_OVERLAP,          /* branch into the middle of an instruction */
};
typedef struct gcn_cfg_issue {
    int kind;
    uint64_t addr;
    uint64_t target;
} gcn_cfg_issue;

typedef struct gcn_cfg {
    gcn_decoder dec;
    uint64_t entry;
    unsigned ninsn;
    gcn_insn *insn;              /* sorted by address */
    gcn_lfacts *facts;
    unsigned *block_of;          /* instruction index -> block */
    unsigned nblocks;
    gcn_block *blocks;           /* block 0 holds the entry */
    gcn_cfg_issue *issues;
    unsigned nissues;
    unsigned max_vgpr;           /* highest vector index used + 1 (values.c sizing) */
} gcn_cfg;

/* Build the CFG of the code reachable from entry in text[0..size) at
 * text_addr.  Returns 0, or -1 with a message (entry outside the text). */
int gcn_cfg_build(gcn_cfg *cfg, gcn_target t, const uint8_t *text, uint64_t text_addr,
                  uint64_t text_size, uint64_t entry, char *err, size_t errlen);
/* Build from a hand-made stream (insns sorted or not; facts parallel). */
int gcn_cfg_build_list(gcn_cfg *cfg, gcn_target t, const gcn_insn *insns,
                       const gcn_lfacts *facts, unsigned n, uint64_t entry,
                       char *err, size_t errlen);
void gcn_cfg_free(gcn_cfg *cfg);
/* Instruction index at an address, or -1. */
int gcn_cfg_index(const gcn_cfg *cfg, uint64_t addr);
bool gcn_cfg_dominates(const gcn_cfg *cfg, unsigned a, unsigned b);
/* Immediate post-dominators of the blocks into ipd[0..nblocks] (nblocks + 1 entries): index
 * nblocks is a virtual exit that every block without successors, and every block from
 * which no such block is reachable (an endless loop), leads to.  0, or -1 out of memory. */
int gcn_cfg_postdom(const gcn_cfg *cfg, unsigned *ipd);

/* ---- values and LDS ranges (values.c) ----------------------------------- */

/* An affine value c + sum k_i * sym_i (or unknown).  Symbols:
 *   LANE   lane id, 0..63                        (differs between lanes)
 *   WAVE   wave index in the work-group, 0..nwaves-1
 *   MBLO   v_mbcnt_lo_u32_b32(-1, 0) = min(lane, 32)  (differs between lanes)
 *   TIDX/Y/Z  work-item ids when v0 packs x, y and z (0..1023 each)
 *   FIELD(S, lo, hi)  bits [lo, hi) of LANE, WAVE or TIDX/Y/Z (S >> lo, masked)
 *   SGPR0+i   SGPR i at kernel entry (the same in every wave of a work-group)
 *   FRESH+... a scalar value computed outside any loop that the analysis
 *             names instead of following (gcn_sym_fresh*: the defining
 *             instruction's address and dword, and whether it may differ
 *             between the waves of a work-group). */
#define GCN_AV_TERMS 6
enum { GCN_SYM_LANE = 1, GCN_SYM_WAVE = 2, GCN_SYM_MBLO = 3, GCN_SYM_TIDX = 4,
       GCN_SYM_TIDY = 5, GCN_SYM_TIDZ = 6, GCN_SYM_SGPR0 = 16, GCN_SYM_FIELD = 0x8000u,
       GCN_SYM_FRESH = 0x10000u, GCN_SYM_BOUND = 0x40000000u };
/* A per-lane value known only to lie in [0, 2^bits) (a swizzle such as
 * c ^ r, a masked or shifted value the forms cannot express), made by the
 * instruction at index idx: it bounds ranges and is never assumed equal to
 * anything but itself. */
#define gcn_sym_bound(bits, idx) (GCN_SYM_BOUND | (uint32_t)(bits) << 24 | ((uint32_t)(idx) & 0x7FFFFFu))
/* ... marked as a function of the lane and wave ids alone (a swizzle c ^ r of
 * their fields): its value set over the lanes is taken as its whole range */
#define gcn_sym_bound_lanefn(bits, idx) (gcn_sym_bound(bits, idx) | 0x800000u)
#define gcn_sym_is_lanefn(s) (gcn_sym_is_bound(s) && ((s) & 0x800000u))
#define gcn_sym_is_bound(s) ((s) >= GCN_SYM_BOUND)
#define gcn_sym_bound_bits(s) (((s) >> 24) & 63u)
#define gcn_sym_field(base, lo, hi) (GCN_SYM_FIELD | (uint32_t)(base) << 10 | (uint32_t)(lo) << 5 | (uint32_t)(hi))
#define gcn_sym_is_field(s) ((s) >= GCN_SYM_FIELD && (s) < GCN_SYM_FRESH)
#define gcn_sym_field_base(s) (((s) >> 10) & 31u)
#define gcn_sym_field_lo(s) (((s) >> 5) & 31u)
#define gcn_sym_field_hi(s) ((s) & 31u)
#define gcn_sym_fresh(addr, dw, varying) \
    (GCN_SYM_FRESH + (((uint32_t)((addr) >> 2) << 5) | ((uint32_t)(dw) << 1) | ((varying) ? 1u : 0u)))
#define gcn_sym_fresh_addr(s) ((uint64_t)(((s) - GCN_SYM_FRESH) >> 5) << 2)
#define gcn_sym_fresh_dword(s) ((((s) - GCN_SYM_FRESH) >> 1) & 15u)
/* May the symbol's value differ between two waves of one work-group? */
bool gcn_sym_wave_varying(uint32_t sym);
/* Does it differ between the lanes of one wave? */
bool gcn_sym_lane_varying(uint32_t sym);

typedef struct gcn_aval {
    uint8_t known, nt;
    int64_t c;
    uint32_t sym[GCN_AV_TERMS];
    int64_t k[GCN_AV_TERMS];
    uint32_t why;                /* unknown: index + 1 of the instruction that lost it
                                  * (GCN_WHY_JOIN set: paths meeting there disagree) */
} gcn_aval;
#define GCN_WHY_JOIN 0x80000000u

/* The LDS bytes one instruction may touch, over all 64 lanes: base
 * (uniform symbolic part, c = 0) + [lo, hi). known = 0: anywhere. */
enum gcn_lds_unknown { GCN_LU_NONE = 0, GCN_LU_ADDR, GCN_LU_M0, GCN_LU_M0_LANE };
/* The exact bytes of an access over its lanes, when the per-lane part of the
 * address is the lane id alone (and its fields): disjoint [start, end)
 * pieces, sorted, relative to the range's base. */
typedef struct gcn_ldspat {
    unsigned n;
    int64_t piece[128][2];
} gcn_ldspat;

typedef struct gcn_ldsrange {
    bool known;
    const gcn_ldspat *pat;       /* exact pieces, or NULL (then [lo, hi) only) */
    bool hull;                   /* [lo, hi) (no pat) may hold bytes no lane touches
                                  * (a bounded per-lane value): a meet is not a proof */
    const gcn_ldspat *win;       /* hull ranges: per lane (and address), the window its
                                  * bytes lie in whatever the bounded value; a window
                                  * inside the other range's exact bytes proves a meet */
    gcn_aval base;
    int64_t lo, hi;
    uint16_t waves;              /* the wave indexes that may run it with a lane active
                                  * (EXEC and branch guards on lane / wave ids; bit w for
                                  * wave w < 16, 0: none, the code is dead for this launch) */
    uint8_t unknown;             /* gcn_lds_unknown: why not known */
    uint16_t reg;                /* the address VGPR (GCN_LU_ADDR) */
    uint32_t why;                /* that register's gcn_aval.why */
} gcn_ldsrange;

typedef struct gcn_values {
    gcn_ldsrange *lds;           /* per instruction (only LDS accesses meaningful) */
    gcn_ldspat **pats;           /* per instruction: the pieces lds[i].pat points to */
    unsigned n;
    unsigned nwaves;             /* waves per work-group assumed (WAVE < nwaves) */
    uint16_t *bwaves;            /* per block: the wave indexes (below 16) that may reach it
                                  * (waves with roles; 0: none, or not reached) */
} gcn_values;

/* How the wave was launched, for the entry values. */
typedef struct gcn_entry_info {
    bool v0_is_x;                /* v0 holds workitem_id_x alone (rsrc2 VGPR_WORKITEM_ID = 0) */
    unsigned nwaves;             /* waves per work-group (max flat work-group size / 64);
                                  * 0: 16 (1024 work-items) */
    bool packed_xyz;             /* v0 packs x | y << 10 | z << 20 (gfx90a and later with
                                  * VGPR_WORKITEM_ID > 0) */
    const struct gcn_paths *paths; /* static path facts (paths.h), or NULL: the sets of
                                  * waves that reach each block then follow every edge */
} gcn_entry_info;

int gcn_values_run(const gcn_cfg *cfg, const gcn_entry_info *ei, gcn_values *out);
void gcn_values_free(gcn_values *v);
bool gcn_lds_may_overlap(const gcn_ldsrange *a, const gcn_ldsrange *b);
/* The same (for one wave, whose index is below nwaves), with a third
 * answer: 0 disjoint (proven), 1 may overlap (both ranges known), 2 not
 * proven (a range is unknown, or in terms that cannot be compared). */
int gcn_lds_overlap3(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves);
/* May wave x's access a and another wave y's access b (x != y, both below
 * nwaves) touch a common byte?  Same three answers. */
int gcn_lds_cross_overlap3(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves);
/* The same two, also giving the smallest wave count at which the bytes meet
 * (*minw: 1 + the larger wave index of the first meeting pair; 0 when they do
 * not meet, or only their hulls do). */
int gcn_lds_overlap3w(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                      unsigned *minw);
/* Two waves (below nwaves) where a's bytes in wave *wa meet b's in wave *wb
 * (different waves; the first pair gcn_lds_cross_overlap3w finds): false
 * when no pair is proven to meet. */
bool gcn_lds_cross_pair(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                        unsigned *wa, unsigned *wb);
int gcn_lds_cross_overlap3w(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                            unsigned *minw);
struct gcn_lint_opts;
/* Launch shape: the wave count comes from the metadata's bound
 * (o->declared_wg) of 8 waves or more, and the bytes meet only with more
 * than half of it (and
 * more than the fewest waves the check needs: 1 in one wave, 2 across
 * waves).  The finding stays what it is (the bound allows such a launch);
 * its message says so (gcn_lds_launch_note), since an LDS layout sized for a
 * smaller launch than the bound looks like that, and only the launch
 * (--workgroup-size) settles it. */
bool gcn_lds_launch_only(const struct gcn_lint_opts *o, unsigned minw, bool same);
/* "; the bytes meet only when the work-group has N or more waves: ..." */
void gcn_lds_launch_note(const struct gcn_lint_opts *o, unsigned minw, gcn_strbuf *sb);
/* Why a range is not known, as a phrase ("the address v3 comes from ..."). */
void gcn_ldsrange_why(const struct gcn_cfg *cfg, const struct gcn_lint_opts *o,
                      const gcn_ldsrange *r, gcn_strbuf *sb);
void gcn_aval_format(const gcn_aval *v, gcn_strbuf *sb);
void gcn_ldsrange_format(const gcn_ldsrange *r, gcn_strbuf *sb);

/* ---- findings ----------------------------------------------------------- */

enum gcn_check {
    GCN_CHK_PENDING_READ = 0,    /* (a) register read while its load may be pending */
    GCN_CHK_PENDING_WRITE,       /* (a) register overwritten while a load may still write it */
    GCN_CHK_SMEM_ORDER,          /* (d) SMEM result used under lgkmcnt(N>0) */
    GCN_CHK_LDS_DMA_PENDING,     /* (b) LDS access while an LDS-DMA into it may be pending */
    GCN_CHK_LDS_DMA_RACE,        /* (b) LDS-DMA while a DS access of its bytes may be pending */
    GCN_CHK_BARRIER_LDS,         /* (c) s_barrier with LDS writes possibly pending */
    GCN_CHK_LDS_XWAVE,           /* LDS accesses of two waves with no s_barrier between */
    GCN_CHK_WAIT_SUGGEST,        /* --suggest: the loosest safe value and its witness */
    GCN_CHK_WAIT_STRONGER,       /* --suggest: a wait stronger than any consumer needs */
    GCN_CHK_CFG_INDIRECT,
    GCN_CHK_CFG_INVALID,
    GCN_CHK_CFG_LIMIT,           /* state budget hit: analysis widened */
    GCN_CHK_HAZARD,              /* wait-state rule of hazards.def (name in rule) */
    GCN_CHK_LDS_UNPROVEN,        /* an LDS check the value analysis could not decide
                                  * (an address it does not know): off by default */
    GCN_CHK_COUNT
};

enum gcn_severity { GCN_SEV_NOTE = 0, GCN_SEV_WARNING, GCN_SEV_ERROR };

const char *gcn_check_name(int check);
const char *gcn_check_desc(int check);
int gcn_check_from_name(const char *name);     /* -1 if unknown */

typedef struct gcn_finding {
    int check;
    int severity;
    uint64_t addr;               /* primary location (consumer) */
    int64_t producer;            /* address of the producing op, -1 */
    int64_t wait;                /* address of a related s_waitcnt, -1 */
    int fix;                     /* the count that wait would need to retire the producer
                                  * (counter fix_ctr), -1 none */
    const char *fix_ctr;         /* "vmcnt" / "lgkmcnt" (static), or NULL */
    const char *rule;            /* hazard rule name (GCN_CHK_HAZARD), else NULL */
    char *msg;                   /* one line */
    char *explain;               /* several lines, or NULL */
} gcn_finding;

typedef struct gcn_findings {
    gcn_finding *f;
    unsigned n, cap;
} gcn_findings;

void gcn_findings_add(gcn_findings *fs, const gcn_finding *f);  /* takes msg/explain */
void gcn_findings_free(gcn_findings *fs);
void gcn_findings_sort(gcn_findings *fs);

/* Where an address is, for messages: "line 57" / "vadd.s:57" / "0x1a4". */
typedef void (*gcn_loc_fn)(void *ctx, uint64_t addr, gcn_strbuf *sb);

/* ---- the pending-operation dataflow (waits.c) --------------------------- */

typedef struct gcn_wait_override {
    unsigned insn;               /* index of the s_waitcnt */
    uint8_t vm, lgkm;            /* replacement values; GCN_WAIT_NONE = no wait */
} gcn_wait_override;

typedef struct gcn_lint_opts {
    unsigned max_states;         /* per block before widening (0: 256) */
    bool all_paths;              /* follow both edges of every branch (no path facts, paths.c) */
    struct gcn_paths *paths;     /* the path facts, built once by the caller for the checks
                                  * (gcn_paths_build), or NULL: each check builds its own */
    bool explain;                /* build explanations */
    bool no_lds_alias;           /* treat every LDS access as overlapping */
    const gcn_wait_override *ovr;  /* sorted by insn */
    unsigned novr;
    gcn_loc_fn loc;              /* NULL: hexadecimal offsets */
    void *loc_ctx;
    unsigned nwaves;             /* waves per work-group (barrier-lds-pending); 0: from vals */
    unsigned declared_wg;        /* nwaves comes from the metadata's max_flat_workgroup_size,
                                  * this many work-items (0: the launch was given, or no
                                  * bound was declared): see gcn_lds_launch_only */
    bool lds_unproven;           /* keep LDS checks that could not be proven either way
                                  * (GCN_CHK_LDS_UNPROVEN); otherwise they are dropped, and
                                  * suggestions do not count them */
    bool hz_xnack_off;           /* hazards: the code object has xnack off (no soft-clause
                                  * rules; LLVM's default, xnack any, has them) */
    bool hz_llvm;                /* hazards: also the llvm-conservative rules (what only
                                  * LLVM requires; warnings, -Wllvm-conservative) */
} gcn_lint_opts;

/* Run the pending-operation analysis; findings are appended to out.
 * Returns the number of findings added, or -1 on allocation failure. */
int gcn_lint_waits(const gcn_cfg *cfg, const gcn_values *vals, const gcn_lint_opts *o,
                   gcn_findings *out);
/* CFG problems (invalid code, unknown indirect branches) as findings. */
void gcn_lint_cfg_findings(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out);

/* ---- cross-wave LDS races (xwave.c) ------------------------------------- */

/* DS accesses (one a write) that another wave of the work-group may execute
 * in the same barrier interval on overlapping LDS bytes.  nwaves: waves per
 * work-group (<= 1: nothing to check). */
/* Above this many LDS accesses in a kernel, pairs on the two sides of a
 * branch (neither reaching the other) are not compared (the bitsets grow
 * with the square of the count). */
#define GCN_XWAVE_MAX_MATES 16384
int gcn_lint_xwave(const gcn_cfg *cfg, const gcn_values *vals, unsigned nwaves,
                   const gcn_lint_opts *o, gcn_findings *out);

/* Work-group-uniform branches (uniform.c): nub[b] (per block) = 1 when the
 * branch ending block b may go different ways in different waves of one
 * work-group (its condition may differ between waves, counting control
 * dependence: a register written on one side of such a branch differs after
 * the sides meet), 0 when every wave goes the same way or b does not branch.
 * ipdom (NULL: not wanted): per block, its immediate post-dominator, or
 * cfg->nblocks when that is the exit.  Returns 0, or -1 on allocation
 * failure (then every branch is 1, every ipdom the exit). */
int gcn_lint_uniform_branches(const gcn_cfg *cfg, unsigned char *nub, unsigned *ipdom);

/* The LDS accesses (DS and LDS-DMA) some path reaches from instruction i
 * without passing an s_barrier: the barrier interval after i (caller frees
 * *list); with path facts (paths.h; NULL: none) only the paths they allow.
 * Returns 0, or -1 on allocation failure. */
struct gcn_paths;
int gcn_lint_barrier_after(const gcn_cfg *cfg, const struct gcn_paths *paths, unsigned i,
                           unsigned **list, unsigned *n);

/* ---- suggestions (suggest.c) -------------------------------------------- */

/* For every s_waitcnt, in address order: the loosest vmcnt / lgkmcnt still
 * safe on all paths, given the values already suggested for the waits before
 * it (so the suggestions hold together), and the path that forces it, as
 * notes (GCN_CHK_WAIT_SUGGEST) and, where the wait is stronger than needed,
 * GCN_CHK_WAIT_STRONGER notes. */
int gcn_lint_suggest(const gcn_cfg *cfg, const gcn_values *vals, const gcn_lint_opts *o,
                     gcn_findings *out);

/* ---- hazards (hazard.c, hazards.def) ------------------------------------ */

/* A hazard rule as --list-checks names it (the rules are the rows of
 * hazards.def, checked by the engine in hazard.c). */
typedef struct gcn_hazard_rule {
    const char *name;            /* check name suffix: "hazard-<name>" */
    unsigned targets;            /* bit (1 << gcn_target) */
    const char *why;             /* one line: what, wait states, class, sources */
} gcn_hazard_rule;

/* The built-in rules (hazards.def), count in *n. */
const gcn_hazard_rule *gcn_hazard_rules(unsigned *n);
/* Wait states an instruction provides to later ones (s_nop N: N+1; others 1). */
unsigned gcn_hazard_wait_states(const gcn_lfacts *f);
/* Check the hazard rules over the CFG: for each consumer, the minimum number
 * of wait states to a producer over all paths. */
int gcn_lint_hazards(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out);

/* ---- output (report.c) -------------------------------------------------- */

/* Instruction text as llvm-objdump prints it (mnemonic only when the
 * record has no row). */
void gcn_lint_insn_text(const gcn_cfg *cfg, unsigned idx, gcn_strbuf *sb);
void gcn_lint_loc(const gcn_lint_opts *o, uint64_t addr, gcn_strbuf *sb);

/* One site of a grouped finding (gcn_diags_group). */
typedef struct gcn_dsite {
    char *file;
    unsigned line;
    char *symbol;                /* function the offset counts from (NULL: the kernel) */
    uint64_t offset, addr;
    char *msg;                   /* the site's own message */
} gcn_dsite;

/* A finding placed in a file, ready to print.  A binary location is
 * symbol+0xOFFSET: the kernel, another function symbol containing the
 * address, or ".text" (offset from the section start) outside any. */
typedef struct gcn_diag {
    char *input;                 /* the file given on the command line */
    char *kernel;
    char *file;                  /* source file of the line, or the input */
    unsigned line;               /* 0: no line information */
    uint64_t offset;             /* code offset from symbol */
    int check, severity;
    char *check_name;            /* "pending-read", "hazard-<rule>" */
    char *msg;
    char *explain;               /* or NULL */
    char *rel_file;              /* producer / related location, or NULL */
    unsigned rel_line;
    int64_t rel_offset;          /* -1 none */
    char *wait_file;             /* the s_waitcnt involved, or NULL */
    unsigned wait_line;
    int64_t wait_offset;         /* -1 none */
    char *symbol;                /* function of the location (NULL: the kernel) */
    uint64_t addr;               /* code address (0 when unknown) */
    char *rel_symbol, *wait_symbol;  /* likewise for the related locations */
    uint64_t rel_addr, wait_addr;
    int fix;                     /* gcn_finding.fix: at the wait, -1 none */
    const char *fix_ctr;         /* static counter name, or NULL */
    unsigned nsites;             /* > 1: a group of that many sites, sites[0] is this one */
    gcn_dsite *sites;
} gcn_diag;

typedef struct gcn_diags {
    gcn_diag *d;
    unsigned n, cap;
} gcn_diags;

int gcn_diags_add(gcn_diags *ds, const gcn_diag *d);   /* copies the strings and sites */
void gcn_diags_free(gcn_diags *ds);
const char *gcn_severity_name(int sev);
/* "symbol+0xOFF" of a location (symbol NULL: the kernel). */
void gcn_diag_where(const char *symbol, const char *kernel, uint64_t off, gcn_strbuf *sb);

/* Group the findings ds->d[first..n) of one kernel that repeat: every
 * hazard rule, and an LDS check (lds-dma-pending, lds-dma-race,
 * lds-cross-wave-race, barrier-lds-pending) with one producer, found at
 * min_sites or more sites becomes one finding at its first site whose
 * message names the count and the next sites; all sites stay in sites[].
 * Findings of those LDS checks that one s_waitcnt lets through (it leaves
 * their producers in flight) group by that wait instead, whatever their
 * producers, from 2 sites on: one place to fix, and the message gives the
 * count that fixes every site.  Order is kept.  Register checks are not grouped: each site
 * has a fix of its own.  0, or -1 when out of memory. */
#define GCN_GROUP_MIN_SITES 8
#define GCN_GROUP_SHOWN 8        /* further sites named in a group's message */
int gcn_diags_group(gcn_diags *ds, unsigned first, unsigned min_sites);

/* gcc style: "file:line: error: message [check]"; without a line
 * "file:0: error: symbol+0xOFF: message [check]" (vim, emacs and VS Code's
 * $gcc problem matcher need a line number). */
void gcn_report_text(FILE *out, const gcn_diags *ds, bool explain);
/* JSON: {"tool": "gcnlint", "inputs": [...], "findings": [...]}. */
int gcn_report_json(FILE *out, const gcn_diags *ds, const char *const *inputs, unsigned ninputs);
/* SARIF 2.1.0 log with one run. */
int gcn_report_sarif(FILE *out, const gcn_diags *ds, const char *const *inputs, unsigned ninputs);

#endif

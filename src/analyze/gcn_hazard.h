/*
 * gcn_hazard.h -- the hazard engine shared by the simulator (dynamic, one
 * wave's issued instructions) and the linter (static, over CFG paths).
 *
 * The rules are the table in src/analyze/hazards.def (gfx942/gfx950).  Every
 * row says where it comes from (GCN_HZ_SRC_*: the AMD ISA guides' tables of
 * required wait states, AMD's rocRoller wait-state observers, LLVM 22's
 * GCNHazardRecognizer).  Rows that only LLVM imposes, as a conservative
 * choice, form the group "llvm-conservative" (gcn_hz_rule.llvm_only): they
 * are checked only with the flag GCN_HZ_LLVM, and their findings say so
 * (gcn_hz_finding.llvm).  Use:
 *
 *   gcn_hz_state st;  gcn_hz_reset(&st, target, GCN_HZ_XNACK);
 *   for each instruction:
 *       gcn_hz_insn hi;  gcn_hz_analyze(&dec, &insn, &hi);   (once per pc)
 *       n = gcn_hz_check(&st, &hi, findings, max);           (violations)
 *       gcn_hz_push(&st, &hi);                               (advance)
 *
 * Wait states (LLVM's SIInstrInfo::getNumWaitStates): every instruction
 * counts 1, `s_nop N` counts N+1.  The distance between a producer and a
 * consumer is the sum over the instructions strictly between them; a rule
 * needing W wait states is violated when that distance is < W.
 *
 * gcn_hz_join() merges the history reaching a CFG join point from two paths:
 * every producer keeps its minimum distance (the worst case over paths).
 */
#ifndef GCN_HAZARD_H
#define GCN_HAZARD_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "gcn_decode.h"

/* Hazard classes of an instruction instance (precomputed by gcn_hz_analyze;
 * the predicates of hazards.def are masks over these). */
enum {
    HZC_VALU      = 1u << 0,   /* LLVM isVALU (incl. MFMA, v_accvgpr_*, LDS DMA) */
    HZC_MFMA      = 1u << 1,   /* MFMA/SMFMAC (MAI, not v_accvgpr_*) */
    HZC_XDL       = 1u << 2,   /* MFMA on the XDL pipe (incl. SMFMAC) */
    HZC_DGEMM     = 1u << 3,   /* f64 MFMA */
    HZC_DGEMM4    = 1u << 4,   /* v_mfma_f64_4x4x4_4b_f64 */
    HZC_DGEMM16   = 1u << 5,   /* v_mfma_f64_16x16x4_f64 */
    HZC_SMFMAC    = 1u << 6,
    HZC_DOT       = 1u << 7,   /* v_dot* */
    HZC_TRANS     = 1u << 8,   /* transcendental VALU */
    HZC_VMEM      = 1u << 9,   /* MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH */
    HZC_DS        = 1u << 10,
    HZC_SMEM      = 1u << 11,
    HZC_SALU      = 1u << 12,  /* SOP1/SOP2/SOPK/SOPC/SOPP */
    HZC_DPP       = 1u << 13,  /* DPP-encoded VALU */
    HZC_READLANE  = 1u << 14,  /* v_readlane_b32, v_readfirstlane_b32 */
    HZC_WRITELANE = 1u << 15,  /* v_writelane_b32 */
    HZC_RWLANE    = 1u << 16,  /* v_readlane_b32, v_writelane_b32 */
    HZC_DIVFMAS   = 1u << 17,
    HZC_SETREG    = 1u << 18,  /* s_setreg_b32, s_setreg_imm32_b32 */
    HZC_GETREG    = 1u << 19,
    HZC_RFE       = 1u << 20,
    HZC_M0READ    = 1u << 21,  /* reads M0 with a hazard: s_movrel*, LDS DMA, GDS, s_sendmsg, ... */
    HZC_FMA64     = 1u << 22,  /* v_fma_f64, v_fmac_f64 */
    HZC_PERMSWAP  = 1u << 23,  /* gfx950 v_permlane16_swap, v_permlane32_swap */
    HZC_VCMP      = 1u << 24,  /* VALU compare (VOPC) */
    HZC_WREXEC    = 1u << 25,  /* writes EXEC */
    HZC_DSTSEL    = 1u << 26,  /* VALU with a partial-dst (forwarding) write */
    HZC_WIDESTORE = 1u << 27,  /* store of > 64 bits whose data VGPRs a VALU must not overwrite soon */
    HZC_MAYSTORE  = 1u << 28,  /* writes memory (stores, atomics, LDS DMA) */
    HZC_NOP       = 1u << 29,  /* s_nop */
    HZC_PKSEL     = 1u << 30,  /* VOP3P with src0 op_sel_hi set: a partial-dst write
                                * only to LLVM (it tests that bit as DST_OP_SEL) */
    HZC_LDSDMA    = 1u << 31,  /* LDS DMA load (buffer/global ... lds) */
};

/* A register range in "units": 0..127 scalar (the 9-bit source encoding:
 * s0..s101, flat_scratch 102-103, xnack_mask 104-105, vcc 106-107, ttmp
 * 108-123, m0 124, exec 126-127), 256+n VGPR vn, 512+n AGPR an. */
#define GCN_HZ_UNIT_VGPR  256u
#define GCN_HZ_UNIT_AGPR  512u
#define GCN_HZ_NUNITS     768u
#define GCN_HZ_UNIT_VCC   106u
#define GCN_HZ_UNIT_M0    124u
#define GCN_HZ_UNIT_EXEC  126u

/* Operand roles (gcn_hz_range.role). */
enum {
    HZR_EXPL    = 1u << 0,   /* explicit operand (LLVM explicit_uses / defs) */
    HZR_SRCC    = 1u << 1,   /* MFMA srcC (for SMFMAC: its vdst) */
    HZR_SRC0    = 1u << 2,   /* src0 */
    HZR_SRC1    = 1u << 3,   /* src1 */
    HZR_VDST    = 1u << 4,   /* the named vdst (defs) */
    HZR_CARRY   = 1u << 5,   /* carry-in of v_addc/v_subb/v_subbrev (VCC or src2) */
};

typedef struct gcn_hz_range {
    uint16_t lo;             /* first unit */
    uint8_t n;               /* number of units (0 = none) */
    uint8_t role;            /* HZR_* */
} gcn_hz_range;

#define GCN_HZ_MAXDEF 6
#define GCN_HZ_MAXUSE 12

/* Everything the rules need to know about one instruction. */
typedef struct gcn_hz_insn {
    uint64_t pc;
    uint32_t cls;            /* HZC_* */
    uint16_t id;             /* gcn_insn_id */
    uint8_t passes;          /* MFMA passes (gcn_mfma_passes) */
    uint8_t ws;              /* own wait states: 1, s_nop N: N+1 */
    int8_t hwreg;            /* s_setreg/s_getreg hardware register id, else -1 */
    uint8_t ndef, nuse;
    gcn_hz_range def[GCN_HZ_MAXDEF];
    gcn_hz_range use[GCN_HZ_MAXUSE];
    gcn_hz_range srcc;       /* MFMA srcC (n = 0 otherwise) */
    gcn_hz_range sdata;      /* data of a HZC_WIDESTORE store */
    uint64_t gcons, gprod;   /* rule groups it is a consumer / may be a producer of */
} gcn_hz_insn;

/* Flags for gcn_hz_reset. */
#define GCN_HZ_XNACK  0x1u   /* xnack on/any: soft-clause rules apply (LLVM default) */
#define GCN_HZ_AGPR0  0x2u   /* the function uses AGPR a0: LLVM remembers 19 instead of
                              * 5 instructions for the soft-clause check */
#define GCN_HZ_STRICT 0x4u   /* look back as far as each rule needs, not only as far
                              * as LLVM does (LLVM misses e.g. a 16-pass XDL result
                              * read as srcA/B exactly 19 wait states later on gfx950) */
#define GCN_HZ_LLVM   0x8u   /* also check the "llvm-conservative" rows: what only
                              * LLVM's hazard recognizer requires (off by default) */

#define GCN_HZ_MAXHIST 64
#define GCN_HZ_WINDOW  21    /* no rule needs more wait states than 20 */

typedef struct gcn_hz_entry {
    const gcn_hz_insn *in;   /* the caller's record (see gcn_hz_push) */
    uint64_t gprod;          /* in->gprod (kept here: the scan's hot field) */
    int32_t stamp;           /* state's clock after this instruction */
    uint8_t maybe;           /* joined in from one path only: does not hide older producers */
} gcn_hz_entry;

/* Soft clause: the run of consecutive SMEM or VMEM instructions just issued
 * (their registers are the last `count` history entries). */
typedef struct gcn_hz_clause {
    uint8_t kind;            /* 0 none, 1 SMEM, 2 VMEM */
    uint16_t count;
} gcn_hz_clause;

typedef struct gcn_hz_state {
    gcn_target target;
    unsigned flags;
    int32_t clock;           /* wait states so far */
    unsigned n;              /* entries, oldest first */
    uint64_t gprod_union;    /* groups some entry may be a producer of (fast reject) */
    gcn_hz_entry hist[GCN_HZ_MAXHIST];
    gcn_hz_clause clause;
} gcn_hz_state;

/* One violated rule. */
typedef struct gcn_hz_finding {
    unsigned rule;           /* index into gcn_hz_rules (hazards.def order) */
    uint64_t prod_pc, cons_pc;
    uint16_t prod_id, cons_id;
    int16_t unit;            /* register unit involved (-1 if none) */
    uint8_t required, present;   /* wait states needed / present */
    uint8_t raw;             /* the consumer reads what the producer wrote (in `reg`),
                              * so too early it would see the old value */
    gcn_hz_range reg;        /* the registers concerned (producer def x consumer operand) */
    uint8_t llvm;            /* a row of the llvm-conservative group (GCN_HZ_LLVM):
                              * LLVM's requirement, not the ISA's */
} gcn_hz_finding;

/* Where a rule comes from (gcn_hz_rule.src). */
enum {
    GCN_HZ_SRC_ISA      = 1u << 0,  /* AMD CDNA3/CDNA4 ISA guide, tables of required wait states */
    GCN_HZ_SRC_ROCROLLER = 1u << 1, /* AMD rocRoller, Scheduling/Observers/WaitState */
    GCN_HZ_SRC_LLVM     = 1u << 2,  /* LLVM 22 GCNHazardRecognizer (inserts these s_nops) */
};

/* Rule table (hazards.def rows, in order). */
typedef struct gcn_hz_rule {
    const char *name;        /* "XDL_SRCAB" */
    const char *group;       /* "G_MFMA_MFMA" */
    const char *func;        /* LLVM function the facts come from ("" if none) */
    const char *desc;
    const char *cite;        /* ISA / rocRoller references (for llvm_only rows: why
                              * the ISA and rocRoller do not require it) */
    unsigned src;            /* GCN_HZ_SRC_* */
    int llvm_only;           /* group llvm-conservative: checked with GCN_HZ_LLVM only */
    unsigned targets;        /* bit 0 gfx942, bit 1 gfx950, bit 2 needs xnack */
    unsigned limit;          /* search window of its group (wait states) */
    unsigned passes_dep;     /* 1 when the wait depends on MFMA passes */
} gcn_hz_rule;

unsigned gcn_hz_rule_count(void);
/* The hazard classes of every row in the compiled tables against the row-by-row
 * derivation (a test): the number of rows that differ, each named on rep. */
unsigned gcn_hz_check_classes(FILE *rep);
const gcn_hz_rule *gcn_hz_rule_get(unsigned i);
/* "ISA+rocRoller+LLVM", "LLVM only" ... for a GCN_HZ_SRC_* mask. */
const char *gcn_hz_src_tag(unsigned src);
/* The full source of rule i in one line: the ISA / rocRoller citation, then
 * "LLVM GCNHazardRecognizer <function>" when LLVM has the rule. */
const char *gcn_hz_rule_source(unsigned i, char *buf, size_t len);
/* Rule i's wait states as text: "2", "passes+3 (+1 on gfx950 unless 2 passes)". */
const char *gcn_hz_rule_wait_text(unsigned i, char *buf, size_t len);
/* Wait states rule i requires on target t for a producer with `passes`
 * (ignored by constant rules). */
int gcn_hz_rule_wait(unsigned i, gcn_target t, unsigned passes);

/* Fill *out from a decoded instruction (d->target matters for passes). */
void gcn_hz_analyze(const gcn_decoder *d, const gcn_insn *in, gcn_hz_insn *out);

void gcn_hz_reset(gcn_hz_state *s, gcn_target t, unsigned flags);
/* The same for a state gcn_hz_reset has set up before (the simulator's next wave): the
 * history emptied without clearing the entry slots, of which only the first n are read. */
static inline void gcn_hz_restart(gcn_hz_state *s, gcn_target t, unsigned flags)
{
    s->target = t;
    s->flags = flags;
    s->clock = 0;
    s->n = 0;
    s->gprod_union = 0;
    s->clause.kind = 0;
    s->clause.count = 0;
}

/* Check `c` against the history.  Writes up to `max` findings (the worst
 * first per rule and producer) and returns how many there are. */
unsigned gcn_hz_check(const gcn_hz_state *s, const gcn_hz_insn *c,
                      gcn_hz_finding *out, unsigned max);

/* The same for the rule groups in `groups` only (bit g: group g, as in gcn_hz_roles): the
 * findings of gcn_hz_check that come from those groups, in the same order.  The simulator
 * passes the groups that can have a producer in their window (see gcn_hz_roles). */
unsigned gcn_hz_check_groups(const gcn_hz_state *s, const gcn_hz_insn *c, uint64_t groups,
                             gcn_hz_finding *out, unsigned max);

/* Wait states `c` needs before it (max over findings, 0 if none). */
unsigned gcn_hz_required(const gcn_hz_state *s, const gcn_hz_insn *c);

/* Append `c` (after it issued).  The state keeps a pointer to *c: the
 * record must stay valid and unchanged while the state (or a copy or join of
 * it) is used (the simulator's and linter's per-instruction records do). */
void gcn_hz_push(gcn_hz_state *s, const gcn_hz_insn *c);

/* Let `ws` wait states pass without an instruction. */
void gcn_hz_advance(gcn_hz_state *s, unsigned ws);

/* dst := join(dst, src): union of producers, each at its minimum distance. */
void gcn_hz_join(gcn_hz_state *dst, const gcn_hz_state *src);

/* Several histories at once (the linter's state at a CFG point): LLVM decides
 * per path which producer is nearest, so merging paths into one history can
 * only approximate (a producer seen on one path must not hide an older one
 * seen on another).  A multi-state keeps up to GCN_HZ_MAXALT distinct
 * histories and merges (gcn_hz_join) only beyond that. */
#define GCN_HZ_MAXALT 8
typedef struct gcn_hz_multi {
    unsigned n;
    gcn_hz_state alt[GCN_HZ_MAXALT];
} gcn_hz_multi;

void gcn_hz_multi_init(gcn_hz_multi *m, const gcn_hz_state *s);
/* *dst = *src, copying only the live entries (much cheaper than assignment). */
void gcn_hz_multi_copy(gcn_hz_multi *dst, const gcn_hz_multi *src);
void gcn_hz_multi_push(gcn_hz_multi *m, const gcn_hz_insn *c);
void gcn_hz_multi_join(gcn_hz_multi *dst, const gcn_hz_multi *src);
int gcn_hz_multi_same(const gcn_hz_multi *a, const gcn_hz_multi *b);
/* Findings over all histories (per rule and producer the largest shortfall). */
unsigned gcn_hz_multi_check(const gcn_hz_multi *m, const gcn_hz_insn *c,
                            gcn_hz_finding *out, unsigned max);

/* For a caller that keeps one linear history (the simulator): the groups
 * of c that can matter.  *cons: the groups c is a consumer of with at least
 * one operand to look up (a subset of c->gcons); *prod: the groups c can be
 * the matching producer of, judged by the kind of registers it defines (a
 * subset of c->gprod), plus the soft-clause groups it is a member of.  An
 * instruction whose *prod meets no *cons of any instruction that can still
 * follow needs no history entry: gcn_hz_skip() instead of gcn_hz_push()
 * gives the same findings. */
void gcn_hz_roles(const gcn_hz_insn *c, uint64_t *cons, uint64_t *prod);
/* The window of rule group g (bit g of the masks) under gcn_hz_reset flags:
 * a producer that many wait states back or more is not seen; 0 for the
 * soft-clause groups (they look at the current clause instead). */
unsigned gcn_hz_group_window(unsigned g, unsigned flags);
/* Let an instruction of `ws` wait states pass without a history entry
 * (it must be no soft-clause member the caller checks, see gcn_hz_roles):
 * what gcn_hz_push does for such an instruction, inline for the
 * simulator's inner loop. */
static inline void gcn_hz_skip(gcn_hz_state *s, unsigned ws)
{
    s->clause.kind = 0;
    s->clause.count = 0;
    s->clock += (int32_t)ws;
}

/* gcn_hz_push for the simulator's inner loop: the common case (an instruction of one wait
 * state with a history entry, room for it without expiring entries) inline, the rest by
 * gcn_hz_push; the same state either way. */
static inline void gcn_hz_push_fast(gcn_hz_state *s, const gcn_hz_insn *c)
{
    if (c->ws != 1 || !c->cls || (c->cls & HZC_NOP) || s->n >= GCN_HZ_MAXHIST - 1) {
        gcn_hz_push(s, c);
        return;
    }
    unsigned kind = (c->cls & HZC_SMEM) ? 1 : (c->cls & HZC_VMEM) ? 2 : 0;
    if (kind != s->clause.kind) {
        s->clause.kind = (uint8_t)kind;
        s->clause.count = 0;
    }
    if (kind)
        s->clause.count++;
    s->clock += 1;
    gcn_hz_entry *e = &s->hist[s->n++];
    e->in = c;
    e->gprod = c->gprod;
    e->stamp = s->clock;
    e->maybe = 0;
    s->gprod_union |= c->gprod;
}

/* 1 when a and b describe the same history (fixed points in the linter). */
int gcn_hz_same(const gcn_hz_state *a, const gcn_hz_state *b);

/* "v7", "a[3]", "s5", "vcc_lo", "exec_lo", "m0" for a unit. */
const char *gcn_hz_unit_name(int unit, char *buf, size_t len);

/* One line: "XDL_SRCAB: v_mfma... @0x40 -> ... @0x48 v3: needs 7 wait states, has 4". */
void gcn_hz_format(const gcn_hz_finding *f, gcn_strbuf *sb);

#endif

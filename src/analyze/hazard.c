/*
 * hazard.c -- the hazard engine over the table in hazards.def.
 *
 * A gcn_hz_state is the recent history of one wave (or of one CFG point in
 * the linter): the last instructions that can still be producers of some
 * rule, each with the wait-state clock after it.  gcn_hz_check() evaluates
 * the groups of hazards.def for a consumer the way LLVM's hazard recognizer
 * does (per operand, nearest matching producer within the group's window,
 * then the first matching row); gcn_hz_push() appends; gcn_hz_join() merges
 * two histories keeping each producer's minimum distance, and the
 * gcn_hz_multi_* functions keep several histories apart (per-path precision
 * for the linter).
 *
 * Per-instruction facts (classes, register ranges, the masks of the rule
 * groups it consumes and may produce for) are computed once by
 * gcn_hz_analyze() from the ISA table row flags and the decoded operands, so
 * a check only visits the groups whose producers are in the history.
 *
 * Two evaluations per group and operand (hazards.def): the wait required
 * (first matching row that is not llvm-conservative: an error when short)
 * and, with GCN_HZ_LLVM, LLVM's wait (first matching row LLVM has: a finding
 * of the llvm-conservative row when it asks for more and is short).
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_hazard.h"
#include "gcn_facts.h"

/* ------------------------------------------------------------ the table */

enum { T942 = 1u, T950 = 2u, TX = 4u };

typedef struct hz_pred { uint32_t any, all, none; } hz_pred;
#define PRED(a, l, n) { (a), (l), (n) }
#define PANY { 0, 0, 0 }

enum hz_rel {
    REL_USE, REL_USE_ALL, REL_USE_SGPR, REL_USE_VGPR, REL_SRC0, REL_LANESEL,
    REL_USE_VDST, REL_ANY_VDST, REL_DEF, REL_DEF_SRCC, REL_DEF_SDATA,
    REL_EXEC, REL_VCC, REL_M0, REL_HWREG, REL_TRAPSTS, REL_NONE, REL_CLAUSE,
    REL_COUNT_
};

enum {
    M_SRCC = 1u << 0, M_NOTSRCC = 1u << 1, M_FULL = 1u << 2, M_PARTIAL = 1u << 3,
    M_SAMEOP = 1u << 4, M_DIFFOP = 1u << 5, M_P2 = 1u << 6, M_P4 = 1u << 7,
    M_VCC = 1u << 8, M_EXEC = 1u << 9, M_NOTEXEC = 1u << 10, M_SRC0 = 1u << 11,
    M_NOTSRC0 = 1u << 12, M_READ = 1u << 13, M_WRITE = 1u << 14, M_CARRY = 1u << 15,
};

/* Row sources (hazards.def SRC): S_CONS marks the llvm-conservative rows. */
enum { S_ISA = GCN_HZ_SRC_ISA, S_RR = GCN_HZ_SRC_ROCROLLER, S_LLVM = GCN_HZ_SRC_LLVM,
       S_CONS = 1u << 3 };
#define LLVMC (S_LLVM | S_CONS)

/* wait = mul * passes + add (+ add950 on gfx950; add950_2 when passes == 2) */
typedef struct hz_wait { int8_t mul, add, add950, add950_2; } hz_wait;
#define WS(k)        { 0, (k), 0, 0 }
#define WS2(a, b)    { 0, (a), (b) - (a), (b) - (a) }
#define WNP(a)       { 1, (a), 0, 0 }
#define WNP950(a)    { 1, (a), 1, 1 }
#define WNP950N2(a)  { 1, (a), 1, 0 }

enum hz_gid {
#define HZ_GROUP(GID, TG, CONS, PROD, REL, LIMIT, FUNC) GID,
#define HAZARD(NAME, GID, TG, PSEL, CSEL, MATCH, WAIT, SRC, CITE, DESC)
#include "hazards.def"
#undef HZ_GROUP
#undef HAZARD
    HZ_NGROUPS
};
_Static_assert(HZ_NGROUPS <= 64, "group masks are 64 bits");

typedef struct hz_group {
    const char *name, *func;
    unsigned targets;
    hz_pred cons, prod;
    uint8_t rel, limit;
} hz_group;

static const hz_group hz_groups[HZ_NGROUPS] = {
#define HZ_GROUP(GID, TG, CONS, PROD, REL, LIMIT, FUNC) \
    [GID] = { #GID, FUNC, (TG), CONS, PROD, (REL), (LIMIT) },
#define HAZARD(NAME, GID, TG, PSEL, CSEL, MATCH, WAIT, SRC, CITE, DESC)
#include "hazards.def"
#undef HZ_GROUP
#undef HAZARD
};

typedef struct hz_row {
    uint8_t gid;
    uint8_t src;             /* S_* */
    unsigned targets;
    hz_pred psel, csel;
    unsigned match;
    hz_wait wait;
} hz_row;

static const hz_row hz_rows[] = {
#define HZ_GROUP(GID, TG, CONS, PROD, REL, LIMIT, FUNC)
#define HAZARD(NAME, GID, TG, PSEL, CSEL, MATCH, WAIT, SRC, CITE, DESC) \
    { GID, (SRC), (TG), PSEL, CSEL, (MATCH), WAIT },
#include "hazards.def"
#undef HZ_GROUP
#undef HAZARD
};

static gcn_hz_rule hz_rules[] = {
#define HZ_GROUP(GID, TG, CONS, PROD, REL, LIMIT, FUNC)
#define HAZARD(NAME, GID, TG, PSEL, CSEL, MATCH, WAIT, SRC, CITE, DESC) \
    { #NAME, #GID, NULL, DESC, CITE, (SRC) & ~S_CONS, ((SRC) & S_CONS) != 0, (TG), 0, 0 },
#include "hazards.def"
#undef HZ_GROUP
#undef HAZARD
};
#define HZ_NROWS (sizeof hz_rows / sizeof hz_rows[0])

/* Rows of each group (contiguous in hazards.def). */
static uint8_t grp_first[HZ_NGROUPS], grp_nrows[HZ_NGROUPS];
/* Per-id static classes, and mnemonic facts gcn_hz_analyze needs (ID_*): constant tables
 * made by the compiler from the rows (isa/gcn_isa.def: format and flags) and their hazard
 * roles (isa/facts.def), instead of a loop over every row at the first use (most of the
 * hazard engine's set-up, a tenth of a short simulation's host instructions).  An id's
 * class is id_cls_row[id] | id_cls_hr[id], the f64-MFMA bits only for an MFMA row
 * (hz_id_cls). */
enum { ID_TIED_SRC2 = 1u, ID_FP8_DSTSEL = 2u, ID_FP4_DSTSEL = 4u, ID_CARRY_IN = 8u };
#define HZ_FMT_CLS(F) \
    ((F) == GCN_FMT_SOP1 || (F) == GCN_FMT_SOP2 || (F) == GCN_FMT_SOPK || \
     (F) == GCN_FMT_SOPC || (F) == GCN_FMT_SOPP ? HZC_SALU : \
     (F) == GCN_FMT_SMEM ? HZC_SMEM : \
     (F) == GCN_FMT_VOP1 || (F) == GCN_FMT_VOP2 || (F) == GCN_FMT_VOP3 || \
     (F) == GCN_FMT_VOP3P || (F) == GCN_FMT_VOP3PX2 ? HZC_VALU : \
     (F) == GCN_FMT_VOPC ? (HZC_VALU | HZC_VCMP) : \
     (F) == GCN_FMT_DS ? HZC_DS : \
     (F) == GCN_FMT_MUBUF || (F) == GCN_FMT_MTBUF || (F) == GCN_FMT_FLAT || \
     (F) == GCN_FMT_GLOBAL || (F) == GCN_FMT_SCRATCH ? HZC_VMEM : 0u)
#define HZ_FLAG_CLS(FL) \
    (((FL) & GCN_F_MFMA ? HZC_MFMA | ((FL) & GCN_F_XDL ? HZC_XDL : 0u) | \
                         ((FL) & GCN_F_DGEMM ? HZC_DGEMM : 0u) | \
                         ((FL) & GCN_F_SMFMAC ? HZC_SMFMAC : 0u) : 0u) | \
     ((FL) & GCN_F_TRANS ? HZC_TRANS : 0u) | ((FL) & GCN_F_GDS ? HZC_M0READ : 0u) | \
     ((FL) & GCN_F_WR_EXEC ? HZC_WREXEC : 0u) | \
     ((FL) & (GCN_F_STORE | GCN_F_ATOMIC) ? HZC_MAYSTORE : 0u) | \
     ((FL) & GCN_F_NOP ? HZC_NOP : 0u))
#define HZ_HR_CLS(HR) \
    (((HR) & GCN_HR_DGEMM4 ? HZC_DGEMM4 : 0u) | ((HR) & GCN_HR_DGEMM16 ? HZC_DGEMM16 : 0u) | \
     ((HR) & GCN_HR_DOT ? HZC_DOT : 0u) | ((HR) & GCN_HR_READLANE ? HZC_READLANE : 0u) | \
     ((HR) & GCN_HR_WRITELANE ? HZC_WRITELANE : 0u) | \
     ((HR) & GCN_HR_RWLANE ? HZC_RWLANE : 0u) | ((HR) & GCN_HR_DIVFMAS ? HZC_DIVFMAS : 0u) | \
     ((HR) & GCN_HR_SETREG ? HZC_SETREG : 0u) | ((HR) & GCN_HR_GETREG ? HZC_GETREG : 0u) | \
     ((HR) & GCN_HR_RFE ? HZC_RFE : 0u) | ((HR) & GCN_HR_M0READ ? HZC_M0READ : 0u) | \
     ((HR) & GCN_HR_FMA64 ? HZC_FMA64 : 0u) | ((HR) & GCN_HR_PERMSWAP ? HZC_PERMSWAP : 0u))
#define HZ_HR_MFL(HR) \
    (((HR) & GCN_HR_TIED_SRC2 ? ID_TIED_SRC2 : 0u) | \
     ((HR) & GCN_HR_FP8_DSTSEL ? ID_FP8_DSTSEL : 0u) | \
     ((HR) & GCN_HR_FP4_DSTSEL ? ID_FP4_DSTSEL : 0u) | \
     ((HR) & GCN_HR_CARRY_IN ? ID_CARRY_IN : 0u))
static const uint32_t id_cls_row[GCN_ID_COUNT] = {
#define INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG) \
    [GCN_ID_##ID] = HZ_FMT_CLS(GCN_FMT_##FMT) | HZ_FLAG_CLS((uint64_t)(FLAGS)),
#include "isa/gcn_isa.def"
#undef INSN
};
static const uint32_t id_cls_hr[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) [GCN_ID_##ID] = HZ_HR_CLS((uint32_t)(HZ)),
#include "isa/facts.def"
#undef FACT
};
static const uint8_t id_mfl[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) [GCN_ID_##ID] = HZ_HR_MFL((uint32_t)(HZ)),
#include "isa/facts.def"
#undef FACT
};

/* The static class of row id (1 <= id < GCN_ID_COUNT). */
static inline uint32_t hz_id_cls(unsigned id)
{
    uint32_t c = id_cls_row[id], h = id_cls_hr[id];
    if (!(c & HZC_MFMA))
        h &= ~(uint32_t)(HZC_DGEMM4 | HZC_DGEMM16);
    return c | h;
}
static uint64_t clause_groups;   /* groups with REL_CLAUSE */
static pthread_once_t hz_once = PTHREAD_ONCE_INIT;

static void hz_init(void)
{
    for (unsigned g = 0; g < HZ_NGROUPS; g++)
        grp_nrows[g] = 0;
    for (unsigned i = 0; i < HZ_NROWS; i++) {
        unsigned g = hz_rows[i].gid;
        if (!grp_nrows[g])
            grp_first[g] = (uint8_t)i;
        assert(grp_first[g] + grp_nrows[g] == i && "rows of a group must be contiguous");
        grp_nrows[g]++;
        hz_rules[i].func = (hz_rows[i].src & S_LLVM) ? hz_groups[g].func : "";
        hz_rules[i].limit = hz_groups[g].limit;
        hz_rules[i].passes_dep = hz_rows[i].wait.mul != 0;
    }
    for (unsigned g = 0; g < HZ_NGROUPS; g++)
        if (hz_groups[g].rel == REL_CLAUSE)
            clause_groups |= 1ull << g;
}

static int pred_ok(const hz_pred *p, uint32_t cls);

/* The row-by-row derivation of the classes (the set-up loop before the tables were made by
 * the compiler), compared with the tables for every row; returns the number of rows that
 * differ, each named on rep (tests/analyze/test_hazard_unit). */
unsigned gcn_hz_check_classes(FILE *rep)
{
    static const uint32_t hr_of[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) [GCN_ID_##ID] = (HZ),
#include "isa/facts.def"
#undef FACT
    };
    unsigned bad = 0;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        uint32_t hr = hr_of[id], c = 0;
        uint8_t mfl = 0;
        switch (r->fmt) {
        case GCN_FMT_SOP1: case GCN_FMT_SOP2: case GCN_FMT_SOPK: case GCN_FMT_SOPC:
        case GCN_FMT_SOPP:
            c |= HZC_SALU; break;
        case GCN_FMT_SMEM: c |= HZC_SMEM; break;
        case GCN_FMT_VOP1: case GCN_FMT_VOP2: case GCN_FMT_VOP3: case GCN_FMT_VOP3P:
        case GCN_FMT_VOP3PX2:
            c |= HZC_VALU; break;
        case GCN_FMT_VOPC: c |= HZC_VALU | HZC_VCMP; break;
        case GCN_FMT_DS: c |= HZC_DS; break;
        case GCN_FMT_MUBUF: case GCN_FMT_MTBUF: case GCN_FMT_FLAT: case GCN_FMT_GLOBAL:
        case GCN_FMT_SCRATCH:
            c |= HZC_VMEM; break;
        default: break;
        }
        if (r->flags & GCN_F_MFMA) {
            c |= HZC_MFMA;
            if (r->flags & GCN_F_XDL) c |= HZC_XDL;
            if (r->flags & GCN_F_DGEMM) c |= HZC_DGEMM;
            if (r->flags & GCN_F_SMFMAC) c |= HZC_SMFMAC;
            if (hr & GCN_HR_DGEMM4) c |= HZC_DGEMM4;
            if (hr & GCN_HR_DGEMM16) c |= HZC_DGEMM16;
        }
        if (hr & GCN_HR_DOT) c |= HZC_DOT;
        if (r->flags & GCN_F_TRANS) c |= HZC_TRANS;
        if (hr & GCN_HR_READLANE) c |= HZC_READLANE;
        if (hr & GCN_HR_WRITELANE) c |= HZC_WRITELANE;
        if (hr & GCN_HR_RWLANE) c |= HZC_RWLANE;
        if (hr & GCN_HR_DIVFMAS) c |= HZC_DIVFMAS;
        if (hr & GCN_HR_SETREG) c |= HZC_SETREG;
        if (hr & GCN_HR_GETREG) c |= HZC_GETREG;
        if (hr & GCN_HR_RFE) c |= HZC_RFE;
        if ((hr & GCN_HR_M0READ) || (r->flags & GCN_F_GDS)) c |= HZC_M0READ;
        if (hr & GCN_HR_FMA64) c |= HZC_FMA64;
        if (hr & GCN_HR_PERMSWAP) c |= HZC_PERMSWAP;
        if (r->flags & GCN_F_WR_EXEC) c |= HZC_WREXEC;
        if (r->flags & (GCN_F_STORE | GCN_F_ATOMIC)) c |= HZC_MAYSTORE;
        if (r->flags & GCN_F_NOP) c |= HZC_NOP;
        if (hr & GCN_HR_TIED_SRC2) mfl |= ID_TIED_SRC2;
        if (hr & GCN_HR_FP8_DSTSEL) mfl |= ID_FP8_DSTSEL;
        if (hr & GCN_HR_FP4_DSTSEL) mfl |= ID_FP4_DSTSEL;
        if (hr & GCN_HR_CARRY_IN) mfl |= ID_CARRY_IN;
        if (c != hz_id_cls(id) || mfl != id_mfl[id]) {
            if (rep)
                fprintf(rep, "hazard classes of %s: 0x%08x/%u by the rows, 0x%08x/%u in the "
                        "tables\n", r->mnem, c, mfl, hz_id_cls(id), id_mfl[id]);
            bad++;
        }
    }
    return bad;
}

/* ------------------------------------------------------------- analysis */

static int add_range(gcn_hz_range *arr, uint8_t *n, unsigned max, unsigned lo,
                     unsigned cnt, unsigned role)
{
    if (!cnt || *n >= max)
        return -1;
    arr[*n].lo = (uint16_t)lo;
    arr[*n].n = (uint8_t)cnt;
    arr[*n].role = (uint8_t)role;
    return (*n)++;
}

static int ranges_overlap(gcn_hz_range a, gcn_hz_range b)
{
    return a.n && b.n && a.lo < b.lo + b.n && b.lo < a.lo + a.n;
}

static int covers_unit(const gcn_hz_range *arr, unsigned n, unsigned unit)
{
    for (unsigned i = 0; i < n; i++)
        if (unit >= arr[i].lo && unit < (unsigned)arr[i].lo + arr[i].n)
            return 1;
    return 0;
}

/* Do [lo, lo+n) and [ulo, ulo+un) overlap? */
static int span_has(unsigned lo, unsigned n, unsigned ulo, unsigned un)
{
    return lo < ulo + un && ulo < lo + n;
}

/* Unit of a register operand, or -1. */
static int opnd_unit(const gcn_opnd *o, int *lds_direct)
{
    switch (o->kind) {
    case GCN_OPND_SGPR: return o->reg < 128 ? o->reg : -1;
    case GCN_OPND_TTMP: return 108 + o->reg;
    case GCN_OPND_VGPR: return (int)GCN_HZ_UNIT_VGPR + o->reg;
    case GCN_OPND_AGPR: return (int)GCN_HZ_UNIT_AGPR + o->reg;
    case GCN_OPND_SPECIAL:
        if (o->reg == 254 && lds_direct)
            *lds_direct = 1;
        return o->reg < 128 ? o->reg : -1;
    default: return -1;
    }
}


/* The groups a class takes part in on targets tb, as consumer (*gcons) and producer
 * (*gprod); a few classes recur among an object's instructions, so the last ones are kept
 * per thread (the key's tb is never 0: an entry not yet made matches nothing). */
static void hz_cls_groups(uint32_t cls, unsigned tb, uint64_t *gcons, uint64_t *gprod)
{
    static _Thread_local struct { uint32_t cls, tb; uint64_t gcons, gprod; } memo[64];
    unsigned h = (unsigned)((cls * 0x9e3779b1u) ^ tb) >> 26;
    if (memo[h].tb == tb && memo[h].cls == cls) {
        *gcons = memo[h].gcons;
        *gprod = memo[h].gprod;
        return;
    }
    uint64_t gc = 0, gp = 0;
    for (unsigned g = 0; g < HZ_NGROUPS; g++) {
        const hz_group *G = &hz_groups[g];
        if (!(G->targets & tb))
            continue;
        if (pred_ok(&G->cons, cls))
            gc |= 1ull << g;
        if (pred_ok(&G->prod, cls))
            gp |= 1ull << g;
    }
    memo[h].cls = cls;
    memo[h].tb = tb;
    memo[h].gcons = *gcons = gc;
    memo[h].gprod = *gprod = gp;
}

void gcn_hz_analyze(const gcn_decoder *d, const gcn_insn *in, gcn_hz_insn *out)
{
    pthread_once(&hz_once, hz_init);
    memset(out, 0, sizeof *out);
    out->pc = in->addr;
    out->id = in->id;
    out->ws = 1;
    out->hwreg = -1;
    if (in->id == GCN_ID_INVALID || in->id >= GCN_ID_COUNT)
        return;
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    uint32_t cls = hz_id_cls(in->id);
    uint64_t fl = r->flags;
    int lds_direct = 0;
    int vdst_def = -1, has_vcc_use = 0, has_m0_use = 0, has_m0_def = 0, has_exec_def = 0;
    const gcn_opnd *vdst_op = NULL;

    for (unsigned i = 0; i < in->nopnds; i++) {
        const gcn_opnd *o = &in->op[i];
        int u = opnd_unit(o, &lds_direct);
        if (u < 0)
            continue;
        unsigned n = o->nregs ? o->nregs : 1;
        unsigned expl = o->field == GCN_FLD_VCC_IMPLICIT ? 0 : HZR_EXPL;
        if (o->flags & GCN_OPF_DST) {
            unsigned role = expl;
            if (o->field == GCN_FLD_VDST) {
                role |= HZR_VDST;
                vdst_op = o;
            }
            int k = add_range(out->def, &out->ndef, GCN_HZ_MAXDEF, (unsigned)u, n, role);
            if (o->field == GCN_FLD_VDST)
                vdst_def = k;
            if (span_has((unsigned)u, n, GCN_HZ_UNIT_EXEC, 2)) has_exec_def = 1;
            if (span_has((unsigned)u, n, GCN_HZ_UNIT_M0, 1)) has_m0_def = 1;
        }
        if (o->flags & GCN_OPF_SRC) {
            unsigned role = expl;
            if (o->field == GCN_FLD_SRC0) role |= HZR_SRC0;
            if (o->field == GCN_FLD_SRC1) role |= HZR_SRC1;
            if ((id_mfl[in->id] & ID_CARRY_IN) &&
                (o->field == GCN_FLD_SRC2 || o->field == GCN_FLD_VCC_IMPLICIT))
                role |= HZR_CARRY;
            if (o->field == GCN_FLD_SRC2 && (cls & (HZC_MFMA | HZC_DOT)) && !(cls & HZC_SMFMAC))
                role |= HZR_SRCC;
            int k = add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, (unsigned)u, n, role);
            if (k >= 0 && (role & HZR_SRCC))
                out->srcc = out->use[k];
            if (span_has((unsigned)u, n, GCN_HZ_UNIT_VCC, 2)) has_vcc_use = 1;
            if (span_has((unsigned)u, n, GCN_HZ_UNIT_M0, 1)) has_m0_use = 1;
        }
    }

    /* Operands LLVM has that the printed form folds away. */
    if (vdst_op && vdst_def >= 0) {
        gcn_hz_range vd = out->def[vdst_def];
        if (cls & HZC_SMFMAC) {
            /* SMFMAC: srcC is the tied vdst (the printed third source is the index). */
            int k = add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, vd.lo, vd.n, HZR_EXPL | HZR_SRCC);
            if (k >= 0)
                out->srcc = out->use[k];
        }
        /* v_fmac/v_mac/v_dot2c and their DPP/e64 forms: src2 tied to vdst. */
        if ((in->enc == GCN_FMT_VOP2 || in->enc == GCN_FMT_VOP3) &&
            (id_mfl[in->id] & ID_TIED_SRC2))
            add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, vd.lo, vd.n,
                      HZR_EXPL | ((cls & HZC_DOT) ? HZR_SRCC : 0));
        else if (in->sub == GCN_SUB_DPP)   /* the "old" operand */
            add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, vd.lo, vd.n, HZR_EXPL);
        if (in->sub == GCN_SUB_SDWA && in->m.dst_unused == 2)  /* UNUSED_PRESERVE */
            add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, vd.lo, vd.n, 0);
        if (cls & HZC_PERMSWAP) {
            /* swaps vdst and src0: both read and written */
            add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, vd.lo, vd.n, HZR_EXPL);
            for (unsigned i = 0; i < out->nuse; i++)
                if (out->use[i].role & HZR_SRC0)
                    add_range(out->def, &out->ndef, GCN_HZ_MAXDEF, out->use[i].lo,
                              out->use[i].n, HZR_EXPL);
        }
    }
    /* Implicit operands from the row flags. */
    if (fl & GCN_F_RD_EXEC)
        add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, GCN_HZ_UNIT_EXEC, 2, 0);
    if ((fl & GCN_F_WR_EXEC) && !has_exec_def)
        add_range(out->def, &out->ndef, GCN_HZ_MAXDEF, GCN_HZ_UNIT_EXEC, 2, 0);
    if ((cls & HZC_DIVFMAS) && !has_vcc_use)
        add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, GCN_HZ_UNIT_VCC, 2, 0);
    if ((fl & GCN_F_RD_M0) && !has_m0_use)
        add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, GCN_HZ_UNIT_M0, 1, 0);
    if ((fl & GCN_F_WR_M0) && !has_m0_def)
        add_range(out->def, &out->ndef, GCN_HZ_MAXDEF, GCN_HZ_UNIT_M0, 1, 0);
    if (covers_unit(out->def, out->ndef, GCN_HZ_UNIT_EXEC) ||
        covers_unit(out->def, out->ndef, GCN_HZ_UNIT_EXEC + 1))
        cls |= HZC_WREXEC;

    /* Instance classes. */
    if (in->sub == GCN_SUB_DPP)
        cls |= HZC_DPP;
    if ((fl & GCN_F_LDS_DMA) && (r->fmt != GCN_FMT_MUBUF || in->m.lds)) {
        /* LDS DMA: LLVM counts it as VALU (isVALU with AllowLDSDMA) and it reads M0 */
        cls |= HZC_VALU | HZC_M0READ | HZC_MAYSTORE | HZC_LDSDMA;
        if (!covers_unit(out->use, out->nuse, GCN_HZ_UNIT_M0))
            add_range(out->use, &out->nuse, GCN_HZ_MAXUSE, GCN_HZ_UNIT_M0, 1, 0);
    }
    if (r->fmt == GCN_FMT_DS && in->m.gds)
        cls |= HZC_M0READ;
    if (lds_direct)
        cls |= HZC_M0READ;
    if (cls & HZC_VALU) {
        /* partial-dst forwarding producers (getDstSelForwardingOperand) */
        if (in->sub == GCN_SUB_SDWA && (in->enc == GCN_FMT_VOP1 || in->enc == GCN_FMT_VOP2) &&
            in->m.dst_sel != 6 && vdst_op)
            cls |= HZC_DSTSEL;
        if (in->enc == GCN_FMT_VOP3 && (in->m.op_sel & 8))
            cls |= HZC_DSTSEL;
        /* VOP3P: LLVM tests the same src0_modifiers bit, which there is
         * op_sel_hi of src0 (set by default for packed math): every such
         * instruction counts as a forwarding producer for LLVM.  A packed op
         * writes its whole destination (ISA 4.5 asks for the wait only
         * after ops that change the result's bit position): its own class,
         * for the llvm-conservative row VOP3P_OPSEL_VALU. */
        if (in->enc == GCN_FMT_VOP3P && !(fl & (GCN_F_MFMA | GCN_F_ACCVGPR)) &&
            (in->m.op_sel_hi & 1))
            cls |= HZC_PKSEL;
        if ((id_mfl[in->id] & ID_FP8_DSTSEL) && (in->m.op_sel & 4))
            cls |= HZC_DSTSEL;
        if (id_mfl[in->id] & ID_FP4_DSTSEL)
            cls |= HZC_DSTSEL;
    }
    if ((cls & HZC_VMEM) && (cls & HZC_MAYSTORE) && !(fl & GCN_F_LDS_DMA)) {
        /* has12DWordStoreHazard: store data wider than 64 bits; MUBUF/MTBUF
         * only when soffset is not a register (createsVALUHazard). */
        const gcn_opnd *data = gcn_insn_field(in, GCN_FLD_VDATA);
        if (!data)
            data = gcn_insn_field(in, GCN_FLD_DATA0);
        int wide = data && (data->flags & GCN_OPF_SRC) && data->nregs > 2 &&
                   (data->kind == GCN_OPND_VGPR || data->kind == GCN_OPND_AGPR);
        if (wide && (r->fmt == GCN_FMT_MUBUF || r->fmt == GCN_FMT_MTBUF)) {
            const gcn_opnd *so = gcn_insn_field(in, GCN_FLD_SOFFSET);
            if (so && (so->kind == GCN_OPND_SGPR || so->kind == GCN_OPND_TTMP ||
                       so->kind == GCN_OPND_SPECIAL))
                wide = 0;
        }
        if (wide) {
            int u = opnd_unit(data, NULL);
            cls |= HZC_WIDESTORE;
            out->sdata.lo = (uint16_t)u;
            out->sdata.n = data->nregs;
        }
    }
    if (cls & HZC_MFMA)
        out->passes = (uint8_t)gcn_mfma_passes(d, in);
    if (cls & (HZC_SETREG | HZC_GETREG)) {
        const gcn_opnd *h = gcn_insn_field(in, GCN_FLD_SIMM16);
        if (h)
            out->hwreg = (int8_t)(h->imm & 0x3f);
    }
    if (cls & HZC_NOP) {
        const gcn_opnd *h = gcn_insn_field(in, GCN_FLD_SIMM16);
        /* the hardware uses SIMM16[3:0] (1..16 wait states); LLVM's
         * getNumWaitStates counts imm + 1 and never emits more than s_nop 7 */
        out->ws = (uint8_t)(h ? (h->imm & 0xf) + 1 : 1);
    }
    out->cls = cls;
    /* the rule groups it takes part in (on the decoder's target) */
    unsigned tb = d && d->target == GCN_TARGET_GFX950 ? T950 :
                  d && d->target == GCN_TARGET_GFX942 ? T942 : (T942 | T950);
    hz_cls_groups(cls, tb, &out->gcons, &out->gprod);
}

/* --------------------------------------------------------------- state */

void gcn_hz_reset(gcn_hz_state *s, gcn_target t, unsigned flags)
{
    pthread_once(&hz_once, hz_init);
    memset(s, 0, sizeof *s);
    s->target = t;
    s->flags = flags;
}

static unsigned target_bit(const gcn_hz_state *s)
{
    return s->target == GCN_TARGET_GFX950 ? T950 : T942;
}

static int pred_ok(const hz_pred *p, uint32_t cls)
{
    if (p->any && !(cls & p->any))
        return 0;
    if ((cls & p->all) != p->all)
        return 0;
    return !(cls & p->none);
}

static int targets_ok(const gcn_hz_state *s, unsigned tg)
{
    if (!(tg & target_bit(s)))
        return 0;
    if ((tg & TX) && !(s->flags & GCN_HZ_XNACK))
        return 0;
    return 1;
}

static int wait_of(const hz_row *r, unsigned passes, int gfx950)
{
    int w = r->wait.mul * (int)passes + r->wait.add;
    if (gfx950)
        w += passes == 2 ? r->wait.add950_2 : r->wait.add950;
    return w;
}

/* A query: one consumer operand (or a fixed register). */
typedef struct hz_query {
    gcn_hz_range r;
    uint8_t def;             /* the consumer writes it (REL_ANY_VDST, REL_DEF*) */
} hz_query;

/* Does producer p relate to the query under rel?  Sets *unit, *full and the
 * overlapping registers *ov. */
static int rel_match(unsigned rel, const gcn_hz_insn *p, const gcn_hz_insn *c,
                     const hz_query *q, int *unit, int *full, gcn_hz_range *ov)
{
    const gcn_hz_range *pr = NULL;
    unsigned npr = 0;
    gcn_hz_range one;
    *full = 0;
    *unit = -1;
    ov->lo = 0;
    ov->n = 0;
    ov->role = 0;
    switch (rel) {
    case REL_NONE:
        return 1;
    case REL_HWREG:
        return p->hwreg >= 0 && p->hwreg == c->hwreg;
    case REL_TRAPSTS:
        return p->hwreg == 3;   /* HW_REG_TRAPSTS */
    case REL_USE_VDST: case REL_ANY_VDST:
        pr = NULL;
        for (unsigned i = 0; i < p->ndef; i++)
            if (p->def[i].role & HZR_VDST) {
                one = p->def[i];
                pr = &one;
                npr = 1;
            }
        break;
    case REL_DEF_SRCC:
        one = p->srcc; pr = &one; npr = 1; break;
    case REL_DEF_SDATA:
        one = p->sdata; pr = &one; npr = 1; break;
    default:
        pr = p->def; npr = p->ndef; break;
    }
    for (unsigned i = 0; i < npr; i++) {
        if (!ranges_overlap(pr[i], q->r))
            continue;
        unsigned lo = pr[i].lo > q->r.lo ? pr[i].lo : q->r.lo;
        unsigned e1 = (unsigned)pr[i].lo + pr[i].n, e2 = (unsigned)q->r.lo + q->r.n;
        *unit = (int)lo;
        *full = pr[i].lo == q->r.lo && pr[i].n == q->r.n;
        ov->lo = (uint16_t)lo;
        ov->n = (uint8_t)((e1 < e2 ? e1 : e2) - lo);
        return 1;
    }
    return 0;
}

/* Queries of consumer c for relation rel. */
static unsigned queries(unsigned rel, const gcn_hz_insn *c, hz_query *q, unsigned max)
{
    unsigned n = 0;
#define Q(range) do { if (n < max) { q[n].r = (range); q[n++].def = 0; } } while (0)
#define QD(range) do { if (n < max) { q[n].r = (range); q[n++].def = 1; } } while (0)
    gcn_hz_range fixed;
    switch (rel) {
    case REL_USE: case REL_USE_VDST:
        for (unsigned i = 0; i < c->nuse; i++)
            if (c->use[i].role & HZR_EXPL) Q(c->use[i]);
        break;
    case REL_USE_ALL:
        for (unsigned i = 0; i < c->nuse; i++)
            if (c->use[i].lo < GCN_HZ_UNIT_VGPR) Q(c->use[i]);
        break;
    case REL_USE_SGPR: {
        int vcc = 0;
        unsigned vrole = 0;
        for (unsigned i = 0; i < c->nuse; i++) {
            const gcn_hz_range *u = &c->use[i];
            if (u->lo >= GCN_HZ_UNIT_VGPR)
                continue;
            if (u->role & HZR_EXPL)
                Q(*u);
            else if (u->lo <= GCN_HZ_UNIT_VCC + 1 && u->lo + u->n > GCN_HZ_UNIT_VCC) {
                vcc = 1;
                vrole |= u->role & HZR_CARRY;   /* VOP2 v_addc: VCC is the carry-in */
            }
        }
        if (vcc) {
            fixed.lo = GCN_HZ_UNIT_VCC; fixed.n = 2; fixed.role = (uint8_t)vrole;
            Q(fixed);
        }
        break;
    }
    case REL_USE_VGPR:
        for (unsigned i = 0; i < c->nuse; i++)
            if (c->use[i].lo >= GCN_HZ_UNIT_VGPR && c->use[i].lo < GCN_HZ_UNIT_AGPR)
                Q(c->use[i]);
        break;
    case REL_SRC0:
        for (unsigned i = 0; i < c->nuse; i++)
            if ((c->use[i].role & HZR_SRC0) && c->use[i].lo >= GCN_HZ_UNIT_VGPR)
                Q(c->use[i]);
        break;
    case REL_LANESEL:
        for (unsigned i = 0; i < c->nuse; i++)
            if ((c->use[i].role & HZR_SRC1) && c->use[i].lo < GCN_HZ_UNIT_VGPR)
                Q(c->use[i]);
        break;
    case REL_ANY_VDST:
        for (unsigned i = 0; i < c->nuse; i++) Q(c->use[i]);
        for (unsigned i = 0; i < c->ndef; i++) QD(c->def[i]);
        break;
    case REL_DEF: case REL_DEF_SRCC:
        for (unsigned i = 0; i < c->ndef; i++)
            if (c->def[i].role & HZR_EXPL) QD(c->def[i]);
        break;
    case REL_DEF_SDATA:
        for (unsigned i = 0; i < c->ndef; i++)
            if ((c->def[i].role & HZR_EXPL) && c->def[i].lo >= GCN_HZ_UNIT_VGPR) QD(c->def[i]);
        break;
    case REL_EXEC:
        fixed.lo = GCN_HZ_UNIT_EXEC; fixed.n = 2; fixed.role = 0; Q(fixed); break;
    case REL_VCC:
        fixed.lo = GCN_HZ_UNIT_VCC; fixed.n = 2; fixed.role = 0; Q(fixed); break;
    case REL_M0:
        fixed.lo = GCN_HZ_UNIT_M0; fixed.n = 1; fixed.role = 0; Q(fixed); break;
    default:  /* REL_NONE, REL_HWREG, REL_TRAPSTS: one query */
        fixed.lo = 0; fixed.n = 0; fixed.role = 0; Q(fixed); break;
    }
#undef Q
#undef QD
    return n;
}

/* Relations where the consumer reads the producer's result. */
static int rel_is_raw(unsigned rel)
{
    switch (rel) {
    case REL_USE: case REL_USE_ALL: case REL_USE_SGPR: case REL_USE_VGPR: case REL_SRC0:
    case REL_LANESEL: case REL_USE_VDST: case REL_EXEC: case REL_VCC: case REL_M0:
        return 1;
    default:
        return 0;
    }
}

static int span_in(gcn_hz_range ov, unsigned lo, unsigned n)
{
    return ov.n && ov.lo >= lo && (unsigned)ov.lo + ov.n <= lo + n;
}

static int row_ok(const hz_row *r, const gcn_hz_state *s, const gcn_hz_insn *p,
                  const gcn_hz_insn *c, const hz_query *q, int full, gcn_hz_range ov)
{
    if (!targets_ok(s, r->targets))
        return 0;
    if (!pred_ok(&r->psel, p->cls) || !pred_ok(&r->csel, c->cls))
        return 0;
    unsigned m = r->match;
    int srcc = (q->r.role & HZR_SRCC) != 0;
    if ((m & M_SRCC) && !srcc) return 0;
    if ((m & M_NOTSRCC) && srcc) return 0;
    if ((m & M_FULL) && !full) return 0;
    if ((m & M_PARTIAL) && full) return 0;
    if ((m & M_SAMEOP) && p->id != c->id) return 0;
    if ((m & M_DIFFOP) && p->id == c->id) return 0;
    if ((m & M_P2) && p->passes != 2) return 0;
    if ((m & M_P4) && p->passes != 4) return 0;
    if ((m & M_VCC) && !span_in(ov, GCN_HZ_UNIT_VCC, 2)) return 0;
    if ((m & M_EXEC) && !span_in(ov, GCN_HZ_UNIT_EXEC, 2)) return 0;
    if ((m & M_NOTEXEC) && span_in(ov, GCN_HZ_UNIT_EXEC, 2)) return 0;
    if ((m & M_SRC0) && !(q->r.role & HZR_SRC0)) return 0;
    if ((m & M_NOTSRC0) && (q->r.role & HZR_SRC0)) return 0;
    if ((m & M_READ) && q->def) return 0;
    if ((m & M_WRITE) && !q->def) return 0;
    if ((m & M_CARRY) && !(q->r.role & HZR_CARRY)) return 0;
    return 1;
}

typedef struct hz_sink {
    gcn_hz_finding *out;
    unsigned max, n;
    unsigned worst;
} hz_sink;

static void emit(hz_sink *k, unsigned rule, const gcn_hz_insn *p, const gcn_hz_insn *c,
                 int unit, int need, int have, gcn_hz_range reg, int raw, int llvm)
{
    if ((unsigned)need > k->worst)
        k->worst = (unsigned)need;
    /* one finding per (rule, producer): keep the largest shortfall */
    for (unsigned i = 0; i < k->n && i < k->max; i++) {
        gcn_hz_finding *f = &k->out[i];
        if (f->rule == rule && f->prod_pc == p->pc) {
            if (need - have > (int)f->required - (int)f->present) {
                f->required = (uint8_t)need;
                f->present = (uint8_t)have;
                f->unit = (int16_t)unit;
                f->reg = reg;
                f->raw = (uint8_t)raw;
                f->llvm = (uint8_t)llvm;
            }
            return;
        }
    }
    if (k->n < k->max) {
        gcn_hz_finding *f = &k->out[k->n];
        f->rule = rule;
        f->prod_pc = p->pc;
        f->cons_pc = c->pc;
        f->prod_id = p->id;
        f->cons_id = c->id;
        f->unit = (int16_t)unit;
        f->required = (uint8_t)need;
        f->present = (uint8_t)(have > 255 ? 255 : have);
        f->reg = reg;
        f->raw = (uint8_t)raw;
        f->llvm = (uint8_t)llvm;
    }
    k->n++;
}

/* Does any def range of a overlap any use range of b? */
static int defs_hit_uses(const gcn_hz_insn *a, const gcn_hz_insn *b)
{
    for (unsigned i = 0; i < a->ndef; i++)
        for (unsigned j = 0; j < b->nuse; j++)
            if (ranges_overlap(a->def[i], b->use[j]))
                return 1;
    return 0;
}

/* LLVM's soft-clause check looks at the instructions it still remembers:
 * 5, or 19 when the function uses AGPR a0 (GCNHazardRecognizer MaxLookAhead).
 * The clause (those members and c) must not write a register any of them
 * reads, and must not hold a store.  An LDS DMA load stores to LDS only,
 * which no member of a VMEM clause reads: it is a load like the others for
 * the required row, and a store only for LLVM (llvm-conservative row). */
static void check_clause(const gcn_hz_state *s, unsigned g, const gcn_hz_insn *c, hz_sink *k)
{
    unsigned kind = (c->cls & HZC_SMEM) ? 1 : 2;
    if (s->clause.kind != kind || !s->clause.count || !s->n)
        return;
    unsigned look = (s->flags & GCN_HZ_AGPR0) ? 19 : 5;
    uint32_t need = kind == 1 ? HZC_SMEM : HZC_VMEM;
    const gcn_hz_insn *mem[20];
    unsigned nm = 0;
    int any_def = 0;
    for (unsigned e = s->n; e-- > 0 && nm < s->clause.count && nm < look;) {
        const gcn_hz_insn *p = s->hist[e].in;
        if (!(p->cls & need))
            break;
        if (p->ndef)
            any_def = 1;
        mem[nm++] = p;
    }
    if (!any_def)
        return;
    int ldsdma = (c->cls & HZC_LDSDMA) != 0;
    int hazard = (c->cls & HZC_MAYSTORE) && !ldsdma;
    mem[nm++] = c;
    for (unsigned i = 0; i < nm && !hazard; i++)
        for (unsigned j = 0; j < nm && !hazard; j++)
            hazard = defs_hit_uses(mem[i], mem[j]);
    /* rows: the required one, then (VMEM) the llvm-conservative LDS DMA one */
    unsigned req = grp_first[g], cons = req;
    for (unsigned ri = grp_first[g]; ri < (unsigned)grp_first[g] + grp_nrows[g]; ri++) {
        if (hz_rows[ri].src & S_CONS)
            cons = ri;
        else
            req = ri;
    }
    const gcn_hz_entry *last = &s->hist[s->n - 1];
    gcn_hz_range none = { 0, 0, 0 };
    if (hazard)
        emit(k, req, last->in, c, -1, 1, s->clock - last->stamp, none, 0, 0);
    else if (ldsdma && cons != req && (s->flags & GCN_HZ_LLVM))
        emit(k, cons, last->in, c, -1, 1, s->clock - last->stamp, none, 0, 1);
}

static void check_group(const gcn_hz_state *s, unsigned g, const gcn_hz_insn *c, hz_sink *k)
{
    const hz_group *G = &hz_groups[g];
    hz_query q[GCN_HZ_MAXUSE + GCN_HZ_MAXDEF];
    unsigned nq = queries(G->rel, c, q, sizeof q / sizeof q[0]);
    if (!nq)
        return;
    int gfx950 = s->target == GCN_TARGET_GFX950;
    int limit = (s->flags & GCN_HZ_STRICT) ? GCN_HZ_WINDOW : G->limit;
    uint64_t gbit = 1ull << g;
    uint32_t open = nq >= 32 ? ~0u : (1u << nq) - 1;
    /* newest first; per query the nearest matching producer decides and
     * hides older ones (unless it is only on some paths: maybe) */
    for (unsigned e = s->n; e-- > 0 && open;) {
        const gcn_hz_entry *E = &s->hist[e];
        int dist = s->clock - E->stamp;
        if (dist >= limit)
            break;
        if (!(E->gprod & gbit))
            continue;
        const gcn_hz_insn *p = E->in;
        for (uint32_t m = open; m;) {
            unsigned qi = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            int unit, full;
            gcn_hz_range ov;
            if (!rel_match(G->rel, p, c, &q[qi], &unit, &full, &ov))
                continue;
            /* the required row (first that is not llvm-conservative) and
             * LLVM's row (first LLVM has) */
            int rq = -1, rl = (s->flags & GCN_HZ_LLVM) ? -1 : -2;   /* -2: not wanted */
            for (unsigned ri = grp_first[g]; ri < (unsigned)grp_first[g] + grp_nrows[g]; ri++) {
                const hz_row *R = &hz_rows[ri];
                if ((rq >= 0 || (R->src & S_CONS)) && (rl != -1 || !(R->src & S_LLVM)))
                    continue;
                if (!row_ok(R, s, p, c, &q[qi], full, ov))
                    continue;
                if (rq < 0 && !(R->src & S_CONS))
                    rq = (int)ri;
                if (rl == -1 && (R->src & S_LLVM))
                    rl = (int)ri;
                if (rq >= 0 && rl != -1)
                    break;
            }
            int need = rq >= 0 ? wait_of(&hz_rows[rq], p->passes, gfx950) : 0;
            if (rq >= 0 && need > dist)
                emit(k, (unsigned)rq, p, c, unit, need, dist, ov, rel_is_raw(G->rel), 0);
            if (rl >= 0 && rl != rq) {
                int nl = wait_of(&hz_rows[rl], p->passes, gfx950);
                if (nl > dist && nl > need)
                    emit(k, (unsigned)rl, p, c, unit, nl, dist, ov, rel_is_raw(G->rel), 1);
            }
            if (!E->maybe)
                open &= ~(1u << qi);
        }
    }
}

/* An llvm-conservative finding says that LLVM wants more than the hardware
 * does; where a required finding of a rule LLVM also has, about the same
 * producer, already asks for at least as much (e.g. a DPP reading the same
 * VGPR as src0 and src1), it says nothing more: dropped.  (A required rule
 * LLVM lacks does not cover it: LLVM's wait there comes from the
 * conservative row alone.) */
static void drop_covered(hz_sink *k)
{
    unsigned m = k->n < k->max ? k->n : k->max, keep = 0;
    for (unsigned i = 0; i < m; i++) {
        const gcn_hz_finding *f = &k->out[i];
        int covered = 0;
        for (unsigned j = 0; f->llvm && j < m && !covered; j++)
            covered = !k->out[j].llvm && k->out[j].prod_pc == f->prod_pc &&
                      k->out[j].required >= f->required &&
                      (hz_rows[k->out[j].rule].src & S_LLVM);
        if (covered)
            continue;
        if (keep != i)
            k->out[keep] = *f;
        keep++;
    }
    k->n -= m - keep;
}

static unsigned do_check(const gcn_hz_state *s, const gcn_hz_insn *c, uint64_t groups,
                         hz_sink *k)
{
    /* groups c consumes whose producers are in the history (clause groups:
     * always, they look at the clause instead), of those the caller asks for */
    uint64_t m = c->gcons & (s->gprod_union | clause_groups) & groups;
    while (m) {
        unsigned g = (unsigned)__builtin_ctzll(m);
        m &= m - 1;
        const hz_group *G = &hz_groups[g];
        if (!targets_ok(s, G->targets))
            continue;
        if (G->rel == REL_CLAUSE)
            check_clause(s, g, c, k);
        else
            check_group(s, g, c, k);
    }
    if (s->flags & GCN_HZ_LLVM)
        drop_covered(k);
    return k->n;
}

unsigned gcn_hz_check(const gcn_hz_state *s, const gcn_hz_insn *c,
                      gcn_hz_finding *out, unsigned max)
{
    hz_sink k = { out, max, 0, 0 };
    return do_check(s, c, ~0ull, &k);
}

unsigned gcn_hz_check_groups(const gcn_hz_state *s, const gcn_hz_insn *c, uint64_t groups,
                             gcn_hz_finding *out, unsigned max)
{
    hz_sink k = { out, max, 0, 0 };
    return do_check(s, c, groups, &k);
}

unsigned gcn_hz_required(const gcn_hz_state *s, const gcn_hz_insn *c)
{
    gcn_hz_finding f[16];
    hz_sink k = { f, 16, 0, 0 };
    do_check(s, c, ~0ull, &k);
    return k.worst;
}

static void expire(gcn_hz_state *s)
{
    unsigned keep = 0;
    uint64_t u = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->clock - s->hist[i].stamp >= GCN_HZ_WINDOW)
            continue;
        if (keep != i)
            s->hist[keep] = s->hist[i];
        u |= s->hist[keep].gprod;       /* (in->gprod, kept in the entry) */
        keep++;
    }
    s->n = keep;
    s->gprod_union = u;
}

void gcn_hz_advance(gcn_hz_state *s, unsigned ws)
{
    if (!ws)
        return;
    s->clock += (int32_t)(ws > GCN_HZ_WINDOW ? GCN_HZ_WINDOW : ws);
    s->clause.kind = 0;
    s->clause.count = 0;
    expire(s);
}

void gcn_hz_push(gcn_hz_state *s, const gcn_hz_insn *c)
{
    /* soft clause bookkeeping (LLVM: consecutive SMEM or VMEM instructions) */
    unsigned kind = (c->cls & HZC_SMEM) ? 1 : (c->cls & HZC_VMEM) ? 2 : 0;
    if (kind != s->clause.kind || c->ws != 1) {
        s->clause.kind = (uint8_t)kind;
        s->clause.count = 0;
    }
    if (kind && c->ws == 1)
        s->clause.count++;
    s->clock += c->ws;
    if (c->cls && !(c->cls & HZC_NOP)) {
        if (s->n == GCN_HZ_MAXHIST)
            expire(s);      /* usually frees many slots: no shift per push */
        if (s->n == GCN_HZ_MAXHIST) {
            memmove(&s->hist[0], &s->hist[1], (GCN_HZ_MAXHIST - 1) * sizeof s->hist[0]);
            s->n--;
        }
        gcn_hz_entry *e = &s->hist[s->n++];
        e->in = c;
        e->gprod = c->gprod;
        e->stamp = s->clock;
        e->maybe = 0;
    }
    if (c->ws > 1 || s->n == GCN_HZ_MAXHIST)
        expire(s);
    else
        s->gprod_union |= c->gprod;
}

/* ------------------------------------------------------------------ join */

typedef struct hz_jent {
    gcn_hz_entry e;
    int dist;
    uint8_t sides, maybe;
} hz_jent;

static int jent_by_pc(const void *a, const void *b)
{
    const hz_jent *x = a, *y = b;
    if (x->e.in->pc != y->e.in->pc) return x->e.in->pc < y->e.in->pc ? -1 : 1;
    if (x->e.in->id != y->e.in->id) return x->e.in->id < y->e.in->id ? -1 : 1;
    return x->dist - y->dist;
}

static int jent_by_dist(const void *a, const void *b)
{
    const hz_jent *x = a, *y = b;
    if (x->dist != y->dist) return y->dist - x->dist;   /* oldest first */
    if (x->e.in->pc != y->e.in->pc) return x->e.in->pc < y->e.in->pc ? -1 : 1;
    return (int)x->e.in->id - (int)y->e.in->id;
}

/* A stable merge sort of a join's entries (at most 2 * GCN_HZ_MAXHIST) by
 * index, in the order qsort gave (glibc's is a stable merge sort too) at a
 * fraction of its cost: no entry is moved, and the comparisons are direct
 * calls the compiler can inline. */
static void jent_sort(const hz_jent *j, uint8_t *a, unsigned n, uint8_t *tmp,
                      int (*cmp)(const void *, const void *))
{
    if (n <= 12) {
        for (unsigned i = 1; i < n; i++) {
            uint8_t x = a[i];
            unsigned k = i;
            while (k && cmp(&j[a[k - 1]], &j[x]) > 0) {
                a[k] = a[k - 1];
                k--;
            }
            a[k] = x;
        }
        return;
    }
    unsigned h = n / 2;
    jent_sort(j, a, h, tmp, cmp);
    jent_sort(j, a + h, n - h, tmp, cmp);
    if (cmp(&j[a[h - 1]], &j[a[h]]) <= 0)
        return;                 /* already in order */
    unsigned i = 0, k = h, o = 0;
    while (i < h && k < n)
        tmp[o++] = cmp(&j[a[i]], &j[a[k]]) <= 0 ? a[i++] : a[k++];
    while (i < h)
        tmp[o++] = a[i++];
    memcpy(a, tmp, o);
}

void gcn_hz_join(gcn_hz_state *dst, const gcn_hz_state *src)
{
    /* A producer (by pc) keeps its minimum distance over both histories; it
     * hides older producers only when certain on both sides.  The result is
     * canonical (sorted, one entry per pc), so fixed points can be detected. */
    hz_jent j[2 * GCN_HZ_MAXHIST];
    uint8_t ix[2 * GCN_HZ_MAXHIST], tmp[2 * GCN_HZ_MAXHIST];
    unsigned n = 0;
    const gcn_hz_state *side[2] = { dst, src };
    for (unsigned sd = 0; sd < 2; sd++)
        for (unsigned i = 0; i < side[sd]->n; i++) {
            j[n].e = side[sd]->hist[i];
            j[n].dist = side[sd]->clock - side[sd]->hist[i].stamp;
            j[n].sides = (uint8_t)(1u << sd);
            j[n].maybe = side[sd]->hist[i].maybe;
            ix[n] = (uint8_t)n;
            n++;
        }
    jent_sort(j, ix, n, tmp, jent_by_pc);
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        hz_jent *x = &j[ix[i]];
        if (m && j[ix[m - 1]].e.in->pc == x->e.in->pc && j[ix[m - 1]].e.in->id == x->e.in->id) {
            j[ix[m - 1]].sides |= x->sides;     /* dist: the first is the minimum */
            j[ix[m - 1]].maybe |= x->maybe;
            continue;
        }
        ix[m++] = ix[i];
    }
    jent_sort(j, ix, m, tmp, jent_by_dist);
    unsigned skip = m > GCN_HZ_MAXHIST ? m - GCN_HZ_MAXHIST : 0;
    /* soft clause: the longer run of either side continues */
    if (src->clause.kind && (!dst->clause.kind || src->clause.count > dst->clause.count))
        dst->clause = src->clause;
    dst->clock = GCN_HZ_WINDOW;
    dst->n = 0;
    dst->gprod_union = 0;
    for (unsigned i = skip; i < m; i++) {
        const hz_jent *x = &j[ix[i]];
        if (x->dist >= GCN_HZ_WINDOW)
            continue;
        gcn_hz_entry *e = &dst->hist[dst->n++];
        *e = x->e;
        e->stamp = dst->clock - x->dist;
        e->maybe = x->sides != 3 || x->maybe;
        dst->gprod_union |= e->in->gprod;
    }
}

int gcn_hz_same(const gcn_hz_state *a, const gcn_hz_state *b)
{
    if (a->n != b->n || a->clause.kind != b->clause.kind)
        return 0;
    for (unsigned i = 0; i < a->n; i++) {
        const gcn_hz_entry *x = &a->hist[i], *y = &b->hist[i];
        if (x->in->pc != y->in->pc || x->in->id != y->in->id || x->maybe != y->maybe ||
            a->clock - x->stamp != b->clock - y->stamp)
            return 0;
    }
    if (a->clause.count != b->clause.count)
        return 0;
    return 1;
}

/* ------------------------------------------------------------ multi-state */

/* Copy the live part of a history (the entries beyond n are garbage). */
static void state_copy(gcn_hz_state *dst, const gcn_hz_state *src)
{
    memcpy(dst, src, offsetof(gcn_hz_state, hist) + src->n * sizeof src->hist[0]);
    dst->clause = src->clause;
}

void gcn_hz_multi_copy(gcn_hz_multi *dst, const gcn_hz_multi *src)
{
    dst->n = src->n;
    for (unsigned i = 0; i < src->n; i++)
        state_copy(&dst->alt[i], &src->alt[i]);
}

/* Drop the entries no rule can see any more (GCN_HZ_WINDOW or more wait
 * states back).  Entries are oldest first, so they are a prefix.  A
 * multi-state keeps its histories in this form, so that two histories
 * differing only in such entries are one (gcn_hz_push keeps them until its
 * amortised expiry, which made paths look distinct long after their
 * difference was invisible, and the surplus was merged with a loss of
 * precision). */
static void drop_stale(gcn_hz_state *s)
{
    unsigned k = 0;
    while (k < s->n && s->clock - s->hist[k].stamp >= GCN_HZ_WINDOW)
        k++;
    if (!k)
        return;
    s->n -= k;
    memmove(&s->hist[0], &s->hist[k], s->n * sizeof s->hist[0]);
    uint64_t u = 0;
    for (unsigned i = 0; i < s->n; i++)
        u |= s->hist[i].gprod;
    s->gprod_union = u;
}

void gcn_hz_multi_init(gcn_hz_multi *m, const gcn_hz_state *s)
{
    m->n = 1;
    state_copy(&m->alt[0], s);
    drop_stale(&m->alt[0]);
}

/* Canonical order of histories (so that equal sets compare equal). */
static int state_cmp(const gcn_hz_state *a, const gcn_hz_state *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    if (a->clause.kind != b->clause.kind) return a->clause.kind < b->clause.kind ? -1 : 1;
    if (a->clause.count != b->clause.count) return a->clause.count < b->clause.count ? -1 : 1;
    for (unsigned i = 0; i < a->n; i++) {
        const gcn_hz_entry *x = &a->hist[i], *y = &b->hist[i];
        int dx = a->clock - x->stamp, dy = b->clock - y->stamp;
        if (x->in != y->in) {
            if (x->in->pc != y->in->pc) return x->in->pc < y->in->pc ? -1 : 1;
            if (x->in->id != y->in->id) return x->in->id < y->in->id ? -1 : 1;
        }
        if (dx != dy) return dx < dy ? -1 : 1;
        if (x->maybe != y->maybe) return x->maybe < y->maybe ? -1 : 1;
    }
    return 0;
}

/* Sort, drop duplicates, merge the surplus beyond GCN_HZ_MAXALT.  alts[]
 * are only read (except the merged tail); the order is through an index. */
static void multi_normalize(gcn_hz_state *alts, unsigned n, gcn_hz_multi *out)
{
    unsigned ix[2 * GCN_HZ_MAXALT];
    assert(n <= 2 * GCN_HZ_MAXALT);
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {          /* insertion sort, dropping duplicates */
        unsigned j = m;
        int c = 1;
        while (j > 0 && (c = state_cmp(&alts[ix[j - 1]], &alts[i])) > 0)
            j--;
        if (j > 0 && c == 0)
            continue;                           /* equal to ix[j-1] */
        memmove(&ix[j + 1], &ix[j], (m - j) * sizeof ix[0]);
        ix[j] = i;
        m++;
    }
    while (m > GCN_HZ_MAXALT) {
        gcn_hz_join(&alts[ix[GCN_HZ_MAXALT - 1]], &alts[ix[m - 1]]);
        m--;
    }
    out->n = m;
    for (unsigned i = 0; i < m; i++)
        if (&out->alt[i] != &alts[ix[i]])
            state_copy(&out->alt[i], &alts[ix[i]]);
}

void gcn_hz_multi_push(gcn_hz_multi *m, const gcn_hz_insn *c)
{
    for (unsigned i = 0; i < m->n; i++) {
        gcn_hz_push(&m->alt[i], c);
        drop_stale(&m->alt[i]);
    }
    if (m->n > 1) {
        /* histories become equal once their differences expire */
        unsigned k = 0;
        for (unsigned i = 0; i < m->n; i++) {
            unsigned j;
            for (j = 0; j < k; j++)
                if (!state_cmp(&m->alt[j], &m->alt[i]) && m->alt[j].clock == m->alt[i].clock)
                    break;
            if (j == k) {
                if (k != i)
                    state_copy(&m->alt[k], &m->alt[i]);
                k++;
            }
        }
        m->n = k;
    }
}

void gcn_hz_multi_join(gcn_hz_multi *dst, const gcn_hz_multi *src)
{
    static __thread gcn_hz_state tmp[2 * GCN_HZ_MAXALT];
    unsigned n = 0;
    for (unsigned i = 0; i < dst->n; i++)
        state_copy(&tmp[n++], &dst->alt[i]);
    for (unsigned i = 0; i < src->n; i++)
        state_copy(&tmp[n++], &src->alt[i]);
    /* compare by distances: bring every history to the same clock */
    for (unsigned i = 0; i < n; i++) {
        int32_t shift = GCN_HZ_WINDOW - tmp[i].clock;
        tmp[i].clock += shift;
        for (unsigned e = 0; e < tmp[i].n; e++)
            tmp[i].hist[e].stamp += shift;
    }
    multi_normalize(tmp, n, dst);
}

int gcn_hz_multi_same(const gcn_hz_multi *a, const gcn_hz_multi *b)
{
    if (a->n != b->n)
        return 0;
    for (unsigned i = 0; i < a->n; i++)
        if (state_cmp(&a->alt[i], &b->alt[i]))
            return 0;
    return 1;
}

unsigned gcn_hz_multi_check(const gcn_hz_multi *m, const gcn_hz_insn *c,
                            gcn_hz_finding *out, unsigned max)
{
    hz_sink k = { out, max, 0, 0 };
    gcn_hz_finding tmp[32];
    for (unsigned i = 0; i < m->n; i++) {
        unsigned n = gcn_hz_check(&m->alt[i], c, tmp, 32);
        for (unsigned t = 0; t < n && t < 32; t++) {
            gcn_hz_insn p;
            memset(&p, 0, sizeof p);
            p.pc = tmp[t].prod_pc;
            p.id = tmp[t].prod_id;
            emit(&k, tmp[t].rule, &p, c, tmp[t].unit, tmp[t].required, tmp[t].present,
                 tmp[t].reg, tmp[t].raw, tmp[t].llvm);
        }
    }
    drop_covered(&k);
    return k.n;
}

/* ---------------------------------------------------------------- rules */

unsigned gcn_hz_rule_count(void)
{
    return (unsigned)HZ_NROWS;
}

const gcn_hz_rule *gcn_hz_rule_get(unsigned i)
{
    pthread_once(&hz_once, hz_init);
    return i < HZ_NROWS ? &hz_rules[i] : NULL;
}

int gcn_hz_rule_wait(unsigned i, gcn_target t, unsigned passes)
{
    if (i >= HZ_NROWS)
        return -1;
    return wait_of(&hz_rows[i], passes, t == GCN_TARGET_GFX950);
}

const char *gcn_hz_src_tag(unsigned src)
{
    static const char *const tag[8] = {
        "none", "ISA", "rocRoller", "ISA+rocRoller", "LLVM", "ISA+LLVM",
        "rocRoller+LLVM", "ISA+rocRoller+LLVM" };
    return tag[src & 7];
}

const char *gcn_hz_rule_source(unsigned i, char *buf, size_t len)
{
    const gcn_hz_rule *r = gcn_hz_rule_get(i);
    if (!r) {
        snprintf(buf, len, "?");
        return buf;
    }
    if (r->src & S_LLVM)
        snprintf(buf, len, "%s; LLVM GCNHazardRecognizer %s", r->cite, r->func);
    else
        snprintf(buf, len, "%s", r->cite);
    return buf;
}

const char *gcn_hz_rule_wait_text(unsigned i, char *buf, size_t len)
{
    if (i >= HZ_NROWS) {
        snprintf(buf, len, "?");
        return buf;
    }
    const hz_wait *w = &hz_rows[i].wait;
    if (!w->mul) {
        if (w->add950)
            snprintf(buf, len, "%d (gfx950: %d)", w->add, w->add + w->add950);
        else
            snprintf(buf, len, "%d", w->add);
    } else {
        const char *e = !w->add950 ? "" : w->add950_2 ? " (+1 on gfx950)"
                                                      : " (+1 on gfx950 unless 2 passes)";
        if (w->add)
            snprintf(buf, len, "passes%+d%s", w->add, e);
        else
            snprintf(buf, len, "passes%s", e);
    }
    return buf;
}

/* ---------------------------------------------------------------- output */

const char *gcn_hz_unit_name(int unit, char *buf, size_t len)
{
    if (unit < 0)
        snprintf(buf, len, "-");
    else if (unit >= (int)GCN_HZ_UNIT_AGPR)
        snprintf(buf, len, "a%d", unit - (int)GCN_HZ_UNIT_AGPR);
    else if (unit >= (int)GCN_HZ_UNIT_VGPR)
        snprintf(buf, len, "v%d", unit - (int)GCN_HZ_UNIT_VGPR);
    else if (unit < 102)
        snprintf(buf, len, "s%d", unit);
    else if (unit >= 108 && unit < 124)
        snprintf(buf, len, "ttmp%d", unit - 108);
    else {
        static const char *const sp[] = { "flat_scratch_lo", "flat_scratch_hi", "xnack_mask_lo",
                                          "xnack_mask_hi", "vcc_lo", "vcc_hi" };
        if (unit >= 102 && unit < 108) snprintf(buf, len, "%s", sp[unit - 102]);
        else if (unit == 124) snprintf(buf, len, "m0");
        else if (unit == 126) snprintf(buf, len, "exec_lo");
        else if (unit == 127) snprintf(buf, len, "exec_hi");
        else snprintf(buf, len, "r%d", unit);
    }
    return buf;
}

void gcn_hz_format(const gcn_hz_finding *f, gcn_strbuf *sb)
{
    char u[24];
    const gcn_hz_rule *r = gcn_hz_rule_get(f->rule);
    gcn_sb_printf(sb, "%s: %s @0x%llx -> %s @0x%llx, %s: needs %u wait state%s, has %u",
                  r ? r->name : "?", gcn_isa_row_of(f->prod_id)->mnem,
                  (unsigned long long)f->prod_pc, gcn_isa_row_of(f->cons_id)->mnem,
                  (unsigned long long)f->cons_pc, gcn_hz_unit_name(f->unit, u, sizeof u),
                  f->required, f->required == 1 ? "" : "s", f->present);
}

/* ------------------------------------------- one linear history (gcnsim) */

/* Can p be the matching producer of a group with relation rel for some
 * consumer?  A superset of what rel_match() can accept: only the kind of
 * registers p defines (or its srcC, store data, hwreg) counts. */
static int defs_meet(const gcn_hz_insn *p, unsigned lo, unsigned hi, unsigned role)
{
    for (unsigned i = 0; i < p->ndef; i++) {
        const gcn_hz_range *r = &p->def[i];
        if (role && !(r->role & role))
            continue;
        if (r->n && r->lo < hi && lo < (unsigned)r->lo + r->n)
            return 1;
    }
    return 0;
}

static int prod_feasible(unsigned rel, const gcn_hz_insn *p)
{
    switch (rel) {
    case REL_USE: case REL_DEF: return defs_meet(p, 0, GCN_HZ_NUNITS, 0);
    case REL_USE_ALL: case REL_USE_SGPR: case REL_LANESEL:
        return defs_meet(p, 0, GCN_HZ_UNIT_VGPR, 0);
    case REL_USE_VGPR: case REL_SRC0: return defs_meet(p, GCN_HZ_UNIT_VGPR, GCN_HZ_NUNITS, 0);
    case REL_USE_VDST: case REL_ANY_VDST: return defs_meet(p, 0, GCN_HZ_NUNITS, HZR_VDST);
    case REL_DEF_SRCC: return p->srcc.n != 0;
    case REL_DEF_SDATA: return p->sdata.n != 0;
    case REL_EXEC: return defs_meet(p, GCN_HZ_UNIT_EXEC, GCN_HZ_UNIT_EXEC + 2, 0);
    case REL_VCC: return defs_meet(p, GCN_HZ_UNIT_VCC, GCN_HZ_UNIT_VCC + 2, 0);
    case REL_M0: return defs_meet(p, GCN_HZ_UNIT_M0, GCN_HZ_UNIT_M0 + 1, 0);
    case REL_HWREG: return p->hwreg >= 0;
    case REL_TRAPSTS: return p->hwreg == 3;
    case REL_NONE: return 1;
    default: return 0;
    }
}

void gcn_hz_roles(const gcn_hz_insn *c, uint64_t *cons, uint64_t *prod)
{
    pthread_once(&hz_once, hz_init);
    uint64_t cm = 0, pm = 0;
    /* only the groups it consumes or produces for (the others set no bit) */
    for (uint64_t gs = c->gcons | c->gprod; gs; gs &= gs - 1) {
        unsigned g = (unsigned)__builtin_ctzll(gs);
        const hz_group *G = &hz_groups[g];
        uint64_t bit = 1ull << g;
        if (G->rel == REL_CLAUSE) {
            /* a member of the soft clause the group checks: its consumers
             * look back at the members' history entries */
            if (c->gcons & bit)
                cm |= bit, pm |= bit;
            continue;
        }
        hz_query q1;                /* (one is enough: does c make a query at all?) */
        if ((c->gcons & bit) && queries(G->rel, c, &q1, 1))
            cm |= bit;
        if ((c->gprod & bit) && prod_feasible(G->rel, c))
            pm |= bit;
    }
    *cons = cm;
    *prod = pm;
}

unsigned gcn_hz_group_window(unsigned g, unsigned flags)
{
    if (g >= HZ_NGROUPS || hz_groups[g].rel == REL_CLAUSE)
        return 0;
    return (flags & GCN_HZ_STRICT) ? GCN_HZ_WINDOW : hz_groups[g].limit;
}

/*
 * mfma.c -- every MAI matrix instruction of gfx942 and gfx950 (v_mfma_*, v_smfmac_*,
 * v_mfma_scale_*), one parameterised implementation.
 *
 * An instruction is described by what its LLVM mnemonic says (read from the ISA table
 * at first use): output type, shape MxNxK, blocks ("_4b"), input types ("bf16",
 * "fp8_bf8", "f8f6f4" = formats chosen by CBSZ/BLGP), sparse (v_smfmac) and scaled
 * (v_mfma_scale).  Everything else follows from formulas:
 *
 * Register layouts (element -> register, lane, bit), checked for every gfx942
 * instruction and modifier against the AMD Matrix Instruction Calculator's tables
 * (tests/sim/mfma_layouts, tests/sim/test_mfma_layout.c):
 *   A[b][i][k] (B[b][k][j] alike with j, N): kpl = elements per lane
 *     (regs * 32 / bits), G = K / kpl lane groups; with chunk size cs (= kpl, except
 *     gfx950 f8f6f4 fp8/bf8: 16),
 *       c = k / (G*cs), r = k % (G*cs), g = r / cs, n = c*cs + r % cs
 *       lane = i + M*b + M*blocks*g,  bit offset n * bits in the concatenated registers.
 *   SMFMAC A: the lane holds 2*kpl dense k (kpl stored values); the 4-group q of a
 *     lane keeps its two values at stored positions 2q, 2q+1 (bits 2q*w .. 2q*w+2w-1
 *     of the concatenated registers) and their positions
 *     within the group in index nibble q (bits 4q+1:4q first value, 4q+3:4q+2 second)
 *     of the index VGPR, at bit 8*ABID (16-bit types) / 16*ABID (8-bit) when CBSZ = 0.
 *   C/D[b][i][j]: u = i/4 + (M/4)*b, L = 64/N:  lane = j + N*(u % L),
 *     register = i%4 + 4*(u / L);  f64: lane = j + N*b + N*blocks*(i%4),
 *     registers 2*(i/4), 2*(i/4)+1.
 * Modifiers (calculator semantics; where it says a modifier is unsupported, it is
 * ignored and reported in gcn_mfma_info.ignored_mods):
 *   CBSZ/ABID (multi-block, non-f64): block b uses A of block
 *     (b & ~(2^CBSZ-1)) | (ABID & (2^CBSZ-1));
 *   BLGP (multi-block, f32 32x32x2 and 16x16x4): B of lane l is read from lane
 *     0: l  1: l&31  2: l|32  3: (l+16)&63  4: l&15  5: 16+(l&15)  6: 32+(l&15)
 *     7: 48+(l&15);  f64: BLGP bits 0/1/2 negate A/B/C;
 *   gfx950 f8f6f4: CBSZ / BLGP = format of A / B (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4),
 *     v_mfma_scale: ABID bit 0 enables the scales (else 1.0), E8M0 byte of the scale
 *     VGPR by {op_sel_hi[i], op_sel[i]}, scale lane = row + M * (k / 32) (CDNA4 ISA
 *     7.1.5, 7.2.1); fp8/bf8 16-element chunks per the AMD ROCm blog "Matrix Core
 *     Programming on AMD CDNA3 and CDNA4" (32x32x64 fp8 layout), fp6/fp4 32
 *     consecutive k per lane (same blog, and the CDNA4 ISA's FP6 convert layout).
 * gfx950-only shapes use the same formulas (not checkable against the calculator,
 * which has no CDNA4; docs/mfma.md says what each rests on).
 *
 * Numerics: src/sim/mfma_num.c.
 */
#include "gcn_mfma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ descriptors */

typedef struct mdesc {
    uint8_t valid, sparse, scaled, f8f6f4;
    gcn_mfma_type ta, tb, tc;
} mdesc;

enum { GCN_MK_DENSE, GCN_MK_SPARSE, GCN_MK_SCALED };

/* The generated MFMA rows (src/decode/isa/mfma.def, tools/isagen/facts.py), by row ID: the
 * kind and the element types; the shape is gcn_mfma_shape()'s (the vop3p.def signatures). */
static const mdesc descs[GCN_ID_COUNT] = {
#define MFMA(ID, KIND, TC, TA, TB, F8F6F4)                                                     \
    [GCN_ID_##ID] = {.valid = 1, .sparse = GCN_MK_##KIND == GCN_MK_SPARSE,                     \
                     .scaled = GCN_MK_##KIND == GCN_MK_SCALED, .f8f6f4 = F8F6F4,               \
                     .ta = GCN_MT_##TA, .tb = GCN_MT_##TB, .tc = GCN_MT_##TC},
#include "isa/mfma.def"
#undef MFMA
};

static const mdesc *desc_of(unsigned id)
{
    return id < GCN_ID_COUNT && descs[id].valid ? &descs[id] : NULL;
}

/* ------------------------------------------------------------ instance info */

static gcn_mfma_type f8f6f4_type(unsigned code)
{
    static const gcn_mfma_type t[] = {GCN_MT_FP8, GCN_MT_BF8, GCN_MT_FP6, GCN_MT_BF6,
                                      GCN_MT_FP4};
    return code < 5 ? t[code] : GCN_MT_NONE;
}

static int fail(char *err, size_t errlen, const char *msg, const gcn_insn *in)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: %s", gcn_isa_row_of(in->id)->mnem, msg);
    return -1;
}

/* The facts of the last instruction whose instance was set up on this thread (inst_init),
 * by what they depend on: the row, the target and CBSZ/ABID/BLGP.  An MFMA in a loop asks
 * for the same ones every time (the simulator's body gets the info, gcn_mfma_run the
 * instance and the plan: three derivations per instruction before).  The plan is kept
 * with the plan cache's generation: a plan built since may have taken its slot. */
struct inst_memo {
    int valid;
    unsigned id;
    gcn_target t;
    uint8_t cbsz, abid, blgp;
    const struct plan *pl;      /* plan_get's answer for it (NULL: none yet) */
    unsigned pl_gen;
};
static _Thread_local struct inst_memo memo;
static _Thread_local unsigned plan_gen;     /* plans built on this thread */

static inline int memo_hit(const gcn_insn *in, gcn_target t)
{
    return memo.valid && memo.id == in->id && memo.t == t && memo.cbsz == in->m.cbsz &&
           memo.abid == in->m.abid && memo.blgp == in->m.blgp;
}
static const gcn_mfma_info *memo_info(void);

int gcn_mfma_info_get(const gcn_insn *in, gcn_target t, gcn_mfma_info *o, char *err,
                      size_t errlen)
{
    if (memo_hit(in, t)) {
        *o = *memo_info();
        return 0;
    }
    const mdesc *d = desc_of(in->id);
    memset(o, 0, sizeof *o);
    if (!d) {
        if (err && errlen)
            snprintf(err, errlen, "not an MFMA/SMFMAC instruction");
        return -1;
    }
    int ti = gcn_isa_target_index(t);
    if (ti < 0 || gcn_isa_row_of(in->id)->op[ti] == NONE)
        return fail(err, errlen, "not available on this target", in);
    /* the shape is the row's (vop3p.def signatures); the types are mfma.def's */
    unsigned m, n, k, blocks;
    if (gcn_mfma_shape(in, &m, &n, &k, &blocks) < 0)
        return fail(err, errlen, "no shape in the ISA table", in);
    o->m = (uint16_t)m;
    o->n = (uint16_t)n;
    o->k = (uint16_t)k;
    o->blocks = (uint16_t)blocks;
    o->ta = d->ta;
    o->tb = d->tb;
    o->tc = d->tc;
    o->sparse = d->sparse;
    o->scaled = d->scaled;
    if (d->f8f6f4) {
        o->ta = f8f6f4_type(in->m.cbsz);
        o->tb = f8f6f4_type(in->m.blgp);
        if (o->ta == GCN_MT_NONE || o->tb == GCN_MT_NONE)
            return fail(err, errlen, "invalid f8f6f4 format (CBSZ/BLGP > 4)", in);
    }
    unsigned ka = d->sparse ? k / 2 : k;
    o->regs_a = blocks * m * ka * gcn_mfma_type_bits(o->ta) / (64 * 32);
    o->regs_b = blocks * n * k * gcn_mfma_type_bits(o->tb) / (64 * 32);
    o->regs_d = blocks * m * n * gcn_mfma_type_bits(o->tc) / (64 * 32);
    o->regs_c = o->regs_d;
    int f64 = o->ta == GCN_MT_F64;
    o->cbsz_ok = !d->sparse && !d->f8f6f4 && blocks > 1 && !f64;
    o->blgp_ok = !d->sparse && !d->f8f6f4 && (blocks > 1 || o->ta == GCN_MT_F32 || f64);
    if (!d->f8f6f4 && !d->sparse && !o->cbsz_ok) {
        if (in->m.cbsz)
            o->ignored_mods |= GCN_MFMA_IGN_CBSZ;
        if (in->m.abid)
            o->ignored_mods |= GCN_MFMA_IGN_ABID;
    }
    if (!d->f8f6f4 && !o->blgp_ok && in->m.blgp)
        o->ignored_mods |= GCN_MFMA_IGN_BLGP;
    return 0;
}

/* ------------------------------------------------------------ layouts */

typedef struct inst {
    gcn_mfma_info i;
    unsigned wa, wb, wc;        /* element bits */
    unsigned cs_a, cs_b;        /* chunk sizes (elements) */
    unsigned cbsz, abid, blgp;
    unsigned idx_off;           /* SMFMAC index bit offset */
    int gfx950;
} inst;

static _Thread_local inst memo_inst;
static const gcn_mfma_info *memo_info(void)
{
    return &memo_inst.i;
}

static int inst_init(const gcn_insn *in, gcn_target t, inst *s, char *err, size_t errlen)
{
    if (memo_hit(in, t)) {
        *s = memo_inst;
        return 0;
    }
    memo.valid = 0;
    memset(s, 0, sizeof *s);
    if (gcn_mfma_info_get(in, t, &s->i, err, errlen))
        return -1;
    s->gfx950 = t == GCN_TARGET_GFX950;
    s->wa = gcn_mfma_type_bits(s->i.ta);
    s->wb = gcn_mfma_type_bits(s->i.tb);
    s->wc = gcn_mfma_type_bits(s->i.tc);
    unsigned kpl_a = s->i.regs_a * 32 / s->wa, kpl_b = s->i.regs_b * 32 / s->wb;
    const mdesc *d = desc_of(in->id);
    s->cs_a = d->f8f6f4 && s->wa == 8 ? 16 : kpl_a;
    s->cs_b = d->f8f6f4 && s->wb == 8 ? 16 : kpl_b;
    if (s->i.cbsz_ok) {
        unsigned maxc = 0;
        while ((2u << maxc) <= s->i.blocks)
            maxc++;
        s->cbsz = in->m.cbsz < maxc ? in->m.cbsz : maxc;
        s->abid = in->m.abid & ((1u << s->cbsz) - 1);
    }
    if (s->i.blgp_ok)
        s->blgp = in->m.blgp & 7;
    if (s->i.sparse) {
        unsigned used = 2 * kpl_a;                  /* index bits per lane */
        unsigned segs = used >= 32 ? 1 : 32 / used;
        s->idx_off = in->m.cbsz ? 0 : (in->m.abid % segs) * used;
    }
    memo_inst = *s;
    memo.id = in->id;
    memo.t = t;
    memo.cbsz = in->m.cbsz;
    memo.abid = in->m.abid;
    memo.blgp = in->m.blgp;
    memo.pl = NULL;
    memo.valid = 1;
    return 0;
}

static unsigned blgp_lane(unsigned blgp, unsigned l)
{
    switch (blgp) {
    case 1: return l & 31;
    case 2: return l | 32;
    case 3: return (l + 16) & 63;
    case 4: return l & 15;
    case 5: return 16 + (l & 15);
    case 6: return 32 + (l & 15);
    case 7: return 48 + (l & 15);
    default: return l;
    }
}

/* Dense A/B element (block b, row-or-column r, k) before modifiers. */
static void place_ab(unsigned mn, unsigned blocks, unsigned kk, unsigned regs, unsigned w,
                     unsigned cs, unsigned b, unsigned r, unsigned k, gcn_mfma_place *p)
{
    unsigned kpl = regs * 32 / w;
    unsigned G = kk / kpl;
    unsigned c = k / (G * cs), rem = k % (G * cs), g = rem / cs, n = c * cs + rem % cs;
    unsigned pos = n * w;
    p->lane = r + mn * b + mn * blocks * g;
    p->reg = pos / 32;
    p->bit = pos % 32;
    p->width = w;
    p->neg = 0;
}

static void place_cd(const inst *s, unsigned b, unsigned i, unsigned j, gcn_mfma_place *p)
{
    unsigned M = s->i.m, N = s->i.n;
    p->bit = 0;
    p->width = s->wc;
    p->neg = 0;
    if (s->wc == 64) {
        p->lane = j + N * b + N * s->i.blocks * (i % 4);
        p->reg = 2 * (i / 4);
        return;
    }
    unsigned u = i / 4 + (M / 4) * b, L = 64 / N;
    p->lane = j + N * (u % L);
    p->reg = i % 4 + 4 * (u / L);
}

/* SMFMAC A: register of the 4-group holding dense k; *q = group within the lane. */
static void place_sparse(const inst *s, unsigned i, unsigned k, gcn_mfma_place *p,
                         unsigned *q)
{
    unsigned kpl = s->i.regs_a * 32 / s->wa;       /* stored values per lane */
    unsigned kd = 2 * kpl;
    unsigned g = k / kd, nd = k % kd;
    *q = nd / 4;
    p->lane = i + s->i.m * g;
    p->reg = (2 * *q * s->wa) / 32;
    p->bit = (2 * *q * s->wa) % 32;
    p->width = 2 * s->wa;
    p->neg = 0;
}

static int layout_of(const gcn_insn *in, const inst *s, char which, unsigned b, unsigned row,
                     unsigned col, gcn_mfma_place *p)
{
    const gcn_mfma_info *I = &s->i;
    if (b >= I->blocks)
        return -1;
    int f64 = I->ta == GCN_MT_F64;
    switch (which) {
    case 'A': case 'K':
        if (row >= I->m || col >= I->k)
            return -1;
        if (I->sparse) {
            unsigned q;
            place_sparse(s, row, col, p, &q);
            if (which == 'K') {
                p->reg = 0;
                p->bit = s->idx_off + 4 * q;
                p->width = 4;
            }
            return 0;
        }
        if (which == 'K')
            return -1;
        if (I->cbsz_ok && s->cbsz) {
            unsigned mask = (1u << s->cbsz) - 1;
            b = (b & ~mask) | (s->abid & mask);
        }
        place_ab(I->m, I->blocks, I->k, I->regs_a, s->wa, s->cs_a, b, row, col, p);
        p->neg = f64 && (in->m.blgp & 1);
        return 0;
    case 'B':
        if (row >= I->k || col >= I->n)
            return -1;
        place_ab(I->n, I->blocks, I->k, I->regs_b, s->wb, s->cs_b, b, col, row, p);
        if (f64)
            p->neg = (in->m.blgp >> 1) & 1;
        else
            p->lane = blgp_lane(s->blgp, p->lane);
        return 0;
    case 'C': case 'D':
        if (row >= I->m || col >= I->n)
            return -1;
        place_cd(s, b, row, col, p);
        p->neg = which == 'C' && f64 && ((in->m.blgp >> 2) & 1);
        return 0;
    default:
        return -1;
    }
}

int gcn_mfma_layout(const gcn_insn *in, gcn_target t, char which, unsigned blk,
                    unsigned row, unsigned col, gcn_mfma_place *out)
{
    inst s;
    if (inst_init(in, t, &s, NULL, 0))
        return -1;
    return layout_of(in, &s, which, blk, row, col, out);
}

/* Bits [bit, bit+width) of lane `lane` of the concatenated registers (width <= 32). */
static uint32_t get_bits(const uint32_t *x, unsigned nregs, const gcn_mfma_place *p)
{
    uint64_t w = x[p->reg * 64 + p->lane];
    if (p->bit + p->width > 32 && p->reg + 1 < nregs)
        w |= (uint64_t)x[(p->reg + 1) * 64 + p->lane] << 32;
    w >>= p->bit;
    return (uint32_t)(p->width >= 32 ? w : w & ((1ull << p->width) - 1));
}

/* ------------------------------------------------------------ execution */

/* Working storage of one execution (sizes: blocks*M*K <= 4096). */
typedef struct work {
    uint32_t a[4096], b[4096];          /* A[b][i][k], B transposed: Bt[b][j][k] */
    uint64_t a64[256], b64[256];
    uint8_t ksel[4096];                 /* SMFMAC: dense k of stored product p */
    gcn_mfma_val av[4096], bv[4096];
    int32_t sa[4096], sb[4096];         /* scale exponents per (row, k) / (col, k) */
    uint32_t d[32 * 64];
    uint32_t bk[4096];                  /* fast path: B[b][k][j] */
    uint32_t cb[2048], db[2048];        /* fast path: C and D [b][i][j] */
} work;

/* A gather plan: where every dense A, B and C/D element of one instruction instance
 * (row, target, modifiers) lives, computed once from layout_of and kept per thread,
 * so an execution reads its operands without recomputing the layout formulas. */
enum { PLAN_AB = 4096, PLAN_CD = 2048, PLAN_CACHE = 8, PLAN_LINES = 256 };
typedef struct plan {
    unsigned id, cbsz, abid, blgp;
    gcn_target t;
    int valid;
    uint16_t aw[PLAN_AB], bw[PLAN_AB];  /* word: reg * 64 + lane; B as Bt[b][j][k] */
    uint8_t ab[PLAN_AB], bb[PLAN_AB];   /* bit offset in the word */
    uint16_t kw[PLAN_AB];               /* B as B[b][k][j] (the fast path's order) */
    uint8_t kb[PLAN_AB];
    uint16_t cw[PLAN_CD];               /* C/D[b][i][j]: word */
    int crows;                          /* every row of C/D in consecutive words */
    /* the exact route (mfma_exact.c): when `lines` is set, A[b][i][k] is the 16/32-bit
     * element at bit ab1[b][k] of word aw1[b][k] + i, B[b][k][j] at bit bb1[b][k] of word
     * bw1[b][k] + j, and row i of C/D[b] starts at word cw1[b][i] (crows) */
    int lines;
    uint16_t aw1[PLAN_LINES], bw1[PLAN_LINES], cw1[PLAN_LINES];
    uint8_t ab1[PLAN_LINES], bb1[PLAN_LINES];
} plan;

/* The plan of a dense, non-f64 instruction (NULL for others or out of memory). */
static const plan *plan_get(const gcn_insn *in, gcn_target t, const inst *s)
{
    static _Thread_local plan *cache[PLAN_CACHE];
    static _Thread_local unsigned next;
    int same = memo_hit(in, t);         /* s is the memo's instance */
    if (same && memo.pl && memo.pl_gen == plan_gen)
        return memo.pl;
    const gcn_mfma_info *I = &s->i;
    if (I->sparse || I->ta == GCN_MT_F64 || (size_t)I->blocks * I->m * I->k > PLAN_AB ||
        (size_t)I->blocks * I->n * I->k > PLAN_AB || (size_t)I->blocks * I->m * I->n > PLAN_CD)
        return NULL;
    for (unsigned c = 0; c < PLAN_CACHE; c++) {
        const plan *p = cache[c];
        if (p && p->valid && p->id == in->id && p->t == t && p->cbsz == in->m.cbsz &&
            p->abid == in->m.abid && p->blgp == in->m.blgp) {
            if (same) {
                memo.pl = p;
                memo.pl_gen = plan_gen;
            }
            return p;
        }
    }
    plan_gen++;                         /* a slot is taken: a memo's plan may be gone */
    unsigned slot = next++ % PLAN_CACHE;
    if (!cache[slot] && !(cache[slot] = malloc(sizeof(plan))))
        return NULL;
    plan *p = cache[slot];
    p->valid = 0;
    unsigned M = I->m, N = I->n, K = I->k, NB = I->blocks;
    gcn_mfma_place q;
    for (unsigned b = 0; b < NB; b++) {
        for (unsigned i = 0; i < M; i++)
            for (unsigned k = 0; k < K; k++) {
                size_t e = ((size_t)b * M + i) * K + k;
                layout_of(in, s, 'A', b, i, k, &q);
                p->aw[e] = (uint16_t)(q.reg * 64 + q.lane);
                p->ab[e] = (uint8_t)q.bit;
            }
        for (unsigned j = 0; j < N; j++)
            for (unsigned k = 0; k < K; k++) {
                size_t e = ((size_t)b * N + j) * K + k;
                layout_of(in, s, 'B', b, k, j, &q);
                p->bw[e] = (uint16_t)(q.reg * 64 + q.lane);
                p->bb[e] = (uint8_t)q.bit;
                size_t e2 = ((size_t)b * K + k) * N + j;
                p->kw[e2] = p->bw[e];
                p->kb[e2] = p->bb[e];
            }
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                place_cd(s, b, i, j, &q);
                p->cw[((size_t)b * M + i) * N + j] = (uint16_t)(q.reg * 64 + q.lane);
            }
    }
    p->crows = s->wc == 32;
    for (size_t e = 0; e < (size_t)NB * M * N; e++)
        if (e % N && p->cw[e] != p->cw[e - 1] + 1)
            p->crows = 0;
    p->lines = p->crows && (s->wa == 16 || s->wa == 32) && s->wb == s->wa &&
               (size_t)NB * K <= PLAN_LINES && (size_t)NB * M <= PLAN_LINES;
    for (unsigned b = 0; b < NB && p->lines; b++) {
        for (unsigned k = 0; k < K; k++) {
            size_t a0 = (size_t)b * M * K + k, b0 = ((size_t)b * K + k) * N;
            p->aw1[b * K + k] = p->aw[a0];
            p->ab1[b * K + k] = p->ab[a0];
            p->bw1[b * K + k] = p->kw[b0];
            p->bb1[b * K + k] = p->kb[b0];
            for (unsigned i = 0; i < M; i++)
                if (p->aw[a0 + (size_t)i * K] != p->aw[a0] + i ||
                    p->ab[a0 + (size_t)i * K] != p->ab[a0])
                    p->lines = 0;
            for (unsigned j = 0; j < N; j++)
                if (p->kw[b0 + j] != p->kw[b0] + j || p->kb[b0 + j] != p->kb[b0])
                    p->lines = 0;
        }
        for (unsigned i = 0; i < M; i++)
            p->cw1[b * M + i] = p->cw[((size_t)b * M + i) * N];
    }
    p->id = in->id;
    p->t = t;
    p->cbsz = in->m.cbsz;
    p->abid = in->m.abid;
    p->blgp = in->m.blgp;
    p->valid = 1;
    return p;
}

/* n elements of width w (<= 32) by a plan's words and bits (get_bits' rule: an element
 * running past bit 31 continues in the next register, if there is one). */
static void plan_gather(const uint32_t *x, unsigned nregs, unsigned w, const uint16_t *wd,
                        const uint8_t *bt, size_t n, uint32_t *out)
{
    uint32_t mask = w >= 32 ? 0xffffffffu : (1u << w) - 1;
    if (w == 16 || w == 32 || w == 8 || w == 4) {    /* never straddles */
        for (size_t e = 0; e < n; e++)
            out[e] = (x[wd[e]] >> bt[e]) & mask;
        return;
    }
    for (size_t e = 0; e < n; e++) {
        uint64_t v = x[wd[e]];
        if ((unsigned)bt[e] + w > 32 && (unsigned)wd[e] / 64 + 1 < nregs)
            v |= (uint64_t)x[wd[e] + 64] << 32;
        out[e] = (uint32_t)(v >> bt[e]) & mask;
    }
}

static int32_t e8m0(uint32_t v, unsigned sel, int is_vgpr)
{
    unsigned e = is_vgpr ? (v >> (8 * sel)) & 0xff : (v >> 23) & 0xff;
    return e == 0xff ? GCN_MFMA_SCALE_NAN : (int32_t)e - 127;
}

/* One execution of gcn_mfma_run: the instruction, its operands, the number formats, the
 * per-thread scratch and gather plan, the shape. */
typedef struct run {
    const gcn_insn *in;
    const inst *s;
    const gcn_mfma_info *I;
    const gcn_mfma_operands *ops;
    work *w;
    const plan *pl;
    gcn_mfma_num nm;
    unsigned M, N, K, NB, KA;       /* KA: products per output (K/2 for SMFMAC) */
    int f64;
} run;

/* The tile-wide exact route (src/sim/mfma_exact.c), straight from the registers: one block
 * writes D itself (after reading everything); several go through w->d, so that a block it
 * declines finds C and the others' inputs untouched.  1 when every block took it (D
 * written), else 0. */
static int run_exact_tile(const run *r)
{
    const plan *pl = r->pl;
    const gcn_mfma_operands *ops = r->ops;
    work *w = r->w;
    unsigned M = r->M, N = r->N, K = r->K, NB = r->NB;
    for (unsigned nb = 0; nb < NB; nb++) {
        gcn_mfma_tile_src ts = {ops->a, ops->b, ops->c, NB == 1 ? ops->d : w->d,
                                &pl->aw1[nb * K], &pl->bw1[nb * K], &pl->cw1[nb * M],
                                &pl->ab1[nb * K], &pl->bb1[nb * K], 1};
        if (gcn_mfma_num_tile_exact(&r->nm, M, N, K, &ts))
            return 0;
    }
    if (NB > 1)
        memcpy(ops->d, w->d, (size_t)r->I->regs_d * 64 * 4);
    return 1;
}

/* A and B gathered without a plan, from the layout formulas: A in stored order (for
 * SMFMAC with the dense k each stored product selects, from the index), B transposed;
 * f64 operands as 64-bit values with their negation applied. */
static void gather_by_layout(const run *r)
{
    const gcn_insn *in = r->in;
    const inst *s = r->s;
    const gcn_mfma_info *I = r->I;
    const gcn_mfma_operands *ops = r->ops;
    work *w = r->w;
    unsigned M = r->M, N = r->N, K = r->K, KA = r->KA;
    gcn_mfma_place p;
    for (unsigned b = 0; b < r->NB; b++) {
        for (unsigned i = 0; i < M; i++) {
            if (I->sparse) {
                for (unsigned q4 = 0; q4 < K / 4; q4++) {
                    unsigned q;
                    place_sparse(s, i, 4 * q4, &p, &q);
                    uint32_t nib = (ops->idx[p.lane] >> (s->idx_off + 4 * q)) & 0xf;
                    for (unsigned h = 0; h < 2; h++) {
                        gcn_mfma_place e = p;
                        unsigned pos = (2 * q + h) * s->wa;
                        e.reg = pos / 32;
                        e.bit = pos % 32;
                        e.width = s->wa;
                        unsigned pi = (b * M + i) * KA + 2 * q4 + h;
                        w->a[pi] = get_bits(ops->a, I->regs_a, &e);
                        w->ksel[pi] = (uint8_t)(4 * q4 + ((nib >> (2 * h)) & 3));
                    }
                }
                continue;
            }
            for (unsigned k = 0; k < K; k++) {
                layout_of(in, s, 'A', b, i, k, &p);
                if (r->f64) {
                    uint64_t v = ops->a[p.reg * 64 + p.lane] |
                                 (uint64_t)ops->a[(p.reg + 1) * 64 + p.lane] << 32;
                    w->a64[(b * M + i) * K + k] = p.neg ? v ^ (1ull << 63) : v;
                } else {
                    w->a[(b * M + i) * K + k] = get_bits(ops->a, I->regs_a, &p);
                }
            }
        }
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < K; k++) {
                layout_of(in, s, 'B', b, k, j, &p);
                if (r->f64) {
                    uint64_t v = ops->b[p.reg * 64 + p.lane] |
                                 (uint64_t)ops->b[(p.reg + 1) * 64 + p.lane] << 32;
                    w->b64[(b * N + j) * K + k] = p.neg ? v ^ (1ull << 63) : v;
                } else {
                    w->b[(b * N + j) * K + k] = get_bits(ops->b, I->regs_b, &p);
                }
            }
        }
    }
}

/* The scale exponents of a gfx950 v_mfma_scale with ABID[0] = 1, per (row, k) of A and
 * (column, k) of B, from the scale VGPRs (or constants) and their op_sel byte selects. */
static void gather_scales(const run *r)
{
    const gcn_insn *in = r->in;
    const gcn_mfma_operands *ops = r->ops;
    work *w = r->w;
    unsigned M = r->M, N = r->N, K = r->K;
    const gcn_opnd *o0 = gcn_insn_field(in, GCN_FLD_SCALE_SRC0);
    const gcn_opnd *o1 = gcn_insn_field(in, GCN_FLD_SCALE_SRC1);
    int v0 = !o0 || o0->kind == GCN_OPND_VGPR, v1 = !o1 || o1->kind == GCN_OPND_VGPR;
    unsigned sel0 = ((in->m.op_sel_hi & 1) << 1) | (in->m.op_sel & 1);
    unsigned sel1 = (in->m.op_sel_hi & 2) | ((in->m.op_sel >> 1) & 1);
    for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++)
            w->sa[i * K + k] = e8m0(ops->scale_a[i + M * (k / 32)], sel0, v0);
    for (unsigned j = 0; j < N; j++)
        for (unsigned k = 0; k < K; k++)
            w->sb[j * K + k] = e8m0(ops->scale_b[j + N * (k / 32)], sel1, v1);
}

/* The fast path (src/sim/mfma_tile.c), one block at a time.  All of C is read before D is
 * written (D may alias C); when every block is done D goes straight to its registers
 * (*done set), else the blocks done are in w->d and B is gathered transposed for the
 * general path.  Returns the blocks done (bit b: block b). */
static uint16_t run_tiles(const run *r, uint16_t all, int *done)
{
    const plan *pl = r->pl;
    const gcn_mfma_operands *ops = r->ops;
    work *w = r->w;
    unsigned M = r->M, N = r->N, K = r->K, NB = r->NB;
    size_t mn = (size_t)M * N, n = NB * mn;
    const uint16_t *cw = pl->cw;
    uint16_t tiled = 0;
    *done = 0;
    if (pl->crows)
        for (size_t e = 0; e < n; e += N)
            memcpy(&w->cb[e], &ops->c[cw[e]], N * 4);
    else
        for (size_t e = 0; e < n; e++)
            w->cb[e] = ops->c[cw[e]];
    for (unsigned b = 0; b < NB && b < 16; b++)
        if (!gcn_mfma_num_tile(&r->nm, M, N, K, &w->a[b * M * K], &w->bk[b * N * K],
                               &w->cb[b * mn], &w->db[b * mn]))
            tiled |= (uint16_t)(1u << b);
    if (tiled == all) {
        if (pl->crows)
            for (size_t e = 0; e < n; e += N)
                memcpy(&ops->d[cw[e]], &w->db[e], N * 4);
        else
            for (size_t e = 0; e < n; e++)
                ops->d[cw[e]] = w->db[e];
        *done = 1;
        return tiled;
    }
    for (unsigned b = 0; b < NB && b < 16; b++)
        if ((tiled >> b) & 1)
            for (size_t e = b * mn; e < (b + 1) * mn; e++)
                w->d[cw[e]] = w->db[e];
    plan_gather(ops->b, r->I->regs_b, r->s->wb, pl->bw, pl->bb, (size_t)NB * N * K, w->b);
    return tiled;
}

/* One element D[b][i][j] on the general path (C is c; p its place), into w->d. */
static void dot_element(const run *r, unsigned b, unsigned i, unsigned j,
                        const gcn_mfma_place *p, int fused, int scaled)
{
    const gcn_insn *in = r->in;
    const gcn_mfma_operands *ops = r->ops;
    work *w = r->w;
    unsigned M = r->M, N = r->N, K = r->K, KA = r->KA;
    uint32_t c = ops->c[p->reg * 64 + p->lane];
    if (r->f64) {
        uint64_t c64 = c | (uint64_t)ops->c[(p->reg + 1) * 64 + p->lane] << 32;
        if ((in->m.blgp >> 2) & 1)
            c64 ^= 1ull << 63;
        uint64_t d = gcn_mfma_num_dot64(&w->a64[(b * M + i) * K], &w->b64[(b * N + j) * K], K,
                                        c64);
        w->d[p->reg * 64 + p->lane] = (uint32_t)d;
        w->d[(p->reg + 1) * 64 + p->lane] = (uint32_t)(d >> 32);
        return;
    }
    uint32_t d;
    const uint32_t *arow = &w->a[(b * M + i) * KA];
    const uint32_t *bcol = &w->b[(b * N + j) * K];
    if (r->I->sparse) {
        const uint8_t *ks = &w->ksel[(b * M + i) * KA];
        if (fused) {
            gcn_mfma_val bvv[128];
            for (unsigned q = 0; q < KA; q++)
                bvv[q] = w->bv[(b * N + j) * K + ks[q]];
            d = gcn_mfma_num_dot_vals(&r->nm, &w->av[(b * M + i) * KA], bvv, KA, c, NULL);
        } else {
            uint32_t bb[128];
            for (unsigned q = 0; q < KA; q++)
                bb[q] = bcol[ks[q]];
            d = gcn_mfma_num_dot(&r->nm, arow, bb, KA, c, NULL);
        }
    } else if (fused) {
        int32_t sc[256];
        if (scaled)
            for (unsigned k = 0; k < K; k++) {
                int32_t x = w->sa[i * K + k], y = w->sb[j * K + k];
                sc[k] = x == GCN_MFMA_SCALE_NAN || y == GCN_MFMA_SCALE_NAN
                        ? GCN_MFMA_SCALE_NAN : x + y;
            }
        d = gcn_mfma_num_dot_vals(&r->nm, &w->av[(b * M + i) * K], &w->bv[(b * N + j) * K], K,
                                  c, scaled ? sc : NULL);
    } else {
        d = gcn_mfma_num_dot(&r->nm, arow, bcol, K, c, NULL);
    }
    w->d[p->reg * 64 + p->lane] = d;
}

int gcn_mfma_run(const gcn_insn *in, gcn_target t, const gcn_mfma_operands *ops, char *err,
                 size_t errlen)
{
    inst s;
    if (inst_init(in, t, &s, err, errlen))
        return -1;
    const gcn_mfma_info *I = &s.i;
    if ((I->sparse && !ops->idx) || !ops->a || !ops->b || !ops->c || !ops->d)
        return fail(err, errlen, "missing operand", in);
    static _Thread_local work *wk;       /* per-thread scratch, kept (about 250 KiB) */
    if (!wk && !(wk = malloc(sizeof *wk)))
        return fail(err, errlen, "out of memory", in);
    run r = {.in = in, .s = &s, .I = I, .ops = ops, .w = wk, .M = I->m, .N = I->n, .K = I->k,
             .NB = I->blocks, .KA = I->sparse ? I->k / 2 : I->k, .f64 = I->ta == GCN_MT_F64};
    work *w = r.w;
    unsigned M = r.M, N = r.N, K = r.K, NB = r.NB;
    gcn_mfma_num_init(&r.nm, I->ta, I->tb, I->tc, s.gfx950);

    /* gather A (stored order for SMFMAC) and B (transposed; for the fast path in
     * [k][j] order instead, Bt only when a block needs the general path) */
    const plan *pl = r.pl = plan_get(in, t, &s);
    int try_tile = pl && r.nm.alg == GCN_MA_FUSED && !(I->scaled && (in->m.abid & 1));
    if (try_tile && pl->lines && run_exact_tile(&r))
        return 0;
    if (pl) {
        plan_gather(ops->a, I->regs_a, s.wa, pl->aw, pl->ab, (size_t)NB * M * K, w->a);
        if (try_tile)
            plan_gather(ops->b, I->regs_b, s.wb, pl->kw, pl->kb, (size_t)NB * N * K, w->bk);
        else
            plan_gather(ops->b, I->regs_b, s.wb, pl->bw, pl->bb, (size_t)NB * N * K, w->b);
    } else {
        gather_by_layout(&r);
    }
    /* scales (gfx950 v_mfma_scale with ABID[0] = 1) */
    int scaled = I->scaled && (in->m.abid & 1) && ops->scale_a && ops->scale_b;
    if (scaled)
        gather_scales(&r);

    int fused = r.nm.alg == GCN_MA_FUSED || r.nm.alg == GCN_MA_FUSED8;
    /* the fast path one block at a time; blocks it declines take the general path */
    uint16_t tiled = 0;                      /* bit b: block b done */
    uint16_t all = NB >= 16 ? 0xffffu : (uint16_t)((1u << NB) - 1);
    if (try_tile) {
        int done;
        tiled = run_tiles(&r, all, &done);
        if (done)
            return 0;
    }
    if (fused && tiled != all) {
        gcn_mfma_num_decode(&r.nm, 0, w->a, (size_t)NB * M * r.KA, w->av);
        gcn_mfma_num_decode(&r.nm, 1, w->b, (size_t)NB * N * K, w->bv);
    }
    for (unsigned b = 0; b < NB; b++) {
        if (b < 16 && ((tiled >> b) & 1))
            continue;
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                gcn_mfma_place p;
                place_cd(&s, b, i, j, &p);
                dot_element(&r, b, i, j, &p, fused, scaled);
            }
    }
    memcpy(ops->d, w->d, (size_t)I->regs_d * 64 * 4);
    return 0;
}

int gcn_mfma_exec(const gcn_insn *in, gcn_target t, const uint32_t *srcA,
                  const uint32_t *srcB, const uint32_t *srcC, uint32_t *dst, uint64_t exec)
{
    (void)exec;   /* the matrix core ignores EXEC (see gcn_mfma.h) */
    gcn_mfma_operands ops = {srcA, srcB, srcC, NULL, NULL, NULL, dst};
    const mdesc *d = desc_of(in->id);
    if (d && d->sparse) {
        ops.c = dst;
        ops.idx = srcC;
    }
    return gcn_mfma_run(in, t, &ops, NULL, 0);
}

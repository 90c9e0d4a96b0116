/*
 * xwave.c -- LDS races between the waves of one work-group.
 *
 * All waves of a work-group run the same code; nothing orders their LDS
 * accesses but s_barrier.  Two DS accesses A and B (at least one a write, an
 * LDS-DMA load counting as a write) are in the same barrier interval when
 * some path leads from one to the other without an s_barrier, or when both
 * are reached from one s_barrier (or the entry) without another: the waves
 * leave it together, so the two sides of a branch on the wave index (waves
 * with roles) run at the same time; then one wave may execute A while
 * another executes B.  They race if the LDS bytes wave x
 * touches with A can meet the bytes another wave y touches with B.  The
 * ranges come from values.c: base + k * wave + [lo, hi) (wave = the wave's
 * index in the work-group), so per-wave private regions (e.g. M0 = 256 *
 * wave + buffer offset) are told apart for every pair of wave indexes below
 * the work-group's wave count (gcn_lds_cross_overlap3).  When a range is not
 * known the pair is reported as lds-unproven (a warning, off by default) with
 * the reason, never as a race; two writes of unknown ranges are not reported
 * at all (waves filling a shared tile, each its own part, look like that).
 * DS atomics are not races with each other (nor with anything here: an
 * atomic's bytes are its own business).  FLAT accesses that
 * may reach LDS are not considered (the check may miss those).
 * (Pending LDS writes at a barrier are barrier-lds-pending, waits.c.)
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"
#include "paths.h"

static bool is_access(const gcn_lfacts *f)
{
    return f->lds && !(f->flags & GCN_F_ATOMIC);
}

static bool writes(const gcn_lfacts *f)
{
    return (f->lds & (GCN_LL_WRITE | GCN_LL_DMA)) != 0;
}

/* Mark in `hit` every instruction reachable from i (exclusive; inclusive
 * when incl) without passing an s_barrier. */
static void reach_from(const gcn_cfg *cfg, unsigned i, bool incl, unsigned char *hit,
                       unsigned char *seen, unsigned *stack)
{
    memset(hit, 0, cfg->ninsn);
    memset(seen, 0, cfg->nblocks);
    unsigned sp = 0;
    unsigned b = cfg->block_of[i];
    bool stopped = false;
    for (unsigned j = incl ? i : i + 1; j <= cfg->blocks[b].last; j++) {
        if (cfg->facts[j].kind == GCN_LK_BARRIER) {
            stopped = true;
            break;
        }
        hit[j] = 1;
    }
    if (!stopped)
        for (unsigned s = 0; s < cfg->blocks[b].nsucc; s++) {
            unsigned t = cfg->blocks[b].succ[s];
            if (!seen[t]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    while (sp) {
        unsigned k = stack[--sp];
        const gcn_block *blk = &cfg->blocks[k];
        bool stop = false;
        for (unsigned j = blk->first; j <= blk->last; j++) {
            if (cfg->facts[j].kind == GCN_LK_BARRIER) {
                stop = true;
                break;
            }
            hit[j] = 1;
        }
        if (stop)
            continue;
        for (unsigned s = 0; s < blk->nsucc; s++) {
            unsigned t = blk->succ[s];
            if (!seen[t]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
}

static void reach(const gcn_cfg *cfg, unsigned i, unsigned char *hit, unsigned char *seen,
                  unsigned *stack)
{
    reach_from(cfg, i, false, hit, seen, stack);
}

/* Barrier intervals: the entry and every s_barrier begin one, and it holds
 * the LDS accesses some path reaches from there without passing a barrier.
 * All waves leave the entry, and each barrier, together, so two accesses of
 * one interval may run at the same time in different waves, even when
 * neither reaches the other (the two sides of a branch on the wave index:
 * waves with roles).  Per access index a (acc[a] is the instruction), the
 * bitset over access indexes of every access that shares an interval with
 * it; NULL on allocation failure. */
static uint64_t *interval_mates(const gcn_cfg *cfg, const unsigned *acc, unsigned m,
                                unsigned char *hit, unsigned char *seen, unsigned *stack,
                                uint64_t **ivout, unsigned **fromout, unsigned *nout)
{
    const size_t words = (m + 63) / 64;
    unsigned nor = 1;
    for (unsigned i = 0; i < cfg->ninsn; i++)
        nor += cfg->facts[i].kind == GCN_LK_BARRIER;
    uint64_t *iv = calloc((size_t)nor * words + 1, sizeof *iv);
    uint64_t *mates = calloc((size_t)m * words + 1, sizeof *mates);
    unsigned *from = malloc(sizeof *from * nor);
    if (!iv || !mates || !from) {
        free(iv);
        free(mates);
        free(from);
        return NULL;
    }
    /* one interval per start: the entry (instruction 0, itself included)
     * and each s_barrier (from the instruction after it); instruction 0 may
     * be both.  (Before issue 13 the loop ran only the entry's, so the two
     * sides of a wave-index branch after a barrier were never paired.) */
    unsigned o = 0;
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const bool starts[2] = {i == 0, cfg->facts[i].kind == GCN_LK_BARRIER};
        for (unsigned k = 0; k < 2; k++) {
            if (!starts[k])
                continue;
            reach_from(cfg, i, k == 0, hit, seen, stack);
            from[o] = k == 0 ? i : i + 1;
            uint64_t *v = iv + (size_t)o++ * words;
            for (unsigned a = 0; a < m; a++)
                if (hit[acc[a]])
                    v[a / 64] |= 1ull << (a % 64);
        }
    }
    for (unsigned q = 0; q < o; q++) {
        const uint64_t *v = iv + (size_t)q * words;
        for (size_t w = 0; w < words; w++)
            for (uint64_t x = v[w]; x; x &= x - 1) {
                uint64_t *d = mates + (size_t)(w * 64 + (unsigned)__builtin_ctzll(x)) * words;
                for (size_t t = 0; t < words; t++)
                    d[t] |= v[t];
            }
    }
    *ivout = iv;
    *fromout = from;
    *nout = o;
    return mates;
}

/* Mark in `hit` every instruction of the blocks a barrier-free path reaches
 * from block `start` (its first instruction included) without entering block
 * `stop` (none: stop >= nblocks); *atstop: some such path enters it. */
static void reach_upto(const gcn_cfg *cfg, unsigned start, unsigned stop, unsigned char *hit,
                       unsigned char *seen, unsigned *stack, bool *atstop)
{
    memset(hit, 0, cfg->ninsn);
    memset(seen, 0, cfg->nblocks);
    *atstop = start == stop;
    if (*atstop)
        return;
    unsigned sp = 0;
    seen[start] = 1;
    stack[sp++] = start;
    while (sp) {
        const gcn_block *blk = &cfg->blocks[stack[--sp]];
        bool bar = false;
        for (unsigned j = blk->first; j <= blk->last && !bar; j++) {
            bar = cfg->facts[j].kind == GCN_LK_BARRIER;
            hit[j] = !bar;
        }
        if (bar)
            continue;
        for (unsigned s = 0; s < blk->nsucc; s++) {
            unsigned t = blk->succ[s];
            if (t == stop)
                *atstop = true;
            else if (!seen[t]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
}

/* d[a] |= b for every a in A, and d[b] |= A for every b in B */
static void pair_sets(uint64_t *d, size_t words, const uint64_t *A, const uint64_t *B)
{
    for (unsigned k = 0; k < 2; k++) {
        const uint64_t *v = k ? B : A, *other = k ? A : B;
        for (size_t w = 0; w < words; w++)
            for (uint64_t x = v[w]; x; x &= x - 1) {
                uint64_t *r = d + (size_t)(w * 64 + (unsigned)__builtin_ctzll(x)) * words;
                for (size_t q = 0; q < words; q++)
                    r[q] |= other[q];
            }
    }
}

/* Sibling pairs that two waves may really reach: per access index a, the
 * bitset of accesses b that two waves leaving one interval's start together
 * may reach, one a and the other b, when neither reaches the other.  Such
 * waves run one sequence of instructions until the first branch where they
 * part, which must be one whose condition may differ between them
 * (uniform.c: a loop's exit on a count from the kernel arguments, a test of
 * a kernel argument part no waves).  For such a branch X with successors S1,
 * S2 and immediate post-dominator J: one wave is on its way from S1 (before
 * J), the other from S2, or already past J when S2 leads there without a
 * barrier.  Two waves both past J take the same side of every later branch
 * that does not part them in turn (registers the two sides wrote differ
 * there, and make such branches non-uniform), so J's successors alone pair
 * nothing.  nub and ipd: gcn_lint_uniform_branches's answer.  NULL on
 * allocation failure. */
static uint64_t *sibling_pairs(const gcn_cfg *cfg, const unsigned *acc, unsigned m,
                               unsigned char *hit, unsigned char *seen, unsigned *stack,
                               const unsigned char *nub, const unsigned *ipd)
{
    const size_t words = (m + 63) / 64;
    const unsigned nb = cfg->nblocks;
    uint64_t *sib = calloc((size_t)m * words + 1, sizeof *sib);
    uint64_t *set = calloc(5 * words + 1, sizeof *set);     /* H1, H2, P, H1+P, H2+P */
    if (!sib || !set) {
        free(sib);
        free(set);
        return NULL;
    }
    uint64_t *H[2] = {set, set + words}, *P = set + 2 * words, *HP[2] = {set + 3 * words,
                                                                        set + 4 * words};
    for (unsigned b = 0; b < nb; b++) {
        const gcn_block *blk = &cfg->blocks[b];
        if (!nub[b])
            continue;
        const unsigned J = ipd[b];
        bool pdone = false;
        /* every pair of distinct successors (a conditional branch has two) */
        for (unsigned s = 0; s < blk->nsucc; s++)
            for (unsigned t = s + 1; t < blk->nsucc; t++) {
                if (blk->succ[s] == blk->succ[t])
                    continue;
                bool atj[2];
                for (unsigned k = 0; k < 2; k++) {
                    memset(H[k], 0, sizeof *set * words);
                    reach_upto(cfg, blk->succ[k ? t : s], J, hit, seen, stack, &atj[k]);
                    for (unsigned a = 0; a < m; a++)
                        if (hit[acc[a]])
                            H[k][a / 64] |= 1ull << (a % 64);
                }
                if ((atj[0] || atj[1]) && J < nb && !pdone) {
                    memset(P, 0, sizeof *set * words);
                    reach_from(cfg, cfg->blocks[J].first, true, hit, seen, stack);
                    for (unsigned a = 0; a < m; a++)
                        if (hit[acc[a]])
                            P[a / 64] |= 1ull << (a % 64);
                    pdone = true;
                }
                for (unsigned k = 0; k < 2; k++)
                    for (size_t w = 0; w < words; w++)
                        HP[k][w] = H[k][w] | (atj[k] && pdone ? P[w] : 0);
                pair_sets(sib, words, H[0], HP[1]);
                pair_sets(sib, words, H[1], HP[0]);
            }
    }
    free(set);
    return sib;
}

/* The LDS accesses another wave may run after s_barrier i and before its
 * next barrier.  With path facts (paths.c), only along the paths they allow:
 * less the accesses that only paths no run takes reach (an unrolled loop's
 * exit followed by the tail variant of another exit); without (paths NULL),
 * every path.  The walk keeps up to BA_FACTS distinct fact sets per block;
 * past that a block is walked once more without facts, which covers every
 * other set. */
#define BA_FACTS 8
typedef struct bawork { unsigned block, from; uint8_t thru; gcn_pstate pf; } bawork;
typedef struct baseen { uint8_t thru; gcn_pstate pf; } baseen;

/* Mark in hit[] every LDS instruction that a path from instruction `from` of
 * block `block` reaches without passing an s_barrier, along the paths the
 * facts allow (paths NULL: every path).  0, or -1 on allocation failure. */
static int walk_facts(const gcn_cfg *cfg, const struct gcn_paths *paths, unsigned block,
                      unsigned from, unsigned char *hit)
{
    unsigned nb = cfg->nblocks;
    baseen **seen = calloc(nb ? nb : 1, sizeof *seen);
    unsigned char *nseen = calloc(nb ? nb : 1, 1);   /* BA_FACTS + 1: walked without facts */
    unsigned cap = 64, nw = 0;
    bawork *wl = malloc(sizeof *wl * cap);
    int rc = 0;
    if (!seen || !nseen || !wl) {
        rc = -1;
        goto out;
    }
    wl[nw++] = (bawork){block, from, 0, {0, {{0}}}};
    while (nw && rc == 0) {
        bawork w = wl[--nw];
        const gcn_block *blk = &cfg->blocks[w.block];
        int scc = -1;
        bool stop = false;
        for (unsigned i = w.from; i <= blk->last; i++) {
            if (cfg->facts[i].kind == GCN_LK_BARRIER) {
                stop = true;
                break;
            }
            if (cfg->facts[i].lds)
                hit[i] = 1;
            if (w.pf.n)
                gcn_paths_step(paths, &w.pf, i, &scc);
            else if (cfg->facts[i].flags & GCN_F_WR_SCC)
                scc = -1;
        }
        if (stop)
            continue;
        for (unsigned k = 0; k < blk->nsucc; k++) {
            gcn_pstate out = {0, {{0}}};
            /* entered by an edge after which no run takes successor k */
            if (k < 8 && (w.thru >> k) & 1u)
                continue;
            if (paths && !gcn_paths_edge(paths, w.block, k, &w.pf, scc, &out))
                continue;
            unsigned t = blk->succ[k];
            uint8_t thru = paths ? (uint8_t)gcn_paths_edge_thru(paths, w.block, k) : 0;
            if (nseen[t] > BA_FACTS)
                continue;                       /* walked without facts: covers this */
            bool dup = false;
            for (unsigned j = 0; j < nseen[t] && !dup; j++)
                dup = seen[t][j].thru == thru && seen[t][j].pf.n == out.n &&
                      !memcmp(seen[t][j].pf.f, out.f, sizeof(gcn_pfact) * out.n);
            if (dup)
                continue;
            if (nseen[t] == BA_FACTS) {
                out.n = 0;                      /* too many: once more, without facts */
                thru = 0;
                nseen[t] = BA_FACTS + 1;
            } else {
                if (!seen[t] && !(seen[t] = malloc(sizeof(baseen) * BA_FACTS))) {
                    rc = -1;
                    break;
                }
                seen[t][nseen[t]++] = (baseen){thru, out};
            }
            if (nw == cap) {
                bawork *g = realloc(wl, sizeof *wl * (cap *= 2));
                if (!g) {
                    rc = -1;
                    break;
                }
                wl = g;
            }
            wl[nw++] = (bawork){t, cfg->blocks[t].first, thru, out};
        }
    }
out:
    if (seen)
        for (unsigned k = 0; k < nb; k++)
            free(seen[k]);
    free(seen);
    free(nseen);
    free(wl);
    return rc;
}

int gcn_lint_barrier_after(const gcn_cfg *cfg, const struct gcn_paths *paths, unsigned b,
                           unsigned **list, unsigned *n)
{
    unsigned char *hit = calloc(cfg->ninsn ? cfg->ninsn : 1, 1);
    int rc = hit ? walk_facts(cfg, paths, cfg->block_of[b], b + 1, hit) : -1;
    *list = NULL;
    *n = 0;
    if (rc == 0) {
        unsigned cnt = 0;
        for (unsigned j = 0; j < cfg->ninsn; j++)
            cnt += hit[j];
        if (!(*list = malloc(sizeof **list * (cnt ? cnt : 1))))
            rc = -1;
        else
            for (unsigned j = 0; j < cfg->ninsn; j++)
                if (hit[j])
                    (*list)[(*n)++] = j;
    }
    free(hit);
    return rc;
}

/* Path facts for the pairs the plain walks find (lazily: only pairs whose
 * bytes meet are confirmed).  A pair stays when one access reaches the other,
 * or both are reached from one barrier interval's start, along the paths the
 * facts allow; the walks are made once per access and per interval. */
typedef struct xconfirm {
    const gcn_cfg *cfg;
    const gcn_lint_opts *o;
    struct gcn_paths *paths;
    bool own;                   /* paths built here (not the caller's) */
    bool tried;
    const unsigned *acc;
    unsigned m;
    size_t words;
    unsigned char *hit;
    uint64_t **rf;              /* per access: the accesses it reaches */
    const uint64_t *iv;         /* per interval: its accesses (every path) */
    const unsigned *from;       /* per interval: its first instruction */
    unsigned niv;
    uint64_t **ivf;             /* per interval: its accesses along allowed paths */
    bool failed;
} xconfirm;

#define XBIT(v, j) (((v)[(j) / 64] >> ((j) % 64)) & 1u)

static const uint64_t *xc_bits(xconfirm *c, uint64_t **slot, unsigned block, unsigned from)
{
    if (*slot)
        return *slot;
    memset(c->hit, 0, c->cfg->ninsn);
    uint64_t *v = calloc(c->words + 1, sizeof *v);
    if (!v || walk_facts(c->cfg, c->paths, block, from, c->hit) < 0) {
        free(v);
        c->failed = true;
        return NULL;
    }
    for (unsigned a = 0; a < c->m; a++)
        if (c->hit[c->acc[a]])
            v[a / 64] |= 1ull << (a % 64);
    return *slot = v;
}

static bool xc_ok(xconfirm *c, unsigned i, unsigned j)
{
    if (!c->tried) {
        c->tried = true;
        if (!(c->o && c->o->all_paths)) {
            c->paths = c->o ? c->o->paths : NULL;
            if (!c->paths) {
                c->paths = gcn_paths_build(c->cfg);
                c->own = true;
            }
            c->hit = malloc(c->cfg->ninsn ? c->cfg->ninsn : 1);
            c->rf = calloc(c->m + 1, sizeof *c->rf);
            c->ivf = calloc(c->niv + 1, sizeof *c->ivf);
            if (!c->hit || !c->rf || !c->ivf)
                c->failed = true;
        }
    }
    if (!c->paths || c->failed)
        return true;                    /* every path */
    const gcn_cfg *cfg = c->cfg;
    for (unsigned k = 0; k < 2; k++) {
        unsigned x = k ? j : i, y = k ? i : j, a = c->acc[x];
        const uint64_t *r = xc_bits(c, &c->rf[x], cfg->block_of[a], a + 1);
        if (!r || XBIT(r, y))
            return true;
    }
    for (unsigned q = 0; q < c->niv; q++) {
        const uint64_t *v = c->iv + (size_t)q * c->words;
        if (!XBIT(v, i) || !XBIT(v, j))
            continue;
        unsigned f = c->from[q];
        const uint64_t *r = xc_bits(c, &c->ivf[q], cfg->block_of[f ? f - 1 : 0], f);
        if (!r || (XBIT(r, i) && XBIT(r, j)))
            return true;
    }
    return false;
}

static void xc_free(xconfirm *c)
{
    if (c->rf)
        for (unsigned k = 0; k < c->m; k++)
            free(c->rf[k]);
    if (c->ivf)
        for (unsigned k = 0; k < c->niv; k++)
            free(c->ivf[k]);
    free(c->rf);
    free(c->ivf);
    free(c->hit);
    if (c->own)
        gcn_paths_free(c->paths);
}

/* ---- reads whose value is never used (dead reads) -------------------------
 * A pair of a read and a write of the same bytes only matters when the
 * reading wave uses what it read: a late read that only fills registers the
 * wave never reads again changes nothing.  The reading wave's continuation:
 * for a read that reaches the write (the reading wave leaves by the same
 * route as the writing wave did: waves of a work-group branch alike except on
 * the wave index, docs/gcnlint.md), the instructions on barrier-free paths
 * from the read to the write, then anything after the write; otherwise (the
 * write comes first, or the two are on the two sides of a branch), anything
 * after the read.  Liveness of the read's destination registers (at most 32)
 * over those instructions: a use makes them live, a write by an instruction
 * ends them, also an asynchronous one (gl_step). */
#define DR_MAXREG 32u                /* a read writing more registers is taken as used */
#define DR_BUDGET 2048u             /* route computations per kernel */
typedef struct v512 { uint64_t w[8]; } v512;    /* VGPRs, then AGPRs (gcn_regset.v) */

typedef struct dread {
    const gcn_cfg *cfg;
    v512 *gl;                       /* per block: VGPRs/AGPRs live on entry, every path */
    bool glok;
    v512 *rin;                      /* per block: live on entry, the route */
    unsigned char *fwd, *bwd;       /* per instruction: on the route */
    unsigned char *vis;             /* per block: scratch */
    unsigned char *state;           /* per instruction: 1 dead on every path, 2 not */
    unsigned *stack;
    unsigned budget;
    const unsigned char *nub;       /* per block: its branch may part waves (uniform.c;
                                     * the caller's) */
    bool failed;
} dread;

/* The liveness transfer of one instruction: a use makes a register live;
 * any later write ends it, also an asynchronous one (a load): a DS read's
 * data returns in order, so a later DS read lands after it; a load of
 * another counter (vmcnt) either lands after the raced value, which it then
 * overwrites unread, or, issued while the DS read is still pending, before
 * it -- the same wave's write-after-write that pending-overwrite reports as
 * the root cause (class F6 of docs/gcnlint-corpus.md, triage 10;
 * cases/dead_read_async{,_broken}.s). */
static void gl_step(const gcn_lfacts *f, v512 *L)
{
    for (unsigned w = 0; w < 8; w++)
        L->w[w] = (L->w[w] & ~(f->defs.v[w] | f->adefs.v[w])) | f->uses.v[w];
}

static v512 gl_out(const dread *c, const v512 *in, unsigned b)
{
    v512 L = {{0}};
    const gcn_block *blk = &c->cfg->blocks[b];
    for (unsigned s = 0; s < blk->nsucc; s++)
        for (unsigned w = 0; w < 8; w++)
            L.w[w] |= in[blk->succ[s]].w[w];
    return L;
}

/* every VGPR and AGPR, every path, once per kernel */
static void gl_build(dread *c)
{
    const gcn_cfg *cfg = c->cfg;
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned b = cfg->nblocks; b-- > 0;) {
            v512 L = gl_out(c, c->gl, b);
            for (unsigned j = cfg->blocks[b].last + 1; j-- > cfg->blocks[b].first;)
                gl_step(&cfg->facts[j], &L);
            if (memcmp(&L, &c->gl[b], sizeof L)) {
                c->gl[b] = L;
                ch = true;
            }
        }
    }
}

/* live just after instruction k, every path */
static v512 gl_after(const dread *c, unsigned k)
{
    unsigned b = c->cfg->block_of[k];
    v512 L = gl_out(c, c->gl, b);
    for (unsigned j = c->cfg->blocks[b].last; j > k; j--)
        gl_step(&c->cfg->facts[j], &L);
    return L;
}

/* the registers read r writes (*d); false when it writes none or more than
 * DR_MAXREG (then it is taken as used) */
static bool dr_dests(const dread *c, unsigned r, v512 *d)
{
    const gcn_lfacts *f = &c->cfg->facts[r];
    unsigned nd = 0;
    for (unsigned w = 0; w < 8; w++) {
        d->w[w] = f->defs.v[w] | f->adefs.v[w];
        nd += (unsigned)__builtin_popcountll(d->w[w]);
    }
    return nd && nd <= DR_MAXREG;
}

static bool v_meets(const v512 *a, const v512 *b)
{
    uint64_t x = 0;
    for (unsigned w = 0; w < 8; w++)
        x |= a->w[w] & b->w[w];
    return x != 0;
}

/* Mark in bwd[] every instruction from which w is reached with no barrier. */
static void dr_back(dread *c, unsigned w)
{
    const gcn_cfg *cfg = c->cfg;
    memset(c->bwd, 0, cfg->ninsn);
    memset(c->vis, 0, cfg->nblocks);
    unsigned sp = 0;
    unsigned b = cfg->block_of[w];
    bool stop = false;
    for (unsigned j = w + 1; j-- > cfg->blocks[b].first;) {
        if (j != w && cfg->facts[j].kind == GCN_LK_BARRIER) {
            stop = true;
            break;
        }
        c->bwd[j] = 1;
    }
    if (!stop)
        for (unsigned p = 0; p < cfg->blocks[b].npred; p++) {
            unsigned q = cfg->blocks[b].pred[p];
            if (!c->vis[q]) {
                c->vis[q] = 1;
                c->stack[sp++] = q;
            }
        }
    while (sp) {
        const gcn_block *blk = &cfg->blocks[c->stack[--sp]];
        bool st = false;
        for (unsigned j = blk->last + 1; j-- > blk->first;) {
            if (cfg->facts[j].kind == GCN_LK_BARRIER) {
                st = true;
                break;
            }
            c->bwd[j] = 1;
        }
        if (st)
            continue;
        for (unsigned p = 0; p < blk->npred; p++) {
            unsigned q = blk->pred[p];
            if (!c->vis[q]) {
                c->vis[q] = 1;
                c->stack[sp++] = q;
            }
        }
    }
}

/* Is what read r returns possibly used, with write w as the pair's other
 * side; route: r reaches w with no barrier. */
static bool dr_used(dread *c, unsigned r, unsigned w, bool route)
{
    const gcn_cfg *cfg = c->cfg;
    v512 d;
    if (c->failed || !dr_dests(c, r, &d))
        return true;
    if (!c->glok) {
        gl_build(c);
        c->glok = true;
    }
    if (!c->state[r]) {
        v512 L = gl_after(c, r);
        c->state[r] = v_meets(&L, &d) ? 2 : 1;
    }
    if (c->state[r] == 1)
        return false;                       /* dead on every path */
    if (!route || !c->budget)
        return true;
    c->budget--;
    /* the route: forward from r, backward from w, no barrier */
    reach_from(cfg, r, false, c->fwd, c->vis, c->stack);
    dr_back(c, w);
    unsigned nb = cfg->nblocks;
    /* the reading wave stays on the route only if every branch that leaves
     * it goes the same way in every wave (uniform.c) */
    for (unsigned b = 0; b < nb; b++) {
        const gcn_block *blk = &cfg->blocks[b];
        bool on = blk->last == r || (c->fwd[blk->last] && c->bwd[blk->last]);
        if (!on || blk->nsucc < 2)
            continue;
        bool leaves = false;
        for (unsigned k = 0; k < blk->nsucc; k++) {
            unsigned t = cfg->blocks[blk->succ[k]].first;
            leaves |= !(t == w || (c->fwd[t] && c->bwd[t]));
        }
        if (leaves && c->nub[b])
            return true;
    }
    /* the same liveness over the route, then every path after w (blocks
     * with nothing on the route keep nothing live: marked in vis) */
    memset(c->rin, 0, sizeof *c->rin * nb);
    for (unsigned b = 0; b < nb; b++) {
        const gcn_block *blk = &cfg->blocks[b];
        c->vis[b] = 0;
        for (unsigned j = blk->first; j <= blk->last && !c->vis[b]; j++)
            c->vis[b] = j == w || j == r || (c->fwd[j] && c->bwd[j]);
    }
    v512 after_w = gl_after(c, w), at_r = {{0}};
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned b = nb; b-- > 0;) {
            if (!c->vis[b])
                continue;
            const gcn_block *blk = &cfg->blocks[b];
            v512 L = gl_out(c, c->rin, b);      /* live after the instruction */
            for (unsigned j = blk->last + 1; j-- > blk->first;) {
                if (j == w)
                    L = after_w;
                if (j == r)
                    for (unsigned x = 0; x < 8; x++)
                        at_r.w[x] |= L.w[x] & d.w[x];
                if (j == w || (c->fwd[j] && c->bwd[j]))
                    gl_step(&cfg->facts[j], &L);
                else
                    L = (v512){{0}};
            }
            if (memcmp(&L, &c->rin[b], sizeof L)) {
                c->rin[b] = L;
                ch = true;
            }
        }
    }
    return v_meets(&at_r, &d);
}

static bool dr_init(dread *c, const gcn_cfg *cfg)
{
    if (c->cfg)
        return !c->failed;
    unsigned nb = cfg->nblocks ? cfg->nblocks : 1, n = cfg->ninsn ? cfg->ninsn : 1;
    c->cfg = cfg;
    c->budget = DR_BUDGET;
    c->gl = calloc(nb, sizeof *c->gl);
    c->rin = calloc(nb, sizeof *c->rin);
    c->fwd = calloc(n, 1);
    c->bwd = calloc(n, 1);
    c->vis = calloc(nb, 1);
    c->state = calloc(n, 1);
    c->stack = malloc(sizeof *c->stack * nb);
    c->failed = !c->gl || !c->rin || !c->fwd || !c->bwd || !c->vis || !c->state || !c->stack;
    return !c->failed;
}

static void dr_free(dread *c)
{
    free(c->gl); free(c->rin); free(c->fwd); free(c->bwd); free(c->vis); free(c->state);
    free(c->stack);
}

/* --explain: a barrier-free route from instruction `from` (inclusive when
 * incl) to instruction `to` that wave `wave` may take (through blocks whose
 * wave set holds it; wave >= 16: any block) and no static path fact rules
 * out (paths NULL: every edge).  The blocks in order into blk (at most
 * cfg->nblocks + 1); their count, 0 when there is none. */
static unsigned xw_route(const gcn_cfg *cfg, const uint16_t *bwaves, const struct gcn_paths *paths,
                         unsigned from, bool incl, unsigned to, unsigned wave, unsigned *blk,
                         unsigned *prev, unsigned *queue)
{
    const unsigned nb = cfg->nblocks, fb = cfg->block_of[from], tb = cfg->block_of[to];
    unsigned start = incl ? from : from + 1;
    bool open = true;                   /* no barrier from `start` to the block's end */
    for (unsigned j = start; j <= cfg->blocks[fb].last && open; j++) {
        if (fb == tb && j == to) {
            blk[0] = fb;
            return 1;
        }
        open = cfg->facts[j].kind != GCN_LK_BARRIER;
    }
    if (!open)
        return 0;
    for (unsigned k = 0; k < nb; k++)
        prev[k] = ~0u;
    unsigned qh = 0, qt = 0;
    bool found = false;
    for (unsigned k = fb, first = 1; !found; first = 0) {
        if (!first) {
            if (qh == qt)
                return 0;
            k = queue[qh++];
            if (wave < 16 && bwaves && !(bwaves[k] >> wave & 1u))
                continue;
            bool bar = false;
            for (unsigned j = cfg->blocks[k].first; j <= cfg->blocks[k].last && !bar; j++) {
                if (k == tb && j == to) {
                    found = true;
                    break;
                }
                bar = cfg->facts[j].kind == GCN_LK_BARRIER;
            }
            if (found || bar)
                continue;
        }
        const gcn_block *b = &cfg->blocks[k];
        for (unsigned s = 0; s < b->nsucc; s++) {
            unsigned t = b->succ[s];
            if (prev[t] != ~0u || (paths && gcn_paths_edge_dead(paths, k, s)))
                continue;
            prev[t] = k;
            queue[qt++] = t;
        }
    }
    /* tb back to fb (tb may be fb itself, reached around a loop) */
    unsigned n = 0, cur = tb;
    do {
        blk[n++] = cur;
        cur = prev[cur];
    } while (cur != fb && cur != ~0u && n <= nb);
    blk[n++] = fb;
    for (unsigned i = 0; i < n / 2; i++) {
        unsigned t = blk[i];
        blk[i] = blk[n - 1 - i];
        blk[n - 1 - i] = t;
    }
    return n;
}

/* "+A -> +B -> ... -> +Z": from, the blocks after the first, to. */
static void xw_route_text(const gcn_cfg *cfg, const gcn_lint_opts *o, unsigned from,
                          unsigned to, const unsigned *blk, unsigned n, gcn_strbuf *sb)
{
    /* the points: from, the blocks after the first, to; a block that
     * begins at `to` is `to` */
    uint64_t *pt = malloc(sizeof *pt * (n + 1));
    if (!pt)
        return;
    unsigned npt = 0;
    pt[npt++] = cfg->insn[from].addr;
    for (unsigned p = 1; p < n; p++)
        if (cfg->blocks[blk[p]].first != to || p + 1 < n)
            pt[npt++] = cfg->insn[cfg->blocks[blk[p]].first].addr;
    pt[npt++] = cfg->insn[to].addr;
    for (unsigned p = 0; p < npt; p++) {
        if (npt > 8 && p == 3) {
            gcn_sb_puts(sb, " -> ...");
            p = npt - 4;
            continue;
        }
        if (p)
            gcn_sb_puts(sb, " -> ");
        gcn_lint_loc(o, pt[p], sb);
    }
    free(pt);
}

/* --explain of a race between instruction i and w: the waves that meet
 * and the barrier-free route of each.  reach: the access index `from`
 * reaches the other with no barrier (then the wave at the other may have
 * passed it); ivs: the instruction that begins a barrier interval holding
 * both (0: the entry; else the one after an s_barrier), ~0u when not known. */
static char *xw_explain(const gcn_cfg *cfg, const gcn_values *vals, const struct gcn_paths *paths,
                        const gcn_lint_opts *o, unsigned i, unsigned w, bool reach, unsigned from,
                        unsigned ivs, unsigned nwaves)
{
    unsigned nb = cfg->nblocks;
    unsigned *blk = malloc(sizeof *blk * (nb + 2)), *prev = malloc(sizeof *prev * (nb + 1)),
             *queue = malloc(sizeof *queue * (nb + 1));
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    char *res = NULL;
    if (!blk || !prev || !queue)
        goto out;
    unsigned wi = 16, ww = 16;
    bool pair = vals && vals->lds && gcn_lds_cross_pair(&vals->lds[i], &vals->lds[w], nwaves, &wi, &ww);
    const uint16_t *bw = vals ? vals->bwaves : NULL;
    if (pair) {
        gcn_sb_printf(&sb, "  waves: wave %u at ", wi);
        gcn_lint_loc(o, cfg->insn[i].addr, &sb);
        gcn_sb_printf(&sb, " and wave %u at ", ww);
        gcn_lint_loc(o, cfg->insn[w].addr, &sb);
        gcn_sb_puts(&sb, " touch a common byte\n");
    }
    if (reach) {
        /* the wave at the other access passed `from` on its way there */
        unsigned to = from == i ? w : i, wave = from == i ? ww : wi, other = from == i ? wi : ww;
        unsigned n = 0;
        if (wave >= 16 || !bw || (bw[cfg->block_of[from]] >> wave & 1u))
            n = xw_route(cfg, bw, paths, from, false, to, wave, blk, prev, queue);
        if (!n && ivs == ~0u) {
            n = xw_route(cfg, bw, paths, from, false, to, 16, blk, prev, queue);
            wave = other = 16;
        }
        if (n) {
            if (wave < 16)
                gcn_sb_printf(&sb, "  wave %u passes ", wave);
            else
                gcn_sb_puts(&sb, "  a wave passes ");
            gcn_lint_loc(o, cfg->insn[from].addr, &sb);
            gcn_sb_puts(&sb, " and reaches ");
            gcn_lint_loc(o, cfg->insn[to].addr, &sb);
            gcn_sb_puts(&sb, " with no s_barrier, through ");
            xw_route_text(cfg, o, from, to, blk, n, &sb);
            if (other < 16)
                gcn_sb_printf(&sb, ", while wave %u may still be at ", other);
            else
                gcn_sb_puts(&sb, ", while another wave may still be at ");
            gcn_lint_loc(o, cfg->insn[from].addr, &sb);
            gcn_sb_puts(&sb, "\n");
            goto done;
        }
    }
    if (ivs == ~0u)
        goto done;
    /* both from the interval's start: the entry, or the barrier before ivs */
    unsigned start = ivs == 0 ? 0 : ivs - 1;
    gcn_sb_puts(&sb, "  both follow ");
    if (ivs == 0)
        gcn_sb_puts(&sb, "the kernel entry");
    else {
        gcn_sb_puts(&sb, "the s_barrier at ");
        gcn_lint_loc(o, cfg->insn[start].addr, &sb);
    }
    gcn_sb_puts(&sb, " with no s_barrier between:\n");
    for (unsigned side = 0; side < 2; side++) {
        unsigned to = side == 0 ? i : w, wave = side == 0 ? wi : ww;
        unsigned n = xw_route(cfg, bw, paths, start, ivs == 0, to, wave, blk, prev, queue);
        if (!n && wave < 16) {
            n = xw_route(cfg, bw, paths, start, ivs == 0, to, 16, blk, prev, queue);
            wave = 16;
        }
        if (!n)
            continue;
        if (wave < 16)
            gcn_sb_printf(&sb, "    wave %u reaches ", wave);
        else
            gcn_sb_puts(&sb, "    a wave reaches ");
        gcn_lint_loc(o, cfg->insn[to].addr, &sb);
        gcn_sb_puts(&sb, " through ");
        xw_route_text(cfg, o, start, to, blk, n, &sb);
        gcn_sb_puts(&sb, "\n");
    }
done:
    res = strdup(sb.buf ? sb.buf : "");
out:
    gcn_sb_free(&sb);
    free(blk); free(prev); free(queue);
    return res;
}

int gcn_lint_xwave(const gcn_cfg *cfg, const gcn_values *vals, unsigned nwaves,
                   const gcn_lint_opts *o, gcn_findings *out)
{
    if (nwaves <= 1 || !cfg->ninsn)
        return 0;
    unsigned n = cfg->ninsn;
    /* no LDS access: no race, and none of the set-up below (ten arrays, the
     * barrier intervals) can matter */
    unsigned nacc = 0;
    for (unsigned i = 0; i < n && !nacc; i++)
        nacc += is_access(&cfg->facts[i]);
    if (!nacc)
        return 0;
    unsigned char *hit = malloc(n), *seen = malloc(cfg->nblocks ? cfg->nblocks : 1);
    unsigned *stack = malloc(sizeof *stack * (cfg->nblocks ? cfg->nblocks : 1));
    int *race = malloc(sizeof *race * n);        /* access -> racing write, -1 */
    uint8_t *proven = malloc(n);                 /* 2: known ranges overlap, and with as few
                                                  * waves as half the metadata's bound; 1:
                                                  * only with more (gcn_lds_launch_only);
                                                  * 0: unproven */
    unsigned *minw = malloc(sizeof *minw * n);   /* the wave count at which they first meet */
    unsigned *rstart = malloc(sizeof *rstart * n); /* --explain: the access the other passed, */
    unsigned *rivs = malloc(sizeof *rivs * n);   /* and an interval's start holding both */
    uint8_t *rsib = malloc(n);                   /* neither reaches the other */
    if (!hit || !seen || !stack || !race || !proven || !minw || !rstart || !rivs || !rsib) {
        free(hit); free(seen); free(stack); free(race); free(proven); free(minw);
        free(rstart); free(rivs); free(rsib);
        return -1;
    }
    for (unsigned i = 0; i < n; i++) {
        race[i] = -1;
        proven[i] = 0;
        minw[i] = 0;
    }
    gcn_ldsrange unknown;
    memset(&unknown, 0, sizeof unknown);
    /* the accesses, and the ones that share a barrier interval with each */
    unsigned m = 0;
    unsigned *acc = malloc(sizeof *acc * n);
    if (!acc) {
        free(hit); free(seen); free(stack); free(race); free(proven); free(minw);
        free(rstart); free(rivs); free(rsib);
        return -1;
    }
    for (unsigned i = 0; i < n; i++)
        if (is_access(&cfg->facts[i]))
            acc[m++] = i;
    /* the branches that may part waves, and the joins (uniform.c): for the
     * sibling pairs and the dead-read test's route (on allocation failure
     * every branch may part them, and no join is known) */
    const unsigned nb = cfg->nblocks;
    unsigned char *nub = malloc(nb ? nb : 1);
    unsigned *ipd = malloc(sizeof *ipd * (nb ? nb : 1));
    if (!nub || !ipd) {
        free(hit); free(seen); free(stack); free(race); free(proven); free(minw);
        free(rstart); free(rivs); free(rsib);
        free(acc); free(nub); free(ipd);
        return -1;
    }
    gcn_lint_uniform_branches(cfg, nub, ipd);
    /* per access: the accesses a path reaches from it with no barrier
     * (R), and those sharing a barrier interval with it (mates); a pair of
     * mates where neither reaches the other (the two sides of a branch) is
     * taken once, from the lower index */
    const size_t words = (m + 63) / 64;
    uint64_t *iv = NULL;
    unsigned *ivfrom = NULL, niv = 0;
    uint64_t *mates = m <= GCN_XWAVE_MAX_MATES ? interval_mates(cfg, acc, m, hit, seen, stack,
                                                                &iv, &ivfrom, &niv)
                                                : NULL;
    uint64_t *sib = mates ? sibling_pairs(cfg, acc, m, hit, seen, stack, nub, ipd) : NULL;
    uint64_t *R = calloc((size_t)m * words + 1, sizeof *R);
    if ((m <= GCN_XWAVE_MAX_MATES && (!mates || !sib)) || !R) {
        free(hit); free(seen); free(stack); free(race); free(proven); free(minw);
        free(rstart); free(rivs); free(rsib);
        free(acc); free(mates); free(sib); free(R); free(iv); free(ivfrom);
        free(nub); free(ipd);
        return -1;
    }
    for (unsigned i = 0; i < m; i++) {
        reach(cfg, acc[i], hit, seen, stack);
        uint64_t *r = R + (size_t)i * words;
        for (unsigned j = 0; j < m; j++)
            if (hit[acc[j]])
                r[j / 64] |= 1ull << (j % 64);
    }
#define BIT(v, j) (((v)[(j) / 64] >> ((j) % 64)) & 1u)
    xconfirm xc = {.cfg = cfg, .o = o, .acc = acc, .m = m, .words = words, .iv = iv,
                   .from = ivfrom, .niv = mates ? niv : 0};
    dread dr = {.cfg = NULL};
    for (unsigned i = 0; i < m; i++) {
        const unsigned a = acc[i];
        const uint64_t *ri = R + (size_t)i * words, *mi = mates ? mates + (size_t)i * words : NULL;
        const uint64_t *si = sib ? sib + (size_t)i * words : NULL;
        for (unsigned j = 0; j < m; j++) {
            /* a path from a reaches b, or they are siblings (taken once, j > i)
             * below a branch that may part two waves */
            if (!BIT(ri, j) &&
                !(mi && j > i && BIT(mi, j) && BIT(si, j) && !BIT(R + (size_t)j * words, i)))
                continue;
            const unsigned b = acc[j];
            bool wa = writes(&cfg->facts[a]), wb = writes(&cfg->facts[b]);
            if (!wa && !wb)
                continue;
            const gcn_ldsrange *ra = vals && vals->lds ? &vals->lds[a] : &unknown;
            const gcn_ldsrange *rb = vals && vals->lds ? &vals->lds[b] : &unknown;
            if (o && o->no_lds_alias)
                ra = rb = &unknown;
            /* two writes of unknown addresses are not reported: a work-group's
             * waves filling a shared tile look like that (each its own rows) */
            if (wa && wb && (!ra->known || !rb->known))
                continue;
            unsigned mw = 0;
            int ov = gcn_lds_cross_overlap3w(ra, rb, nwaves, &mw);
            if (!ov || (ov == 2 && !(o && o->lds_unproven)))
                continue;
            if (!xc_ok(&xc, i, j))
                continue;                       /* only on paths no run takes */
            if (!(wa && wb)) {
                /* a read and a write: only a read whose value the wave uses */
                unsigned rd = wa ? j : i, wr = wa ? i : j;
                if (!dr_init(&dr, cfg))
                    dr.failed = true;
                dr.nub = nub;
                if (!dr_used(&dr, acc[rd], acc[wr], BIT(R + (size_t)rd * words, wr)))
                    continue;
            }
            /* report at the read (or at the later write), naming the write */
            unsigned at = (!wb || (wa && wb)) ? b : a, w = at == b ? a : b;
            if (!writes(&cfg->facts[w]))
                w = at == b ? b : a;
            uint8_t pv = ov != 1 ? 0 : gcn_lds_launch_only(o, mw, false) ? 1 : 2;
            /* a proven race replaces an unproven one */
            if (race[at] < 0 || pv > proven[at] || (pv == proven[at] && (unsigned)race[at] > w)) {
                race[at] = (int)w;
                proven[at] = pv;
                minw[at] = mw;
                /* the route: a reaches b, or both follow one interval's start */
                rsib[at] = !BIT(ri, j);
                rstart[at] = a;
                rivs[at] = ~0u;
                for (unsigned q = 0; o && o->explain && mates && q < niv; q++)
                    if (BIT(iv + (size_t)q * words, i) && BIT(iv + (size_t)q * words, j)) {
                        rivs[at] = ivfrom[q];
                        break;
                    }
            }
        }
    }
    int added = 0;
    for (unsigned i = 0; i < n; i++) {
        if (race[i] < 0)
            continue;
        unsigned w = (unsigned)race[i];
        gcn_strbuf sb;
        gcn_sb_init(&sb);
        gcn_lint_insn_text(cfg, i, &sb);
        gcn_sb_printf(&sb, " may %s LDS that another wave of the work-group %s with '",
                      writes(&cfg->facts[i]) && !(cfg->facts[i].lds & GCN_LL_READ) ? "write"
                                                                                   : "access",
                      w == i ? "accesses at the same time" : "writes");
        gcn_lint_insn_text(cfg, w, &sb);
        gcn_sb_puts(&sb, "' (");
        gcn_lint_loc(o, cfg->insn[w].addr, &sb);
        gcn_sb_puts(&sb, "): both may run in one barrier interval (no s_barrier between "
                         "them on some path, or both after one barrier or the entry), so "
                         "the waves are not ordered, and ");
        if (proven[i]) {
            gcn_sb_puts(&sb, "their LDS ranges overlap across waves (");
            gcn_ldsrange_format(&vals->lds[i], &sb);
            gcn_sb_puts(&sb, " and ");
            gcn_ldsrange_format(&vals->lds[w], &sb);
            gcn_sb_puts(&sb, " meet for two different waves)");
        } else {
            const gcn_ldsrange *u = vals && vals->lds ? &vals->lds[i] : &unknown;
            if (u->known && vals && vals->lds)
                u = &vals->lds[w];
            gcn_sb_puts(&sb, "gcnlint could not prove their LDS bytes private to each wave: ");
            if (u->known)
                gcn_sb_puts(&sb, "the two ranges are in terms it cannot compare");
            else
                gcn_ldsrange_why(cfg, o, u, &sb);
        }
        gcn_sb_printf(&sb, " (%u waves per work-group)", nwaves);
        if (proven[i] == 1)
            gcn_lds_launch_note(o, minw[i], &sb);
        gcn_finding f = {.check = proven[i] ? GCN_CHK_LDS_XWAVE : GCN_CHK_LDS_UNPROVEN,
                         .severity = proven[i] ? GCN_SEV_ERROR : GCN_SEV_WARNING,
                         .addr = cfg->insn[i].addr, .producer = (int64_t)cfg->insn[w].addr,
                         .wait = -1, .msg = strdup(sb.buf ? sb.buf : "")};
        if (o && o->explain)
            f.explain = xw_explain(cfg, vals, xc.paths, o, i, w, !rsib[i], rstart[i], rivs[i],
                                   nwaves);
        gcn_sb_free(&sb);
        gcn_findings_add(out, &f);
        added++;
    }
    xc_free(&xc);
    dr_free(&dr);
    free(hit); free(seen); free(stack); free(race); free(proven); free(minw);
    free(rstart); free(rivs); free(rsib);
    free(acc); free(mates); free(sib); free(R); free(iv); free(ivfrom);
    free(nub); free(ipd);
    return added;
#undef BIT
}

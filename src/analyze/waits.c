/*
 * waits.c -- the dataflow of pending memory operations over a kernel's CFG
 * and the findings it proves: a register read or overwritten while the load
 * that writes it may be pending, an SMEM result used under lgkmcnt(N>0),
 * LDS read after an LDS-DMA without the vmcnt it needs (and LDS-DMA over
 * LDS a DS access may not have finished with), and s_barrier with LDS
 * writes pending.  The state model is described in waits_int.h.
 *
 * The exploration visits (block, state) pairs breadth first, so the path
 * recorded for a state (its predecessor chain) is a shortest one; findings
 * are explained by replaying that path.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "waits_int.h"

#define MAX_NODES 400000u

/* AddressSanitizer: the states packed into one chunk are kept apart by
 * poisoned gaps, so reading past one still reports (sanitizer/asan_interface.h). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(WA_ASAN)
#define WA_ASAN 1
#endif
#ifdef WA_ASAN
#include <sanitizer/asan_interface.h>
#define WA_GAP 16u
#else
#define ASAN_POISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#define WA_GAP 0u
#endif

static const unsigned rank_max[2] = {GCN_VMCNT_MAX, GCN_LGKMCNT_MAX};

const char *gcn_ctr_name(unsigned q)
{
    return q == WQ_VM ? "vmcnt" : "lgkmcnt";
}

/* ---- working states ----------------------------------------------------- */

int gcn_wstate_init(wstate *s, unsigned cap)
{
    s->cap = cap;
    s->n[0] = s->n[1] = 0;
    s->lo[0] = s->lo[1] = 0;
    s->sig[0] = s->sig[1] = NULL;
    s->sigu[0] = s->sigu[1] = 0;
    s->asig = NULL;
    s->seq[0] = s->seq[1] = NULL;
    s->ix = NULL;
    s->lazy = false;
    s->pf.n = 0;
    s->q[0] = malloc(sizeof(qent) * cap);
    s->q[1] = malloc(sizeof(qent) * cap);
    return s->q[0] && s->q[1] ? 0 : -1;
}

void gcn_wstate_free(wstate *s)
{
    free(s->q[0]);
    free(s->q[1]);
    free(s->sig[0]);
    free(s->sig[1]);
    free(s->seq[0]);
    free(s->seq[1]);
    s->q[0] = s->q[1] = NULL;
    s->sig[0] = s->sig[1] = NULL;
    s->seq[0] = s->seq[1] = NULL;
}

void gcn_wstate_load(wstate *s, const lstate *l)
{
    s->lazy = false;
    s->n[0] = l->n[0];
    s->n[1] = l->n[1];
    s->lo[0] = s->lo[1] = 0;
    memcpy(s->q[0], l->e, sizeof(qent) * l->n[0]);
    memcpy(s->q[1], l->e + l->n[0], sizeof(qent) * l->n[1]);
    s->pf.n = l->nf;
    memcpy(s->pf.f, lstate_facts(l), sizeof(gcn_pfact) * l->nf);
    if (s->sig[0])
        for (unsigned q = 0; q < 2; q++) {
            uint64_t u = 0;
            for (unsigned k = 0; k < s->n[q]; k++)
                u |= s->sig[q][k] = s->asig[s->q[q][k].idx];
            s->sigu[q] = u;
        }
}

/* Keep per-entry register signatures in s (see wstate.sig). */
static int wstate_track_sig(wstate *s, const uint64_t *asig)
{
    s->asig = asig;
    s->sig[0] = malloc(sizeof(uint64_t) * s->cap);
    s->sig[1] = malloc(sizeof(uint64_t) * s->cap);
    return s->sig[0] && s->sig[1] ? 0 : -1;
}

static uint32_t state_hash(const wstate *s)
{
    uint32_t h = 2166136261u;
    for (unsigned q = 0; q < 2; q++) {
        h = (h ^ (0x100u + s->n[q])) * 16777619u;
        for (unsigned k = 0; k < s->n[q]; k++) {
            const qent *e = &s->q[q][k];
            h = (h ^ e->idx) * 16777619u;
            h = (h ^ ((uint32_t)e->rank << 8 | e->fl)) * 16777619u;
        }
    }
    for (unsigned k = 0; k < s->pf.n; k++) {
        const gcn_pfact *f = &s->pf.f[k];
        h = (h ^ (0x200u + f->reg + ((uint32_t)f->cm << 8) + ((uint32_t)f->cr << 16))) * 16777619u;
        h = (h ^ f->m) * 16777619u;
        h = (h ^ f->v) * 16777619u;
        h = (h ^ (uint32_t)f->lo) * 16777619u;
        h = (h ^ (uint32_t)f->hi) * 16777619u;
    }
    return h;
}

static bool state_eq(const lstate *l, const wstate *s)
{
    if (l->n[0] != s->n[0] || l->n[1] != s->n[1] || l->nf != s->pf.n)
        return false;
    if (l->nf && memcmp(lstate_facts(l), s->pf.f, sizeof(gcn_pfact) * l->nf))
        return false;
    for (unsigned q = 0, off = 0; q < 2; off += l->n[q], q++)
        for (unsigned k = 0; k < s->n[q]; k++) {
            const qent *a = &l->e[off + k], *b = &s->q[q][k];
            if (a->idx != b->idx || a->rank != b->rank || a->fl != b->fl)
                return false;
        }
    return true;
}

/* The nodes' states live until the run is freed: they are cut from chunks
 * (4 KiB, doubling to 64 KiB) instead of one malloc each -- the exploration
 * of a branchy kernel makes tens of thousands of them, and an allocation per
 * state was most of its allocations (and a third of its time under
 * AddressSanitizer, which records a stack per allocation). */
typedef struct wchunk {
    struct wchunk *next;
    size_t size;
    uint64_t data[];
} wchunk;

static void *warena_alloc(wrun *r, size_t n)
{
    size_t need = (n + 7 + WA_GAP) & ~(size_t)7;
    if (need > r->aleft) {
        size_t sz = r->chunks ? 2 * r->chunks->size : 4096;
        if (sz > 65536)
            sz = 65536;
        if (sz < need)
            sz = need;
        wchunk *c = malloc(sizeof *c + sz);
        if (!c)
            return NULL;
        c->next = r->chunks;
        c->size = sz;
        r->chunks = c;
        r->acur = (char *)c->data;
        r->aleft = sz;
        ASAN_POISON_MEMORY_REGION(r->acur, sz);
    }
    void *p = r->acur;
    ASAN_UNPOISON_MEMORY_REGION(p, n);
    r->acur += need;
    r->aleft -= need;
    return p;
}

static void warena_free(wrun *r)
{
    for (wchunk *c = r->chunks, *nx; c; c = nx) {
        nx = c->next;
        ASAN_UNPOISON_MEMORY_REGION(c->data, c->size);
        free(c);
    }
    r->chunks = NULL;
    r->acur = NULL;
    r->aleft = 0;
}

static lstate *state_freeze(wrun *r, const wstate *s, uint32_t h)
{
    lstate *l = warena_alloc(r, sizeof *l + sizeof(qent) * (s->n[0] + s->n[1]) +
                                sizeof(gcn_pfact) * s->pf.n);
    if (!l)
        return NULL;
    l->hash = h;
    l->n[0] = (uint16_t)s->n[0];
    l->n[1] = (uint16_t)s->n[1];
    l->nf = s->pf.n;
    memcpy(l->e, s->q[0], sizeof(qent) * s->n[0]);
    memcpy(l->e + s->n[0], s->q[1], sizeof(qent) * s->n[1]);
    memcpy(lstate_facts(l), s->pf.f, sizeof(gcn_pfact) * s->pf.n);
    return l;
}

/* ---- the register index of the exploration's working state ------------------
 * check_insn needs, at each instruction, the pending entries whose
 * registers it reads or writes, in queue order.  Every entry of the working
 * state gets a number (seq) when it enters the state (loaded or pushed);
 * numbers grow with queue position, so the entries of one queue in seq order
 * are in queue order.  Per register a list of the numbers of the entries
 * whose async defs hold it; removed entries stay in the lists, marked dead.
 * The index is rebuilt at every node (block, state) of the exploration. */
typedef struct wix {
    uint32_t *sidx;      /* per seq: the producing instruction */
    uint8_t *sq, *sfl, *alive, *sctr;   /* sctr: the producer's counters (gcn_lfacts.ctr) */
    uint8_t *rw;         /* per seq: 1 it holds a register instruction i reads, 2 one i writes */
    uint32_t *mark;      /* per seq: the instruction stamp that collected it */
    uint32_t next, capseq, stamp;
    uint32_t head[640], hgen[640], gen;
    uint32_t *lseq, *lnext;     /* the lists' links; head/lnext ~0u ends a list */
    uint32_t nl, capl;
    uint32_t *cand;      /* candidates of one instruction */
    uint32_t *lds[2];    /* per queue the seqs of entries whose producer accesses LDS */
    uint32_t nlds[2];
    const uint32_t *aoff;
    const uint16_t *areg;
    const gcn_lfacts *facts;
} wix;

static void ix_free(wix *x)
{
    if (!x)
        return;
    free(x->sidx);
    free(x->sq);
    free(x->sfl);
    free(x->alive);
    free(x->sctr);
    free(x->rw);
    free(x->mark);
    free(x->lseq);
    free(x->lnext);
    free(x->cand);
    free(x->lds[0]);
    free(x->lds[1]);
    free(x);
}

static wix *ix_new(const wrun *r, unsigned capseq)
{
    wix *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->capseq = capseq;
    x->sidx = malloc(sizeof *x->sidx * capseq);
    x->sq = malloc(capseq);
    x->sfl = malloc(capseq);
    x->alive = malloc(capseq);
    x->sctr = malloc(capseq);
    x->rw = malloc(capseq);
    x->facts = r->cfg->facts;
    x->mark = calloc(capseq, sizeof *x->mark);
    x->cand = malloc(sizeof *x->cand * capseq);
    x->lds[0] = malloc(sizeof *x->lds[0] * capseq);
    x->lds[1] = malloc(sizeof *x->lds[1] * capseq);
    x->aoff = r->aoff;
    x->areg = r->areg;
    if (!x->sidx || !x->sq || !x->sfl || !x->alive || !x->sctr || !x->rw || !x->mark || !x->cand ||
        !x->lds[0] || !x->lds[1]) {
        ix_free(x);
        return NULL;
    }
    return x;
}

/* A new entry (q, idx, fl) of the state: its number, linked under its registers. */
static uint32_t ix_add(wix *x, unsigned q, unsigned idx, unsigned fl)
{
    uint32_t sq = x->next++;
    assert(sq < x->capseq);
    x->sidx[sq] = idx;
    x->sq[sq] = (uint8_t)q;
    x->sfl[sq] = (uint8_t)fl;
    x->alive[sq] = 1;
    x->sctr[sq] = x->facts[idx].ctr;
    if (x->facts[idx].lds & (GCN_LL_READ | GCN_LL_WRITE | GCN_LL_DMA))
        x->lds[q][x->nlds[q]++] = sq;
    for (uint32_t a = x->aoff[idx]; a < x->aoff[idx + 1]; a++) {
        unsigned g = x->areg[a];
        assert(x->nl < x->capl);
        x->lseq[x->nl] = sq;
        x->lnext[x->nl] = x->hgen[g] == x->gen ? x->head[g] : ~0u;
        x->hgen[g] = x->gen;
        x->head[g] = x->nl++;
    }
    return sq;
}

/* The rank of entry e of queue q.  In a lazy state an in-order entry's rank
 * is not stored: every push to its queue raises it by one (q_push removes
 * it when it reaches the counter's maximum), so it is the number of pushes
 * since it was issued (P - pad).
 * The exploration's working state is lazy between the load of a node and
 * the end of its block, so a push costs no pass over the queue. */
static inline unsigned qrk(const wstate *s, unsigned q, const qent *e)
{
    if (!s->lazy || (e->fl & QF_OOO))
        return e->rank;
    unsigned a = s->P[q] - e->pad;
    return a < rank_max[q] ? a : rank_max[q];
}

/* Make s lazy (its ranks as pushes since issue; see qrk). */
static void wstate_lazy(wstate *s)
{
    for (unsigned q = 0; q < 2; q++) {
        s->P[q] = 64;
        for (unsigned k = 0; k < s->n[q]; k++)
            if (!(s->q[q][k].fl & QF_OOO))
                s->q[q][k].pad = (uint16_t)(64 - s->q[q][k].rank);
    }
    s->lazy = true;
}

/* Store the ranks of a lazy s again. */
static void wstate_eager(wstate *s)
{
    if (!s->lazy)
        return;
    for (unsigned q = 0; q < 2; q++)
        for (unsigned k = 0; k < s->n[q]; k++) {
            qent *e = &s->q[q][k];
            e->rank = (uint8_t)qrk(s, q, e);
            e->pad = 0;
        }
    s->lazy = false;
}

static void q_remove(wstate *s, unsigned q, unsigned k)
{
    memmove(&s->q[q][k], &s->q[q][k + 1], sizeof(qent) * (s->n[q] - k - 1));
    if (s->sig[q])
        memmove(&s->sig[q][k], &s->sig[q][k + 1], sizeof(uint64_t) * (s->n[q] - k - 1));
    if (s->seq[q]) {
        s->ix->alive[s->seq[q][k]] = 0;
        memmove(&s->seq[q][k], &s->seq[q][k + 1], sizeof(uint32_t) * (s->n[q] - k - 1));
    }
    s->n[q]--;
    if (k < s->lo[q])
        s->lo[q]--;
}

static void q_push(wstate *s, unsigned q, unsigned idx, bool ooo)
{
    qent *Q = s->q[q];
    unsigned n = s->n[q];
    const unsigned max = rank_max[q];
    if (ooo) {
        /* an older out-of-order copy of the same producer is indistinguishable
         * from the new one: at most one per producer is kept */
        for (unsigned k = 0; k < n; k++)
            if (Q[k].idx == idx && (Q[k].fl & QF_OOO)) {
                q_remove(s, q, k);
                break;
            }
    } else {
        /* Every pending in-order entry gets one more younger in-order
         * operation.  One that reaches `max` of them has retired: the counter
         * holds at most max outstanding operations (6 bits of vmcnt, 4 of
         * lgkmcnt on gfx9), so issuing the (max+1)-th stalls until one
         * retires, and in-order operations retire oldest first: had the
         * entry still been pending, max younger in-order ones would be too,
         * max + 1 in all.  In-order ranks do not increase along the queue,
         * so the entries retiring now are the first in-order ones from lo
         * (before lo there are only out-of-order entries); in a lazy state
         * the first one that stays ends the pass. */
        if (s->lazy)
            s->P[q]++;
        unsigned k = s->lo[q], w = k;
        bool stayed = false;
        for (; k < n; k++) {
            qent *e = &Q[k];
            if (!(e->fl & QF_OOO)) {
                if (!stayed) {
                    unsigned a = s->lazy ? s->P[q] - e->pad : ++e->rank;
                    if (a >= max) {
                        if (s->seq[q])
                            s->ix->alive[s->seq[q][k]] = 0;
                        continue;
                    }
                    stayed = true;
                    if (s->lazy && w == k) {
                        w = k = n;      /* nothing removed: the rest stays as it is */
                        break;
                    }
                } else if (!s->lazy) {
                    e->rank++;          /* below the first one that stayed */
                }
            }
            if (w != k) {
                Q[w] = Q[k];
                if (s->sig[q])
                    s->sig[q][w] = s->sig[q][k];
                if (s->seq[q])
                    s->seq[q][w] = s->seq[q][k];
            }
            w++;
        }
        s->n[q] = w;
    }
    if (s->n[q] >= s->cap)          /* cannot happen: entries are distinct (idx, rank) */
        q_remove(s, q, 0);
    if (s->sig[q])
        s->sigu[q] |= s->sig[q][s->n[q]] = s->asig[idx];
    if (s->seq[q])
        s->seq[q][s->n[q]] = ix_add(s->ix, q, idx, ooo ? QF_OOO : 0);
    s->q[q][s->n[q]++] = (qent){(uint32_t)idx, 0, (uint8_t)(ooo ? QF_OOO : 0),
                                (uint16_t)(s->lazy && !ooo ? s->P[q] : 0)};
    unsigned lo = s->lo[q];
    while (lo < s->n[q] && (Q[lo].fl & QF_OOO))
        lo++;
    s->lo[q] = lo;
}

static void q_wait(wstate *s, unsigned q, unsigned N)
{
    if (N == GCN_WAIT_NONE)
        return;
    if (N == 0) {
        if (s->seq[q])
            for (unsigned k = 0; k < s->n[q]; k++)
                s->ix->alive[s->seq[q][k]] = 0;
        s->n[q] = 0;
        s->lo[q] = 0;
        return;
    }
    /* one pass: the in-order entries of rank >= N go (the rest keep their
     * order), an out-of-order one with N or more entries after it is marked */
    /* In-order ranks do not increase along the queue, so past the marking
     * region (the first n - N positions) the first in-order entry that stays
     * ends the pass: the rest stays as it is. */
    unsigned n = s->n[q], w = 0, lo = s->lo[q], k = 0;
    const unsigned lim = n > N ? n - N : 0;
    qent *Q = s->q[q];
    for (; k < n; k++) {
        qent *e = &Q[k];
        if (!(e->fl & QF_OOO)) {
            if (qrk(s, q, e) >= N) {
                if (s->seq[q])
                    s->ix->alive[s->seq[q][k]] = 0;
                if (k < s->lo[q])
                    lo--;
                continue;
            }
            if (k >= lim)
                break;
        } else if (k < lim) {
            e->fl |= QF_ASSUMED;
            if (s->seq[q])
                s->ix->sfl[s->seq[q][k]] |= QF_ASSUMED;
        }
        if (w != k) {
            Q[w] = Q[k];
            if (s->sig[q])
                s->sig[q][w] = s->sig[q][k];
            if (s->seq[q])
                s->seq[q][w] = s->seq[q][k];
        }
        w++;
    }
    if (w != k && k < n) {
        memmove(&Q[w], &Q[k], sizeof *Q * (n - k));
        if (s->sig[q])
            memmove(&s->sig[q][w], &s->sig[q][k], sizeof(uint64_t) * (n - k));
        if (s->seq[q])
            memmove(&s->seq[q][w], &s->seq[q][k], sizeof(uint32_t) * (n - k));
    }
    s->n[q] = w + (n - k);
    s->lo[q] = lo;
}

static void wait_values(const wrun *r, unsigned i, unsigned *vm, unsigned *lg)
{
    const gcn_lfacts *f = &r->cfg->facts[i];
    *vm = f->wait_vm;
    *lg = f->wait_lgkm;
    if (r->o && r->o->novr) {          /* overrides are sorted by instruction */
        unsigned lo = 0, hi = r->o->novr;
        while (lo < hi) {
            unsigned mid = (lo + hi) / 2;
            if (r->o->ovr[mid].insn < i)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < r->o->novr && r->o->ovr[lo].insn == i) {
            *vm = r->o->ovr[lo].vm;
            *lg = r->o->ovr[lo].lgkm;
        }
    }
}

void gcn_waits_step(const wrun *r, wstate *s, unsigned i)
{
    const gcn_lfacts *f = &r->cfg->facts[i];
    if (f->kind == GCN_LK_WAITCNT) {
        unsigned vm, lg;
        wait_values(r, i, &vm, &lg);
        q_wait(s, WQ_VM, vm);
        q_wait(s, WQ_LGKM, lg);
    }
    if (f->ctr & GCN_LC_VM)
        q_push(s, WQ_VM, i, f->vm_ooo);
    if (f->ctr & GCN_LC_LGKM)
        q_push(s, WQ_LGKM, i, f->lgkm_ooo);
}

/* ---- findings during exploration ----------------------------------------- */

#define RMEMO 8
static int rec_add(wrun *r, int check, unsigned q, unsigned i, unsigned p, unsigned node)
{
    uint64_t key = (uint64_t)check << 56 | (uint64_t)(i & 0xFFFFFFF) << 28 | (p & 0xFFFFFFF);
    key += 1;   /* 0 marks an empty slot */
    /* nearly every call repeats a recorded key (the same consumer and
     * producer in another state of the block): the last RMEMO keys of each
     * consumer that are in the table are kept in a line of their own, read
     * in instruction order, before the table is probed */
    uint64_t *memo = &r->rmemo[RMEMO * (size_t)i];
    for (unsigned k = 0; k < RMEMO; k++)
        if (memo[k] == key)
            return 0;
    memmove(memo + 1, memo, (RMEMO - 1) * sizeof *memo);
    memo[0] = key;
    if (2 * (r->rn + 1) > r->rcap) {
        unsigned nc = r->rcap ? 2 * r->rcap : 64;
        uint64_t *nk = calloc(nc, sizeof *nk);
        if (!nk)
            return -1;
        for (unsigned k = 0; k < r->rcap; k++)
            if (r->rkeys[k]) {
                unsigned s = (unsigned)(r->rkeys[k] * 0x9E3779B97F4A7C15ull >> 40) & (nc - 1);
                while (nk[s])
                    s = (s + 1) & (nc - 1);
                nk[s] = r->rkeys[k];
            }
        free(r->rkeys);
        r->rkeys = nk;
        r->rcap = nc;
    }
    unsigned s = (unsigned)(key * 0x9E3779B97F4A7C15ull >> 40) & (r->rcap - 1);
    while (r->rkeys[s]) {
        if (r->rkeys[s] == key)
            return 0;
        s = (s + 1) & (r->rcap - 1);
    }
    r->rkeys[s] = key;
    r->rn++;
    if (r->nrecs == r->caprecs) {
        unsigned nc = r->caprecs ? 2 * r->caprecs : 16;
        wrec *p2 = realloc(r->recs, sizeof *p2 * nc);
        if (!p2)
            return -1;
        r->recs = p2;
        r->caprecs = nc;
    }
    r->recs[r->nrecs++] = (wrec){(uint8_t)check, (uint8_t)q, i, p, node};
    return 0;
}

static unsigned waves_of(const wrun *r)
{
    if (r->o && r->o->nwaves)
        return r->o->nwaves;
    return r->vals && r->vals->nwaves ? r->vals->nwaves : 16;
}

/* May the LDS bytes of instructions a and b meet (the same wave)?  0 no
 * (proven), 1 yes (known ranges), 2 not proven (gcn_lds_overlap3). */
static int lds_overlap(const wrun *r, unsigned a, unsigned b, unsigned *minw)
{
    *minw = 0;
    if (!r->vals || !r->vals->lds || (r->o && r->o->no_lds_alias))
        return 1;
    return gcn_lds_overlap3w(&r->vals->lds[a], &r->vals->lds[b], waves_of(r), minw);
}

/* Barrier phases: an LDS write of this wave still pending at s_barrier b
 * (instruction p) matters only if another wave may touch its bytes in the
 * interval after b, before the next barrier (a write it has retired by that
 * barrier is ordered by it).  0: no access of the interval may meet them
 * (a prefetch into the other buffer), 1: one does (known ranges), 2: not
 * proven.  *who: the first access that does, or ~0u. */
static int barrier_exposed(wrun *r, unsigned b, unsigned p, unsigned *who, unsigned *minw)
{
    *who = ~0u;
    *minw = 0;
    unsigned nw = waves_of(r);
    if (nw <= 1)
        return 0;
    if (!r->bafter) {
        r->bafter = calloc(r->cfg->ninsn ? r->cfg->ninsn : 1, sizeof *r->bafter);
        r->nbafter = calloc(r->cfg->ninsn ? r->cfg->ninsn : 1, sizeof *r->nbafter);
        if (!r->bafter || !r->nbafter)
            return 1;
    }
    if (!r->bafter[b] &&
        gcn_lint_barrier_after(r->cfg, r->paths, b, &r->bafter[b], &r->nbafter[b]) < 0)
        return 1;
    int res = 0;
    unsigned lwho = ~0u, lmin = 0;  /* the first meet that needs the waves beyond the bound's half */
    for (unsigned k = 0; k < r->nbafter[b]; k++) {
        unsigned x = r->bafter[b][k], mw = 0;
        int ov = 1;
        if (r->vals && r->vals->lds && !(r->o && r->o->no_lds_alias))
            ov = gcn_lds_cross_overlap3w(&r->vals->lds[p], &r->vals->lds[x], nw, &mw);
        if (ov == 1 && !gcn_lds_launch_only(r->o, mw, false)) {
            *who = x;
            *minw = mw;
            return 1;
        }
        if (ov == 1 && lwho == ~0u) {
            lwho = x;
            lmin = mw;
        }
        if (ov == 2 && !res) {
            res = 2;
            *who = x;
        }
    }
    if (lwho != ~0u) {              /* a meet, but only in a launch larger than half the bound */
        *who = lwho;
        *minw = lmin;
        return 1;
    }
    return res;
}

/* A 64-bit summary of a register set: bit (s >> 3) for scalar index s
 * (0..127), bit 16 + v / 11 for vector index v (0..511).  Disjoint summaries
 * prove disjoint sets, so most producer/consumer pairs are ruled out without
 * touching their register sets. */
static uint64_t rs_sig(const gcn_regset *rs)
{
    uint64_t g = 0;
    for (unsigned w = 0; w < 2; w++)
        for (uint64_t x = rs->s[w]; x; x &= x - 1)
            g |= 1ull << ((w * 64 + (unsigned)__builtin_ctzll(x)) >> 3);
    for (unsigned w = 0; w < 8; w++)
        for (uint64_t x = rs->v[w]; x; x &= x - 1)
            g |= 1ull << (16 + (w * 64 + (unsigned)__builtin_ctzll(x)) / 11);
    return g;
}

static inline bool rs_meet(const gcn_regset *a, const gcn_regset *b)
{
    uint64_t x = (a->s[0] & b->s[0]) | (a->s[1] & b->s[1]);
    for (unsigned k = 0; k < 8; k++)
        x |= a->v[k] & b->v[k];
    return x != 0;
}

/* The records of entry e (queue q) at instruction i, in the order of the checks. */
static inline int check_entry(wrun *r, const gcn_lfacts *F, const gcn_regset *wr, bool regs,
                              unsigned q, unsigned idx, unsigned fl, unsigned i, unsigned node)
{
    const gcn_lfacts *P = &r->cfg->facts[idx];
    int rc = 0;
    if (regs && rs_meet(&P->adefs, &F->uses)) {
        int chk = (fl & QF_OOO) && (fl & QF_ASSUMED) && P->mem == GCN_LM_SMEM
                ? GCN_CHK_SMEM_ORDER : GCN_CHK_PENDING_READ;
        rc |= rec_add(r, chk, q, i, idx, node);
    }
    if (regs && rs_meet(&P->adefs, wr)) {
        /* two in-order results of one counter land in issue order */
        bool f_in_q = (F->ctr & (q == WQ_VM ? GCN_LC_VM : GCN_LC_LGKM)) != 0;
        bool f_ooo = q == WQ_VM ? F->vm_ooo : F->lgkm_ooo;
        bool ordered = f_in_q && !f_ooo && !(fl & QF_OOO) && !(P->ctr & ~F->ctr) &&
                       P->ctr == F->ctr;
        if (!ordered)
            rc |= rec_add(r, GCN_CHK_PENDING_WRITE, q, i, idx, node);
    }
    int ov;
    unsigned mw;
    const bool unp = r->o && r->o->lds_unproven;     /* keep what is not proven either way */
    if (q == WQ_VM && (F->lds & (GCN_LL_READ | GCN_LL_WRITE)) && (P->lds & GCN_LL_DMA) &&
        ((ov = lds_overlap(r, idx, i, &mw)) == 1 || (ov == 2 && unp)))
        rc |= rec_add(r, GCN_CHK_LDS_DMA_PENDING | (ov == 2 ? WREC_UNPROVEN : 0), q, i, idx, node);
    if (q == WQ_LGKM && (F->lds & GCN_LL_DMA) && (P->lds & (GCN_LL_READ | GCN_LL_WRITE)) &&
        ((ov = lds_overlap(r, idx, i, &mw)) == 1 || (ov == 2 && unp)))
        rc |= rec_add(r, GCN_CHK_LDS_DMA_RACE | (ov == 2 ? WREC_UNPROVEN : 0), q, i, idx, node);
    unsigned who;
    if (F->kind == GCN_LK_BARRIER && (P->lds & (GCN_LL_WRITE | GCN_LL_DMA)) &&
        ((ov = barrier_exposed(r, i, idx, &who, &mw)) == 1 || (ov == 2 && unp)))
        rc |= rec_add(r, GCN_CHK_BARRIER_LDS | (ov == 2 ? WREC_UNPROVEN : 0), q, i, idx, node);
    return rc ? -1 : 0;
}

/* The checks of instruction i against the pending entries of s.  A queue
 * whose entries matter only through shared registers (no LDS access, DMA or
 * barrier at i) is searched through the register index (s->ix) when s has
 * one: an entry sharing no register with i gives no record, and the ones
 * that do are taken in queue order, as the plain scan meets them. */
static int check_insn(wrun *r, const wstate *s, unsigned i, unsigned node)
{
    const gcn_lfacts *F = &r->cfg->facts[i];
    const uint64_t fs = r->fsig[i];
    /* per queue: may a pending entry matter without sharing registers? */
    const bool other[2] = {
        F->kind == GCN_LK_BARRIER || (F->lds & (GCN_LL_READ | GCN_LL_WRITE)),
        F->kind == GCN_LK_BARRIER || (F->lds & GCN_LL_DMA)};
    if (!fs && !other[0] && !other[1])
        return 0;
    gcn_regset wr = F->defs;
    gcn_rs_or(&wr, &F->adefs);
    unsigned nc[2] = {0, 0};
    uint32_t *cand = NULL;
    /* the index serves every queue but at a barrier */
    const bool use_ix = s->ix && F->kind != GCN_LK_BARRIER;
    if (use_ix && fs) {
        /* the live entries holding a register of i, per queue, in seq order */
        wix *x = s->ix;
        if (++x->stamp == 0) {          /* wrapped: no entry is marked */
            memset(x->mark, 0, sizeof *x->mark * x->capseq);
            x->stamp = 1;
        }
        uint32_t stamp = x->stamp;
        cand = x->cand;
        unsigned n = 0;
        for (uint32_t t = r->toff[i]; t < r->toff[i + 1]; t++) {
            unsigned g = r->treg[t];
            if (x->hgen[g] != x->gen)
                continue;
            uint8_t bit = t < r->tmid[i] ? 1 : 2;
            for (uint32_t l = x->head[g]; l != ~0u; l = x->lnext[l]) {
                uint32_t sq = x->lseq[l];
                if (!x->alive[sq])
                    continue;
                if (x->mark[sq] != stamp) {
                    x->mark[sq] = stamp;
                    x->rw[sq] = bit;
                    cand[n++] = sq;
                } else {
                    x->rw[sq] |= bit;
                }
            }
        }
        /* insertion sort by (queue, seq): a handful of entries */
        for (unsigned a = 1; a < n; a++) {
            uint32_t v = cand[a];
            uint64_t kv = (uint64_t)x->sq[v] << 32 | v;
            unsigned b = a;
            while (b > 0 && ((uint64_t)x->sq[cand[b - 1]] << 32 | cand[b - 1]) > kv) {
                cand[b] = cand[b - 1];
                b--;
            }
            cand[b] = v;
        }
        for (unsigned a = 0; a < n; a++)
            nc[x->sq[cand[a]]]++;
    }
    for (unsigned q = 0; q < 2; q++) {
        if (use_ix && other[q]) {
            /* LDS access or DMA: the entries sharing registers and the
             * entries of LDS producers, merged in seq (queue) order; an
             * entry of neither kind gives no record here */
            const wix *x = s->ix;
            const uint32_t *c = cand ? cand + (q ? nc[0] : 0) : NULL;
            const uint32_t *L = x->lds[q];
            unsigned a = 0, b = 0;
            while (a < nc[q] || b < x->nlds[q]) {
                uint32_t sa = a < nc[q] ? c[a] : ~0u, sb = b < x->nlds[q] ? L[b] : ~0u;
                uint32_t sq = sa < sb ? sa : sb;
                bool regs = sa <= sb;
                a += sa <= sb;
                b += sb <= sa;
                if (!x->alive[sq])
                    continue;
                if (check_entry(r, F, &wr, regs, q, x->sidx[sq], x->sfl[sq], i, node) < 0)
                    return -1;
            }
            continue;
        }
        if (cand && !other[q]) {
            const wix *x = s->ix;
            const uint32_t *c = cand + (q ? nc[0] : 0);
            const bool f_in_q = (F->ctr & (q == WQ_VM ? GCN_LC_VM : GCN_LC_LGKM)) != 0;
            const bool f_ooo = q == WQ_VM ? F->vm_ooo : F->lgkm_ooo;
            /* check_entry's register checks, with the register sets met
             * already known from the lists they were found through */
            for (unsigned a = 0; a < nc[q]; a++) {
                const uint32_t sq = c[a];
                const unsigned idx = x->sidx[sq], fl = x->sfl[sq], pctr = x->sctr[sq];
                int rc = 0;
                if (x->rw[sq] & 1) {
                    int chk = (fl & QF_OOO) && (fl & QF_ASSUMED) &&
                              r->cfg->facts[idx].mem == GCN_LM_SMEM
                            ? GCN_CHK_SMEM_ORDER : GCN_CHK_PENDING_READ;
                    rc |= rec_add(r, chk, q, i, idx, node);
                }
                if (x->rw[sq] & 2) {
                    bool ordered = f_in_q && !f_ooo && !(fl & QF_OOO) && !(pctr & ~F->ctr) &&
                                   pctr == F->ctr;
                    if (!ordered)
                        rc |= rec_add(r, GCN_CHK_PENDING_WRITE, q, i, idx, node);
                }
                if (rc)
                    return -1;
            }
            continue;
        }
        if (!other[q] && !(s->sigu[q] & fs))
            continue;           /* no entry holds a register of i */
        for (unsigned k = 0; k < s->n[q]; k++) {
            const bool regs = (s->sig[q][k] & fs) != 0;
            if (!regs && !other[q])
                continue;
            const qent *e = &s->q[q][k];
            if (check_entry(r, F, &wr, regs, q, e->idx, e->fl, i, node) < 0)
                return -1;
        }
    }
    return 0;
}

/* Number the entries of the freshly loaded working state s of a node of
 * block b and rebuild the register index. */
static int ix_load(wrun *r, wstate *s, unsigned b)
{
    wix *x = s->ix;
    x->next = 0;
    x->nl = 0;
    x->nlds[0] = x->nlds[1] = 0;
    if (++x->gen == 0) {            /* wrapped: forget every list for good */
        memset(x->hgen, 0, sizeof x->hgen);
        x->gen = 1;
    }
    uint32_t need = r->bpush[b];
    for (unsigned q = 0; q < 2; q++)
        for (unsigned k = 0; k < s->n[q]; k++)
            need += r->aoff[s->q[q][k].idx + 1] - r->aoff[s->q[q][k].idx];
    if (need > x->capl) {
        uint32_t nc = need + need / 2 + 64;
        uint32_t *a = realloc(x->lseq, sizeof *a * nc);
        if (!a)
            return -1;
        x->lseq = a;
        a = realloc(x->lnext, sizeof *a * nc);
        if (!a)
            return -1;
        x->lnext = a;
        x->capl = nc;
    }
    for (unsigned q = 0; q < 2; q++)
        for (unsigned k = 0; k < s->n[q]; k++)
            s->seq[q][k] = ix_add(x, q, s->q[q][k].idx, s->q[q][k].fl);
    return 0;
}

/* The registers of a set as numbers (scalar 0..127, vector 128 + 0..511), appended to *v. */
static int regs_list(const gcn_regset *rs, uint16_t **v, uint32_t *n, uint32_t *cap)
{
    for (unsigned w = 0; w < 10; w++) {
        uint64_t bits = w < 2 ? rs->s[w] : rs->v[w - 2];
        for (; bits; bits &= bits - 1) {
            if (*n == *cap) {
                uint32_t nc = *cap ? 2 * *cap : 1024;
                uint16_t *p = realloc(*v, sizeof *p * nc);
                if (!p)
                    return -1;
                *v = p;
                *cap = nc;
            }
            (*v)[(*n)++] = (uint16_t)(w * 64 + (unsigned)__builtin_ctzll(bits));
        }
    }
    return 0;
}

/* Per instruction its register lists, per block the index links its pushes may add. */
static int ix_facts(wrun *r)
{
    const gcn_cfg *cfg = r->cfg;
    r->aoff = malloc(sizeof *r->aoff * (cfg->ninsn + 1));
    r->toff = malloc(sizeof *r->toff * (cfg->ninsn + 1));
    r->tmid = malloc(sizeof *r->tmid * (cfg->ninsn + 1));
    r->bpush = calloc(cfg->nblocks, sizeof *r->bpush);
    if (!r->aoff || !r->toff || !r->tmid || !r->bpush)
        return -1;
    uint32_t na = 0, ca = 0, nt = 0, ct = 0;
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const gcn_lfacts *f = &cfg->facts[i];
        r->aoff[i] = na;
        r->toff[i] = nt;
        gcn_regset t = f->defs;
        gcn_rs_or(&t, &f->adefs);
        if (regs_list(&f->adefs, &r->areg, &na, &ca) < 0 ||
            regs_list(&f->uses, &r->treg, &nt, &ct) < 0)
            return -1;
        r->tmid[i] = nt;
        if (regs_list(&t, &r->treg, &nt, &ct) < 0)
            return -1;
    }
    r->aoff[cfg->ninsn] = na;
    r->toff[cfg->ninsn] = nt;
    for (unsigned b = 0; b < cfg->nblocks; b++)
        for (unsigned i = cfg->blocks[b].first; i <= cfg->blocks[b].last; i++) {
            unsigned pushes = ((cfg->facts[i].ctr & GCN_LC_VM) != 0) +
                              ((cfg->facts[i].ctr & GCN_LC_LGKM) != 0);
            r->bpush[b] += pushes * (r->aoff[i + 1] - r->aoff[i]);
        }
    return 0;
}

/* ---- exploration -------------------------------------------------------- */

static unsigned hslot(unsigned block, uint32_t h, unsigned cap)
{
    uint64_t x = ((uint64_t)block << 32 | h) * 0x9E3779B97F4A7C15ull;
    return (unsigned)(x >> 40) & (cap - 1);
}

static int htab_put(wrun *r, unsigned node)
{
    if (2 * (r->hn + 1) > r->hcap) {
        unsigned nc = r->hcap ? 2 * r->hcap : 1024;
        unsigned *nt = malloc(sizeof *nt * nc);
        if (!nt)
            return -1;
        memset(nt, 0xFF, sizeof *nt * nc);
        for (unsigned k = 0; k < r->hcap; k++)
            if (r->htab[k] != ~0u) {
                const wnode *n = &r->nodes[r->htab[k]];
                unsigned s = hslot(n->block, n->st->hash, nc);
                while (nt[s] != ~0u)
                    s = (s + 1) & (nc - 1);
                nt[s] = r->htab[k];
            }
        free(r->htab);
        r->htab = nt;
        r->hcap = nc;
    }
    const wnode *n = &r->nodes[node];
    unsigned s = hslot(n->block, n->st->hash, r->hcap);
    while (r->htab[s] != ~0u)
        s = (s + 1) & (r->hcap - 1);
    r->htab[s] = node;
    r->hn++;
    return 0;
}

static bool htab_has(const wrun *r, unsigned block, const wstate *st, uint32_t h)
{
    if (!r->hcap)
        return false;
    unsigned s = hslot(block, h, r->hcap);
    while (r->htab[s] != ~0u) {
        const wnode *n = &r->nodes[r->htab[s]];
        if (n->block == block && n->st->hash == h && state_eq(n->st, st))
            return true;
        s = (s + 1) & (r->hcap - 1);
    }
    return false;
}

static int new_node(wrun *r, unsigned block, const wstate *st, uint32_t h, int pred, bool joined)
{
    if (r->nnodes >= MAX_NODES) {
        r->truncated = true;
        return 0;
    }
    if (r->nnodes == r->capnodes) {
        unsigned nc = r->capnodes ? 2 * r->capnodes : 256;
        wnode *p = realloc(r->nodes, sizeof *p * nc);
        if (!p)
            return -1;
        r->nodes = p;
        r->capnodes = nc;
    }
    lstate *l = state_freeze(r, st, h);
    if (!l)
        return -1;
    r->nodes[r->nnodes] = (wnode){block, pred, joined, l};
    r->nnodes++;
    return htab_put(r, r->nnodes - 1);
}

/* The path facts of a join: those both states have. */
static void facts_meet(gcn_pstate *dst, const gcn_pstate *src)
{
    unsigned n = 0;
    for (unsigned k = 0; k < dst->n; k++)
        for (unsigned j = 0; j < src->n; j++)
            if (!memcmp(&dst->f[k], &src->f[j], sizeof(gcn_pfact))) {
                dst->f[n++] = dst->f[k];
                break;
            }
    dst->n = (uint8_t)n;
}

/* dst := join(dst, src): per producer the minimum rank.  With widen, a rank
 * that would decrease drops to 0 at once (an over-approximation: rank 0 is
 * retired by no wait but cnt(0)), so a widened state changes at most twice
 * per producer and the exploration converges quickly.  This is the plain
 * form (a scan of dst per src entry, then of dst per dst entry); state_join
 * below computes the same result in linear time and falls back to this one
 * only when the queue capacity could be reached. */
static void state_join_plain(wstate *dst, const wstate *src, bool widen)
{
    facts_meet(&dst->pf, &src->pf);
    for (unsigned q = 0; q < 2; q++) {
        for (unsigned k = 0; k < src->n[q]; k++) {
            const qent *e = &src->q[q][k];
            bool found = false;
            for (unsigned j = 0; j < dst->n[q]; j++) {
                qent *d = &dst->q[q][j];
                if (d->idx == e->idx && (d->fl & QF_OOO) == (e->fl & QF_OOO)) {
                    if (e->rank < d->rank)
                        d->rank = widen ? 0 : e->rank;
                    d->fl |= e->fl;
                    found = true;
                }
            }
            if (!found && dst->n[q] < dst->cap)
                dst->q[q][dst->n[q]++] = *e;
        }
        /* collapse duplicates of one producer to the minimum rank */
        for (unsigned a = 0; a < dst->n[q]; a++)
            for (unsigned b = a + 1; b < dst->n[q];) {
                qent *x = &dst->q[q][a], *y = &dst->q[q][b];
                if (x->idx == y->idx && (x->fl & QF_OOO) == (y->fl & QF_OOO)) {
                    if (y->rank < x->rank)
                        x->rank = y->rank;
                    x->fl |= y->fl;
                    q_remove(dst, q, b);
                } else {
                    b++;
                }
            }
        /* oldest (highest rank) first */
        for (unsigned a = 1; a < dst->n[q]; a++) {
            qent t = dst->q[q][a];
            unsigned b = a;
            while (b > 0 && dst->q[q][b - 1].rank < t.rank) {
                dst->q[q][b] = dst->q[q][b - 1];
                b--;
            }
            dst->q[q][b] = t;
        }
    }
}

/* Per producer key (idx, out-of-order) of a join: what dst and src hold. */
typedef struct jkey {
    uint32_t idx;
    uint8_t ooo, fl, hasd, hass;
    uint8_t mind, maxd;     /* dst entries: minimum and maximum rank */
    uint8_t mins, s0, sless;/* src: minimum rank, first rank, a later one below the first */
} jkey;

/* The same as state_join_plain, by keys: the plain form leaves, per key, one
 * entry at the first dst position of the key (or appended after dst, in the
 * order keys first appear in src) with the OR of the flags and the rank
 *   dst and src: min(dst, src), or with widen 0 if some src rank is below
 *                some dst rank, else the dst minimum;
 *   dst only:    the dst minimum;
 *   src only:    min over src, or with widen 0 if a later src entry is
 *                below the first, else the first;
 * then a stable sort by rank, highest first. */
static void state_join(wrun *r, wstate *dst, const wstate *src, bool widen)
{
    dst->lo[0] = dst->lo[1] = 0;
    if (dst->n[0] + src->n[0] > dst->cap || dst->n[1] + src->n[1] > dst->cap) {
        /* (state_join_plain meets the facts) */
        state_join_plain(dst, src, widen);
        return;
    }
    facts_meet(&dst->pf, &src->pf);
    for (unsigned q = 0; q < 2; q++) {
        unsigned nd = dst->n[q], ns = src->n[q], nk = 0;
        const qent *S = src->q[q];
        qent *D = dst->q[q];
        jkey *K = r->jkeys;
        for (unsigned pass = 0; pass < 2; pass++) {
            const qent *E = pass ? S : D;
            unsigned n = pass ? ns : nd;
            for (unsigned k = 0; k < n; k++) {
                unsigned key = E[k].idx * 2u + (E[k].fl & QF_OOO);
                unsigned slot = r->jslot[key];
                uint8_t rk = E[k].rank;
                if (slot == ~0u) {
                    slot = r->jslot[key] = nk++;
                    K[slot] = (jkey){E[k].idx, (uint8_t)(E[k].fl & QF_OOO), 0, 0, 0, 0, 0, 0, 0, 0};
                }
                jkey *J = &K[slot];
                J->fl |= E[k].fl;
                if (!pass) {
                    J->mind = J->hasd && J->mind < rk ? J->mind : rk;
                    J->maxd = J->hasd && J->maxd > rk ? J->maxd : rk;
                    J->hasd = 1;
                } else if (!J->hass) {
                    J->hass = 1;
                    J->mins = J->s0 = rk;
                } else {
                    if (rk < J->mins)
                        J->mins = rk;
                    if (rk < J->s0)
                        J->sless = 1;
                }
            }
        }
        /* keys in slot order are exactly the plain form's positions */
        unsigned cnt[64] = {0}, top = 0;
        for (unsigned k = 0; k < nk; k++) {
            jkey *J = &K[k];
            unsigned rk;
            if (J->hasd && J->hass)
                rk = widen ? (J->mins < J->maxd ? 0u : J->mind)
                           : (J->mins < J->mind ? J->mins : J->mind);
            else if (J->hasd)
                rk = J->mind;
            else
                rk = widen ? (J->sless ? 0u : J->s0) : J->mins;
            J->mind = (uint8_t)rk;
            cnt[rk & 63]++;
            if ((rk & 63) >= top)
                top = (rk & 63) + 1;
            r->jslot[J->idx * 2u + J->ooo] = ~0u;
        }
        /* stable counting sort, highest rank first */
        unsigned at = 0;
        for (unsigned rk = top; rk-- > 0;) {     /* ranks above top: none */
            unsigned c = cnt[rk];
            cnt[rk] = at;
            at += c;
        }
        for (unsigned k = 0; k < nk; k++) {
            const jkey *J = &K[k];
            D[cnt[J->mind & 63]++] = (qent){J->idx, J->mind, J->fl, 0};
        }
        dst->n[q] = nk;
    }
}

static int add_state(wrun *r, unsigned block, wstate *st, int pred, wstate *tmp)
{
    unsigned maxs = r->o && r->o->max_states ? r->o->max_states : 256;
    /* path facts split states; a block that already holds many keeps none
     * (its later states follow both edges of every branch, as without facts) */
    if (st->pf.n && r->bcount[block] >= maxs / 4)
        st->pf.n = 0;
    uint32_t h = state_hash(st);
    if (htab_has(r, block, st, h))
        return 0;
    if (r->bcount[block] < maxs) {
        r->bcount[block]++;
        return new_node(r, block, st, h, pred, false);
    }
    /* budget exhausted: merge into the block's widened state */
    r->widened = true;
    int w = r->bwiden[block];
    if (w >= 0) {
        /* the widened state is the accumulator: join the new state into it */
        gcn_wstate_load(tmp, r->nodes[w].st);
        state_join(r, tmp, st, true);
    } else {
        tmp->n[0] = st->n[0];
        tmp->n[1] = st->n[1];
        tmp->pf = st->pf;
        tmp->lo[0] = tmp->lo[1] = 0;
        memcpy(tmp->q[0], st->q[0], sizeof(qent) * st->n[0]);
        memcpy(tmp->q[1], st->q[1], sizeof(qent) * st->n[1]);
    }
    uint32_t h2 = state_hash(tmp);
    if (w >= 0 && h2 == r->nodes[w].st->hash && state_eq(r->nodes[w].st, tmp))
        return 0;
    if (htab_has(r, block, tmp, h2))
        return 0;
    unsigned id = r->nnodes;
    if (new_node(r, block, tmp, h2, pred, true) < 0)
        return -1;
    if (r->nnodes > id)
        r->bwiden[block] = (int)id;
    return 0;
}

static int explore(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                   const gcn_lint_opts *o, gcn_paths *paths, bool given);

int gcn_waits_explore(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                      const gcn_lint_opts *o)
{
    return explore(r, cfg, vals, o, NULL, false);
}

int gcn_waits_explore_paths(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                            const gcn_lint_opts *o, gcn_paths *paths)
{
    return explore(r, cfg, vals, o, paths, true);
}

static int explore(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                   const gcn_lint_opts *o, gcn_paths *paths, bool given)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->vals = vals;
    r->o = o;
    if (!cfg->nblocks)
        return 0;
    unsigned nmem = 0;
    for (unsigned i = 0; i < cfg->ninsn; i++)
        nmem += cfg->facts[i].ctr != 0;
    r->qcap = 2 * nmem + 80;
    r->bcount = calloc(cfg->nblocks, sizeof *r->bcount);
    r->bwiden = malloc(sizeof *r->bwiden * cfg->nblocks);
    r->asig = malloc(sizeof *r->asig * cfg->ninsn);
    r->jslot = malloc(sizeof *r->jslot * 2 * cfg->ninsn);
    r->rmemo = calloc(RMEMO * (size_t)cfg->ninsn, sizeof *r->rmemo);
    r->jkeys = malloc(sizeof *r->jkeys * (2 * r->qcap + 1));
    r->fsig = malloc(sizeof *r->fsig * cfg->ninsn);
    wstate st, tmp;
    if (!r->bcount || !r->bwiden || !r->asig || !r->jslot || !r->jkeys || !r->rmemo || !r->fsig || gcn_wstate_init(&st, r->qcap) < 0 || wstate_track_sig(&st, r->asig) < 0 ||
        gcn_wstate_init(&tmp, r->qcap) < 0)
        return -1;
    for (unsigned k = 0; k < cfg->nblocks; k++)
        r->bwiden[k] = -1;
    memset(r->jslot, 0xFF, sizeof *r->jslot * 2 * cfg->ninsn);
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const gcn_lfacts *f = &cfg->facts[i];
        r->asig[i] = rs_sig(&f->adefs);
        r->fsig[i] = rs_sig(&f->uses) | rs_sig(&f->defs) | r->asig[i];
    }
    /* The register index pays where queues are long; on small kernels (few
     * memory operations, so short queues) the scan is cheaper than building it. */
    if (nmem >= 128) {
        if (ix_facts(r) < 0)
            return -1;
        /* entries numbered at one node: the loaded ones and the block's pushes */
        unsigned maxblk = 0;
        for (unsigned b = 0; b < cfg->nblocks; b++)
            if (cfg->blocks[b].last + 1 - cfg->blocks[b].first > maxblk)
                maxblk = cfg->blocks[b].last + 1 - cfg->blocks[b].first;
        st.ix = ix_new(r, 2 * r->qcap + 2 * maxblk + 2);
        st.seq[0] = malloc(sizeof(uint32_t) * st.cap);
        st.seq[1] = malloc(sizeof(uint32_t) * st.cap);
        if (!st.ix || !st.seq[0] || !st.seq[1]) {
            ix_free(st.ix);
            gcn_wstate_free(&st);
            gcn_wstate_free(&tmp);
            return -1;
        }
    }
    st.n[0] = st.n[1] = 0;
    st.lo[0] = st.lo[1] = 0;
    st.pf.n = 0;
    if (o && o->all_paths)
        r->paths = NULL;                   /* follow every edge */
    else if (given)
        r->paths = paths;
    else if (o && o->paths)
        r->paths = o->paths;               /* the caller's, not freed here */
    else {
        r->paths = gcn_paths_build(cfg);   /* NULL: follow every edge */
        r->own_paths = true;
    }
    int rc = 0;
    r->bcount[0] = 1;
    if (new_node(r, 0, &st, state_hash(&st), -1, false) < 0)
        rc = -1;
    for (unsigned n = 0; rc == 0 && n < r->nnodes; n++) {
        unsigned b = r->nodes[n].block;
        gcn_wstate_load(&st, r->nodes[n].st);
        if (st.ix && ix_load(r, &st, b) < 0)
            rc = -1;
        const gcn_block *blk = &cfg->blocks[b];
        if (blk->last - blk->first < 60000)    /* P stays below 65536 */
            wstate_lazy(&st);
        int scc = -1;
        for (unsigned i = blk->first; i <= blk->last && rc == 0; i++) {
            if (check_insn(r, &st, i, n) < 0)
                rc = -1;
            gcn_waits_step(r, &st, i);
            if (st.pf.n && r->paths)
                gcn_paths_step(r->paths, &st.pf, i, &scc);
            else if (cfg->facts[i].flags & GCN_F_WR_SCC)
                scc = -1;
        }
        wstate_eager(&st);
        gcn_pstate after = st.pf;
        for (unsigned s = 0; s < blk->nsucc && rc == 0; s++) {
            if (r->paths && !gcn_paths_edge(r->paths, b, s, &after, scc, &st.pf)) {
                r->pruned++;
                continue;
            }
            if (add_state(r, blk->succ[s], &st, (int)n, &tmp) < 0)
                rc = -1;
        }
    }
    ix_free(st.ix);
    gcn_wstate_free(&st);
    gcn_wstate_free(&tmp);
    return rc;
}

void gcn_waits_free(wrun *r)
{
    warena_free(r);
    free(r->nodes);
    free(r->recs);
    free(r->rkeys);
    free(r->htab);
    free(r->bcount);
    free(r->bwiden);
    free(r->asig);
    free(r->fsig);
    free(r->jslot);
    free(r->jkeys);
    free(r->rmemo);
    free(r->aoff);
    free(r->toff);
    free(r->tmid);
    free(r->areg);
    free(r->treg);
    free(r->bpush);
    if (r->bafter)
        for (unsigned k = 0; k < r->cfg->ninsn; k++)
            free(r->bafter[k]);
    free(r->bafter);
    free(r->nbafter);
    if (r->own_paths)
        gcn_paths_free(r->paths);
    memset(r, 0, sizeof *r);
}

/* ---- paths and explanations --------------------------------------------- */

unsigned *gcn_waits_path(const wrun *r, unsigned node, unsigned *n)
{
    unsigned len = 0;
    for (int x = (int)node; x >= 0; x = r->nodes[x].pred)
        len++;
    unsigned *p = malloc(sizeof *p * (len ? len : 1));
    if (!p) {
        *n = 0;
        return NULL;
    }
    unsigned k = len;
    for (int x = (int)node; x >= 0; x = r->nodes[x].pred)
        p[--k] = (unsigned)x;
    *n = len;
    return p;
}

static const char *ordinal(unsigned k, char *buf, size_t len)
{
    static const char *const w[] = {"zeroth", "first", "second", "third", "fourth", "fifth"};
    if (k < 6)
        return w[k];
    snprintf(buf, len, "%uth", k);
    return buf;
}

void gcn_waits_path_phrase(const wrun *r, const unsigned *path, unsigned n, unsigned block,
                           gcn_strbuf *sb)
{
    const gcn_cfg *cfg = r->cfg;
    unsigned h = cfg->blocks[block].loop;
    if (h == GCN_NOBLOCK) {
        /* not in a loop: say how many times the path went around loops */
        unsigned iters = 0, lh = GCN_NOBLOCK;
        for (unsigned k = 0; k < n; k++) {
            unsigned b = r->nodes[path[k]].block;
            if (cfg->blocks[b].header) {
                lh = b;
                iters = 0;
                for (unsigned j = 0; j < n; j++)
                    iters += r->nodes[path[j]].block == b;
            }
        }
        if (lh == GCN_NOBLOCK) {
            if (n <= 1)
                return;            /* straight-line code: nothing to say */
            gcn_sb_puts(sb, "on the path through ");
            for (unsigned k = 0; k < n; k++) {
                if (n > 8 && k == 3) {
                    gcn_sb_puts(sb, " -> ...");
                    k = n - 4;
                    continue;
                }
                if (k)
                    gcn_sb_puts(sb, " -> ");
                gcn_lint_loc(r->o, cfg->insn[cfg->blocks[r->nodes[path[k]].block].first].addr, sb);
            }
        } else {
            gcn_sb_printf(sb, "on the path that leaves the loop at ");
            gcn_lint_loc(r->o, cfg->insn[cfg->blocks[lh].first].addr, sb);
            gcn_sb_printf(sb, " after %u iteration%s", iters, iters == 1 ? "" : "s");
        }
        return;
    }
    unsigned it = 0;
    for (unsigned k = 0; k < n; k++)
        it += r->nodes[path[k]].block == h;
    char buf[16];
    gcn_sb_printf(sb, "on the %s iteration of the loop at ", ordinal(it, buf, sizeof buf));
    gcn_lint_loc(r->o, cfg->insn[cfg->blocks[h].first].addr, sb);
    if (it >= 2)
        gcn_sb_puts(sb, " (steady state)");
}

/* What happened to the producer along the path: the waits it met. */
#define MAXW 8
typedef struct ptrace {
    bool issued;
    unsigned nw, total_w;
    struct { unsigned idx, N, rank; bool ooo; } w[MAXW];
    unsigned cons_rank;     /* rank at the consumer (newest instance) */
    bool cons_found;
    bool joined;            /* the path contains merged states */
    wstate at;              /* queues at the consumer */
    qent *wq;               /* the producer's queue just before the last wait */
    unsigned wqn;
} ptrace;

static void ptrace_free(ptrace *t)
{
    gcn_wstate_free(&t->at);
    free(t->wq);
    t->wq = NULL;
}

static bool newest_instance(const wstate *s, unsigned q, unsigned p, unsigned *rank, bool *ooo)
{
    bool found = false;
    for (unsigned k = 0; k < s->n[q]; k++)
        if (s->q[q][k].idx == p) {
            unsigned rk = qrk(s, q, &s->q[q][k]);
            if (!found || rk < *rank) {
                *rank = rk;
                *ooo = (s->q[q][k].fl & QF_OOO) != 0;
            }
            found = true;
        }
    return found;
}

/* an instance of the producer in trace_path */
typedef struct pinst {
    uint8_t rank, ooo;
} pinst;

/* One block of a finding's path replayed from the node's state loaded in s:
 * records in t each wait that finds the producer p's newest instance still
 * in queue q (reset where p is issued); returns 1 when it reaches the
 * consumer cons (only in the last block of the path, `last`). */
static int replay_block(const wrun *r, wstate *s, const gcn_block *blk, bool last, unsigned cons,
                        unsigned p, unsigned q, ptrace *t)
{
    if (blk->last - blk->first < 60000)    /* P stays below 65536 */
        wstate_lazy(s);
    for (unsigned i = blk->first; i <= blk->last; i++) {
        if (last && i == cons) {
            bool ooo = false;
            t->cons_found = newest_instance(s, q, p, &t->cons_rank, &ooo);
            wstate_eager(s);
            return 1;
        }
        const gcn_lfacts *f = &r->cfg->facts[i];
        if (f->kind == GCN_LK_WAITCNT && t->issued) {
            unsigned vm, lg;
            wait_values(r, i, &vm, &lg);
            unsigned N = q == WQ_VM ? vm : lg;
            unsigned rank = 0;
            bool ooo = false;
            if (N != GCN_WAIT_NONE && newest_instance(s, q, p, &rank, &ooo)) {
                unsigned slot = t->nw < MAXW ? t->nw++ : MAXW - 1;
                t->w[slot].idx = i;
                t->w[slot].N = N;
                t->w[slot].rank = rank;
                t->w[slot].ooo = ooo;
                t->total_w++;
                t->wqn = s->n[q];
                memcpy(t->wq, s->q[q], sizeof *t->wq * s->n[q]);
                if (s->lazy)
                    for (unsigned j = 0; j < s->n[q]; j++) {
                        t->wq[j].rank = (uint8_t)qrk(s, q, &s->q[q][j]);
                        t->wq[j].pad = 0;
                    }
            }
        }
        if (i == p) {
            t->issued = true;
            t->nw = 0;
            t->total_w = 0;
            t->wqn = 0;
        }
        gcn_waits_step(r, s, i);
    }
    return 0;
}

/* Set up a finding's trace t: its buffers, whether the path passes a join,
 * and in *k0 the node the replay starts at.  Everything recorded is reset
 * where the producer is issued, and each node's queues are its stored state:
 * the replay can start at the last node of the path that issues the
 * producer (before the consumer).  0, or -1 when out of memory. */
static int trace_start(const wrun *r, const unsigned *path, unsigned n, unsigned cons,
                       unsigned p, ptrace *t, unsigned *k0)
{
    memset(t, 0, sizeof *t);
    t->wq = malloc(sizeof *t->wq * r->qcap);
    if (!t->wq || gcn_wstate_init(&t->at, r->qcap) < 0) {
        free(t->wq);
        t->wq = NULL;
        return -1;
    }
    *k0 = n ? n - 1 : 0;
    for (unsigned k = n; k-- > 0;) {
        const gcn_block *blk = &r->cfg->blocks[r->nodes[path[k]].block];
        unsigned lim = k == n - 1 ? cons : blk->last + 1;
        if (p >= blk->first && p < lim) {
            *k0 = k;
            break;
        }
    }
    for (unsigned k = 0; k < n; k++)
        t->joined |= r->nodes[path[k]].joined;
    return 0;
}

/* trace_path by replaying every node of the path (the fallback of trace_path) */
static int trace_path_plain(const wrun *r, const unsigned *path, unsigned n, unsigned cons,
                      unsigned p, unsigned q, ptrace *t)
{
    ptrace_free(t);
    unsigned k0;
    if (trace_start(r, path, n, cons, p, t, &k0))
        return -1;
    wstate *s = &t->at;
    for (unsigned k = k0; k < n; k++) {
        const wnode *nd = &r->nodes[path[k]];
        gcn_wstate_load(s, nd->st);
        const gcn_block *blk = &r->cfg->blocks[nd->block];
        if (replay_block(r, s, blk, k == n - 1, cons, p, q, t))
            return 0;
    }
    wstate_eager(s);
    return 0;
}

static int trace_path(const wrun *r, const unsigned *path, unsigned n, unsigned cons,
                      unsigned p, unsigned q, ptrace *t)
{
    unsigned k0;
    if (trace_start(r, path, n, cons, p, t, &k0))
        return -1;
    wstate *s = &t->at;
    /* Before the consumer's node only the waits matter: at each, the rank of
     * the producer's newest instance, and the whole queue at the last one.
     * There the producer's instances are followed alone (the ranks of the
     * queue's other entries do not change theirs), and the queue at the last
     * wait is rebuilt once, before the consumer's node is replayed. */
    const unsigned bit = q == WQ_VM ? GCN_LC_VM : GCN_LC_LGKM, max = rank_max[q];
    unsigned cap_k = 0, cap_i = 0;
    bool cap = false;           /* the queue at (cap_k, cap_i) is still to be copied */
    for (unsigned k = k0; k < n; k++) {
        const wnode *nd = &r->nodes[path[k]];
        const gcn_block *blk = &r->cfg->blocks[nd->block];
        if (k < n - 1) {
            pinst in[72];
            unsigned nin = 0;
            const qent *E = nd->st->e + (q ? nd->st->n[0] : 0);
            bool fits = true;
            for (unsigned j = 0; j < nd->st->n[q] && fits; j++)
                if (E[j].idx == p) {
                    if (nin == 72)
                        fits = false;
                    else
                        in[nin++] = (pinst){E[j].rank, (uint8_t)(E[j].fl & QF_OOO)};
                }
            if (fits) {
                for (unsigned i = blk->first; i <= blk->last && fits; i++) {
                    const gcn_lfacts *f = &r->cfg->facts[i];
                    unsigned N = GCN_WAIT_NONE;
                    if (f->kind == GCN_LK_WAITCNT) {
                        unsigned vm, lg;
                        wait_values(r, i, &vm, &lg);
                        N = q == WQ_VM ? vm : lg;
                        if (t->issued && N != GCN_WAIT_NONE && nin) {
                            unsigned rank = in[0].rank, ooo = in[0].ooo;
                            for (unsigned j = 1; j < nin; j++)
                                if (in[j].rank < rank) {
                                    rank = in[j].rank;
                                    ooo = in[j].ooo;
                                }
                            unsigned slot = t->nw < MAXW ? t->nw++ : MAXW - 1;
                            t->w[slot].idx = i;
                            t->w[slot].N = N;
                            t->w[slot].rank = rank;
                            t->w[slot].ooo = ooo != 0;
                            t->total_w++;
                            cap = true;
                            cap_k = k;
                            cap_i = i;
                        }
                    }
                    if (i == p) {
                        t->issued = true;
                        t->nw = 0;
                        t->total_w = 0;
                        t->wqn = 0;
                        cap = false;
                    }
                    /* gcn_waits_step on the producer's instances */
                    if (N == 0) {
                        nin = 0;
                    } else if (N != GCN_WAIT_NONE) {
                        unsigned w = 0;
                        for (unsigned j = 0; j < nin; j++)
                            if (in[j].ooo || in[j].rank < N)
                                in[w++] = in[j];
                        nin = w;
                    }
                    if (f->ctr & bit) {
                        bool ooo = q == WQ_VM ? f->vm_ooo : f->lgkm_ooo;
                        if (ooo) {
                            if (i == p)
                                for (unsigned j = 0; j < nin; j++)
                                    if (in[j].ooo) {
                                        memmove(&in[j], &in[j + 1], sizeof in[0] * (nin - j - 1));
                                        nin--;
                                        break;
                                    }
                        } else {
                            /* in-order instances retire at max younger (q_push) */
                            unsigned w = 0;
                            for (unsigned j = 0; j < nin; j++)
                                if (in[j].ooo || ++in[j].rank < max)
                                    in[w++] = in[j];
                            nin = w;
                        }
                        if (i == p) {
                            if (nin == 72)
                                fits = false;
                            else
                                in[nin++] = (pinst){0, (uint8_t)ooo};
                        }
                    }
                }
                if (fits)
                    continue;
                /* too many instances (cannot happen: ranks are distinct): replay */
                return trace_path_plain(r, path, n, cons, p, q, t);
            }
            else
                return trace_path_plain(r, path, n, cons, p, q, t);
        }
        if (cap) {
            /* the queue at the last wait, from a node before this one */
            const wnode *cn = &r->nodes[path[cap_k]];
            const gcn_block *cb = &r->cfg->blocks[cn->block];
            gcn_wstate_load(s, cn->st);
            if (cb->last - cb->first < 60000)
                wstate_lazy(s);
            for (unsigned i = cb->first; i < cap_i; i++)
                gcn_waits_step(r, s, i);
            t->wqn = s->n[q];
            for (unsigned j = 0; j < s->n[q]; j++) {
                t->wq[j] = s->q[q][j];
                t->wq[j].rank = (uint8_t)qrk(s, q, &s->q[q][j]);
                t->wq[j].pad = 0;
            }
            cap = false;
        }
        gcn_wstate_load(s, nd->st);
        if (replay_block(r, s, blk, k == n - 1, cons, p, q, t))
            return 0;
    }
    wstate_eager(s);
    return 0;
}

int gcn_waits_last_wait(const wrun *r, const wrec *rec)
{
    unsigned n;
    unsigned *path = gcn_waits_path(r, rec->node, &n);
    if (!path)
        return -1;
    ptrace t;
    int w = -1;
    if (trace_path(r, path, n, rec->i, rec->p, rec->q, &t) == 0) {
        if (t.issued && t.nw)
            w = (int)t.w[t.nw - 1].idx;
        ptrace_free(&t);
    }
    free(path);
    return w;
}

static void insn_ref(const wrun *r, unsigned i, gcn_strbuf *sb)
{
    gcn_sb_puts(sb, "'");
    gcn_lint_insn_text(r->cfg, i, sb);
    gcn_sb_puts(sb, "' (");
    gcn_lint_loc(r->o, r->cfg->insn[i].addr, sb);
    gcn_sb_puts(sb, ")");
}

static void regs_of(const gcn_regset *a, const gcn_regset *b, gcn_strbuf *sb)
{
    gcn_regset x;
    gcn_rs_and(&x, a, b);
    gcn_rs_format(&x, sb);
}

/* Why the producer may be pending, from the trace ("needs ..."). */
static int why(const wrun *r, const ptrace *t, unsigned q, unsigned p, gcn_strbuf *sb)
{
    int fix = -1;                 /* the count the last wait needs, when it names one */
    const gcn_lfacts *P = &r->cfg->facts[p];
    const char *c = gcn_ctr_name(q);
    bool ooo = q == WQ_VM ? P->vm_ooo : P->lgkm_ooo;
    if (ooo) {
        if (P->mem == GCN_LM_SMEM)
            gcn_sb_puts(sb, "scalar memory loads return out of order, so only lgkmcnt(0) "
                            "guarantees this one");
        else if (P->mem == GCN_LM_FLAT)
            gcn_sb_printf(sb, "FLAT operations count in vmcnt and lgkmcnt and may complete out "
                              "of order in both, so only %s(0) guarantees this one", c);
        else
            gcn_sb_printf(sb, "it returns out of order, so only %s(0) guarantees it", c);
        if (t->nw) {
            fix = 0;
            gcn_sb_printf(sb, "; the last wait, s_waitcnt %s(%u) at ", c, t->w[t->nw - 1].N);
            gcn_lint_loc(r->o, r->cfg->insn[t->w[t->nw - 1].idx].addr, sb);
            gcn_sb_puts(sb, ", does not");
        } else {
            gcn_sb_printf(sb, "; there is no s_waitcnt %s on this path after it", c);
        }
        return fix;
    }
    if (!t->issued) {
        gcn_sb_printf(sb, "no %s wait on this path retires it", c);
        return fix;
    }
    /* ranks stay below the counter's maximum (q_push), so a fix is never
     * the "no wait" encoding */
    assert(t->cons_rank < rank_max[q] && (!t->nw || t->w[t->nw - 1].rank < rank_max[q]));
    if (!t->nw) {
        gcn_sb_printf(sb, "no s_waitcnt %s on this path since it was issued; %s(%u) here would "
                          "retire it", c, c, t->cons_rank);
        return fix;
    }
    unsigned k = t->nw - 1;
    gcn_sb_printf(sb, "s_waitcnt %s(%u) at ", c, t->w[k].N);
    gcn_lint_loc(r->o, r->cfg->insn[t->w[k].idx].addr, sb);
    gcn_sb_printf(sb, " lets %u operation%s stay outstanding, but only %u %s issued after it, "
                      "so it may still be in flight; %s(%u) there would retire it",
                  t->w[k].N, t->w[k].N == 1 ? "" : "s", t->w[k].rank,
                  t->w[k].rank == 1 ? "was" : "were", c, t->w[k].rank);
    return (int)t->w[k].rank;
}

static void explain(const wrun *r, const wrec *rc, const unsigned *path, unsigned n,
                    const ptrace *t, gcn_strbuf *sb)
{
    const gcn_cfg *cfg = r->cfg;
    const char *c = gcn_ctr_name(rc->q);
    gcn_sb_puts(sb, "  path:");
    unsigned shown = 0;
    for (unsigned k = 0; k < n; k++) {
        if (n > 14 && k == 6) {
            gcn_sb_printf(sb, " -> ... (%u blocks)", n - 12);
            k = n - 7;
            continue;
        }
        unsigned b = r->nodes[path[k]].block;
        gcn_sb_puts(sb, shown++ ? " -> " : " ");
        gcn_lint_loc(r->o, cfg->insn[cfg->blocks[b].first].addr, sb);
        if (cfg->blocks[b].header)
            gcn_sb_puts(sb, " (loop)");
    }
    gcn_sb_puts(sb, "\n");
    if (t->joined)
        gcn_sb_puts(sb, "  (this path passes merged states: the analysis hit its state budget "
                        "there, so the queue below is an over-approximation)\n");
    const wstate *s = &t->at;
    gcn_sb_printf(sb, "  %s queue at ", c);
    gcn_lint_loc(r->o, cfg->insn[rc->i].addr, sb);
    gcn_sb_printf(sb, ", oldest first (%u operation%s):\n", s->n[rc->q], s->n[rc->q] == 1 ? "" : "s");
    for (unsigned k = 0; k < s->n[rc->q]; k++) {
        const qent *e = &s->q[rc->q][k];
        gcn_sb_printf(sb, "    %s ", e->idx == rc->p ? "->" : "  ");
        if (e->fl & QF_OOO)
            gcn_sb_puts(sb, "[out of order] ");
        else
            gcn_sb_printf(sb, "[%u younger] ", e->rank);
        gcn_lint_loc(r->o, cfg->insn[e->idx].addr, sb);
        gcn_sb_puts(sb, ": ");
        gcn_lint_insn_text(cfg, e->idx, sb);
        if (e->idx == rc->p)
            gcn_sb_puts(sb, "   <- producer");
        gcn_sb_puts(sb, "\n");
    }
    gcn_sb_printf(sb, "  rule: s_waitcnt %s(N) waits until at most N %s operations are "
                      "outstanding; in-order operations complete oldest first, so one with K "
                      "younger operations behind it is complete once N <= K", c, c);
    if (rc->q == WQ_LGKM)
        gcn_sb_puts(sb, "; SMEM (and FLAT) operations may complete in any order and are only "
                        "guaranteed by lgkmcnt(0)");
    gcn_sb_puts(sb, ".\n");
    if (t->nw && t->wqn && !t->w[t->nw - 1].ooo) {
        unsigned N = t->w[t->nw - 1].N;
        gcn_sb_puts(sb, "  at ");
        gcn_lint_loc(r->o, cfg->insn[t->w[t->nw - 1].idx].addr, sb);
        gcn_sb_printf(sb, ", before s_waitcnt %s(%u), the queue held %u operation%s:", c, N,
                      t->wqn, t->wqn == 1 ? "" : "s");
        for (unsigned k = 0; k < t->wqn; k++) {
            gcn_sb_puts(sb, k ? ", " : " ");
            gcn_lint_loc(r->o, cfg->insn[t->wq[k].idx].addr, sb);
            if (t->wq[k].idx == rc->p)
                gcn_sb_puts(sb, " (producer)");
        }
        unsigned inorder = 0;
        for (unsigned k = 0; k < t->wqn; k++)
            inorder += !(t->wq[k].fl & QF_OOO);
        gcn_sb_printf(sb, ";\n    %s(%u) lets the newest %u stay outstanding and retires only the "
                          "oldest %u, which does not include the producer.\n",
                      c, N, N, inorder > N ? inorder - N : 0);
    }
    if (t->nw) {
        gcn_sb_puts(sb, "  waits on this path after the producer was issued:\n");
        if (t->total_w > t->nw)
            gcn_sb_printf(sb, "    (%u earlier ones not shown)\n", t->total_w - t->nw);
        for (unsigned k = 0; k < t->nw; k++) {
            gcn_sb_puts(sb, "    ");
            gcn_lint_loc(r->o, cfg->insn[t->w[k].idx].addr, sb);
            if (t->w[k].ooo)
                gcn_sb_printf(sb, ": s_waitcnt %s(%u): producer returns out of order, %s\n", c,
                              t->w[k].N, t->w[k].N == 0 ? "retired" : "not guaranteed");
            else
                gcn_sb_printf(sb, ": s_waitcnt %s(%u): producer had %u younger, %u %s %u: %s\n",
                              c, t->w[k].N, t->w[k].rank, t->w[k].N,
                              t->w[k].N <= t->w[k].rank ? "<=" : ">", t->w[k].rank,
                              t->w[k].N <= t->w[k].rank ? "retired" : "still pending");
        }
    } else if (t->issued) {
        gcn_sb_printf(sb, "  no s_waitcnt %s between the producer and ", c);
        gcn_lint_loc(r->o, cfg->insn[rc->i].addr, sb);
        gcn_sb_puts(sb, " on this path.\n");
    }
    if (t->cons_found) {
        const gcn_lfacts *P = &cfg->facts[rc->p];
        bool ooo = rc->q == WQ_VM ? P->vm_ooo : P->lgkm_ooo;
        gcn_sb_puts(sb, "  fix: ");
        if (ooo)
            gcn_sb_printf(sb, "s_waitcnt %s(0) before ", c);
        else
            gcn_sb_printf(sb, "s_waitcnt %s(%u) (or lower) before ", c, t->cons_rank);
        gcn_lint_loc(r->o, cfg->insn[rc->i].addr, sb);
        if ((rc->check & ~WREC_UNPROVEN) == GCN_CHK_BARRIER_LDS)
            gcn_sb_puts(sb, " (before the barrier, so other waves see the LDS data)");
        gcn_sb_puts(sb, " would retire it on this path.\n");
    }
}

static int severity_of(int check)
{
    switch (check) {
    case GCN_CHK_WAIT_SUGGEST: case GCN_CHK_WAIT_STRONGER:
        return GCN_SEV_NOTE;
    case GCN_CHK_CFG_INDIRECT: case GCN_CHK_CFG_INVALID: case GCN_CHK_CFG_LIMIT:
        return GCN_SEV_WARNING;
    default:
        return GCN_SEV_ERROR;
    }
}

static int emit(const wrun *r, const wrec *rc, const unsigned *path, unsigned n, const ptrace *tr,
                unsigned others, gcn_findings *out)
{
    const gcn_cfg *cfg = r->cfg;
    const ptrace t = *tr;
    const gcn_lfacts *F = &cfg->facts[rc->i], *P = &cfg->facts[rc->p];
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_lint_insn_text(cfg, rc->i, &sb);
    const int base = rc->check & ~WREC_UNPROVEN;
    const bool unproven = (rc->check & WREC_UNPROVEN) != 0;
    /* the other wave's access a barrier finding names (~0u: none), and the wave count
     * at which the bytes first meet (0: not known) */
    unsigned who = ~0u, mw = 0;
    if (base == GCN_CHK_BARRIER_LDS)
        barrier_exposed((wrun *)r, rc->i, rc->p, &who, &mw);
    else if (base == GCN_CHK_LDS_DMA_PENDING || base == GCN_CHK_LDS_DMA_RACE)
        lds_overlap(r, rc->p, rc->i, &mw);
    switch (base) {
    case GCN_CHK_PENDING_READ: case GCN_CHK_SMEM_ORDER:
        gcn_sb_puts(&sb, " reads ");
        regs_of(&P->adefs, &F->uses, &sb);
        gcn_sb_puts(&sb, " while ");
        insn_ref(r, rc->p, &sb);
        gcn_sb_puts(&sb, " may still be writing it: ");
        break;
    case GCN_CHK_PENDING_WRITE: {
        gcn_regset w = F->defs;
        gcn_rs_or(&w, &F->adefs);
        gcn_sb_puts(&sb, " overwrites ");
        regs_of(&P->adefs, &w, &sb);
        gcn_sb_puts(&sb, " while ");
        insn_ref(r, rc->p, &sb);
        gcn_sb_puts(&sb, " may still write it when it returns: ");
        break;
    }
    case GCN_CHK_LDS_DMA_PENDING:
        gcn_sb_printf(&sb, " %s ", (F->lds & GCN_LL_READ) ? "reads" : "writes");
        if (r->vals && r->vals->lds)
            gcn_ldsrange_format(&r->vals->lds[rc->i], &sb);
        gcn_sb_puts(&sb, " while the LDS-DMA ");
        insn_ref(r, rc->p, &sb);
        if (r->vals && r->vals->lds && r->vals->lds[rc->p].known) {
            gcn_sb_puts(&sb, " (");
            gcn_ldsrange_format(&r->vals->lds[rc->p], &sb);
            gcn_sb_puts(&sb, ")");
        }
        gcn_sb_puts(&sb, " may still be writing it (LDS-DMA completes under vmcnt): ");
        break;
    case GCN_CHK_LDS_DMA_RACE:
        gcn_sb_puts(&sb, " writes ");
        if (r->vals && r->vals->lds)
            gcn_ldsrange_format(&r->vals->lds[rc->i], &sb);
        gcn_sb_puts(&sb, " while ");
        insn_ref(r, rc->p, &sb);
        gcn_sb_puts(&sb, (P->lds & GCN_LL_WRITE) ? " may still be writing it: "
                                                  : " may not have read it yet: ");
        break;
    case GCN_CHK_BARRIER_LDS: {
        gcn_sb_puts(&sb, (P->lds & GCN_LL_DMA) ? " while the LDS-DMA " : " while the LDS write ");
        insn_ref(r, rc->p, &sb);
        if (who != ~0u) {
            gcn_sb_puts(&sb, " may be pending, and another wave may access its bytes with ");
            insn_ref(r, who, &sb);
            gcn_sb_puts(&sb, " before the next barrier: ");
        } else {
            gcn_sb_puts(&sb, " may be pending, so other waves may read LDS before it lands: ");
        }
        break;
    }
    default:
        break;
    }
    int fix = why(r, &t, rc->q, rc->p, &sb);
    size_t mark = sb.len;
    gcn_sb_puts(&sb, " (");
    size_t mark2 = sb.len;
    gcn_waits_path_phrase(r, path, n, r->nodes[rc->node].block, &sb);
    if (sb.len == mark2) {
        sb.len = mark;            /* no phrase: drop the parenthesis */
        sb.buf[mark] = 0;
    } else {
        gcn_sb_puts(&sb, ")");
    }
    if (others)
        gcn_sb_printf(&sb, "; %u more pending operation%s affect%s it", others,
                      others == 1 ? "" : "s", others == 1 ? "s" : "");
    if (unproven) {
        /* which address is not known, and why */
        const gcn_ldsrange *u = NULL;
        unsigned cand[2] = {base == GCN_CHK_BARRIER_LDS ? who : rc->i, rc->p};
        for (unsigned k = 0; k < 2 && !u && r->vals && r->vals->lds; k++)
            if (cand[k] != ~0u && !r->vals->lds[cand[k]].known)
                u = &r->vals->lds[cand[k]];
        gcn_sb_printf(&sb, "; gcnlint could not prove the LDS bytes disjoint (the %s check): ",
                      gcn_check_name(base));
        if (u)
            gcn_ldsrange_why(cfg, r->o, u, &sb);
        else
            gcn_sb_puts(&sb, "the ranges are in terms it cannot compare");
    }
    if (!unproven && (base == GCN_CHK_LDS_DMA_PENDING || base == GCN_CHK_LDS_DMA_RACE ||
                      base == GCN_CHK_BARRIER_LDS)) {
        if (gcn_lds_launch_only(r->o, mw, base != GCN_CHK_BARRIER_LDS))
            gcn_lds_launch_note(r->o, mw, &sb);
    }
    gcn_finding f = {
        .check = wrec_check(rc->check),
        .severity = unproven ? GCN_SEV_WARNING : severity_of(rc->check),
        .addr = cfg->insn[rc->i].addr,
        .producer = (int64_t)cfg->insn[rc->p].addr,
        .wait = t.nw ? (int64_t)cfg->insn[t.w[t.nw - 1].idx].addr : -1,
        .fix = t.nw ? fix : -1,
        .fix_ctr = t.nw && fix >= 0 ? gcn_ctr_name(rc->q) : NULL,
        .rule = NULL,
        .msg = strdup(sb.buf ? sb.buf : ""),
        .explain = NULL,
    };
    if (r->o && r->o->explain) {
        gcn_sb_reset(&sb);
        explain(r, rc, path, n, &t, &sb);
        f.explain = strdup(sb.buf ? sb.buf : "");
    }
    gcn_sb_free(&sb);
    gcn_findings_add(out, &f);
    return 0;
}

static int cmp_rec(const void *x, const void *y)
{
    const wrec *a = x, *b = y;
    if (a->check != b->check)
        return a->check - b->check;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

/* One finding per (check, consumer): the producer that needs the strongest wait. */
/* The strength a record's producer needs at the consumer: its rank there (0
 * for out-of-order).  It depends only on the queues at the consumer in rc's
 * node, which are the node's stored state stepped to the consumer (kept in
 * *s for the next record of the same node and consumer), so only the chosen
 * record's path is traced. */
static unsigned rec_need(const wrun *r, const wrec *rc, wstate *s, unsigned *at_node,
                         unsigned *at_i)
{
    const gcn_lfacts *P = &r->cfg->facts[rc->p];
    if (rc->q == WQ_VM ? P->vm_ooo : P->lgkm_ooo)
        return 0;
    if (*at_node != rc->node || *at_i != rc->i) {
        const wnode *nd = &r->nodes[rc->node];
        const gcn_block *blk = &r->cfg->blocks[nd->block];
        gcn_wstate_load(s, nd->st);
        if (blk->last - blk->first < 60000)    /* P stays below 65536 */
            wstate_lazy(s);
        for (unsigned i = blk->first; i < rc->i; i++)
            gcn_waits_step(r, s, i);
        *at_node = rc->node;
        *at_i = rc->i;
    }
    unsigned rank = 0;
    bool ooo = false;
    return newest_instance(s, rc->q, rc->p, &rank, &ooo) ? rank : 0;
}

static int emit_all(wrun *r, gcn_findings *out)
{
    if (r->nrecs)
        qsort(r->recs, r->nrecs, sizeof *r->recs, cmp_rec);
    int added = 0;
    wstate cs;
    if (gcn_wstate_init(&cs, r->qcap) < 0) {
        gcn_wstate_free(&cs);
        return -1;
    }
    unsigned at_node = ~0u, at_i = ~0u;
    for (unsigned a = 0; a < r->nrecs;) {
        unsigned b = a;
        while (b < r->nrecs && r->recs[b].check == r->recs[a].check && r->recs[b].i == r->recs[a].i)
            b++;
        /* the record needing the lowest wait (the first of equals), then its path */
        int best = -1;
        unsigned best_need = ~0u, best_n = 0;
        for (unsigned k = a; k < b; k++) {
            unsigned need = rec_need(r, &r->recs[k], &cs, &at_node, &at_i);
            if (best < 0 || need < best_need) {
                best = (int)k;
                best_need = need;
            }
        }
        unsigned *best_path = gcn_waits_path(r, r->recs[best].node, &best_n);
        ptrace best_t;
        memset(&best_t, 0, sizeof best_t);
        if (!best_path || trace_path(r, best_path, best_n, r->recs[best].i, r->recs[best].p,
                                     r->recs[best].q, &best_t) < 0) {
            free(best_path);
            gcn_wstate_free(&cs);
            return -1;
        }
        /* producers distinct from the chosen one */
        unsigned others = 0;
        for (unsigned k = a; k < b; k++) {
            bool seen = r->recs[k].p == r->recs[best].p;
            for (unsigned j = a; j < k && !seen; j++)
                seen = r->recs[j].p == r->recs[k].p;
            others += !seen;
        }
        int rc = emit(r, &r->recs[best], best_path, best_n, &best_t, others, out);
        free(best_path);
        ptrace_free(&best_t);
        if (rc < 0) {
            gcn_wstate_free(&cs);
            return -1;
        }
        added++;
        a = b;
    }
    gcn_wstate_free(&cs);
    return added;
}

int gcn_lint_waits(const gcn_cfg *cfg, const gcn_values *vals, const gcn_lint_opts *o,
                   gcn_findings *out)
{
    wrun r;
    int rc = gcn_waits_explore(&r, cfg, vals, o);
    int added = 0;
    if (rc == 0) {
        added = emit_all(&r, out);
        if (added < 0)
            rc = -1;
        if (r.truncated || r.widened) {
            gcn_strbuf sb;
            gcn_sb_init(&sb);
            if (r.truncated)
                gcn_sb_printf(&sb, "the analysis stopped after %u states: findings after that "
                                   "point may be missing", MAX_NODES);
            else
                gcn_sb_printf(&sb, "more than %u distinct counter states reach some blocks: "
                                   "they were merged there, so findings may include false "
                                   "alarms", o && o->max_states ? o->max_states : 256);
            gcn_finding f = {.check = GCN_CHK_CFG_LIMIT,
                             .severity = r.truncated ? GCN_SEV_WARNING : GCN_SEV_NOTE,
                             .addr = cfg->entry, .producer = -1, .wait = -1,
                             .msg = strdup(sb.buf ? sb.buf : "")};
            gcn_sb_free(&sb);
            gcn_findings_add(out, &f);
        }
    }
    gcn_waits_free(&r);
    return rc < 0 ? -1 : added;
}

void gcn_lint_cfg_findings(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out)
{
    for (unsigned k = 0; k < cfg->nissues; k++) {
        const gcn_cfg_issue *is = &cfg->issues[k];
        gcn_strbuf sb;
        gcn_sb_init(&sb);
        int check = GCN_CHK_CFG_INDIRECT;
        switch (is->kind) {
        case GCN_CI_INVALID:
            check = GCN_CHK_CFG_INVALID;
            gcn_sb_printf(&sb, "bytes 0x%08x on a path from the kernel entry are no instruction "
                               "on %s; the analysis stops there", 
                          cfg->ninsn && gcn_cfg_index(cfg, is->addr) >= 0
                              ? cfg->insn[gcn_cfg_index(cfg, is->addr)].words[0] : 0,
                          gcn_target_name(cfg->dec.target));
            break;
        case GCN_CI_INDIRECT:
            gcn_sb_puts(&sb, "indirect branch with a target the analysis cannot compute; paths "
                             "through it are not checked");
            break;
        case GCN_CI_OUTSIDE:
            check = GCN_CHK_CFG_INVALID;
            gcn_sb_printf(&sb, "control reaches 0x%llx, outside the code",
                          (unsigned long long)is->target);
            break;
        case GCN_CI_OVERLAP:
            check = GCN_CHK_CFG_INVALID;
            gcn_sb_printf(&sb, "a branch targets 0x%llx, inside this instruction",
                          (unsigned long long)is->target);
            break;
        default:
            break;
        }
        (void)o;
        gcn_finding f = {.check = check, .severity = severity_of(check), .addr = is->addr,
                         .producer = -1, .wait = -1, .msg = strdup(sb.buf ? sb.buf : "")};
        gcn_sb_free(&sb);
        gcn_findings_add(out, &f);
    }
}

/*
 * cfg.c -- the control-flow graph of one kernel.
 *
 * Code is found by recursive decoding from the kernel entry (never by a
 * linear sweep), so the s_nop padding after the last s_endpgm and data in
 * .text are never taken for code.  Successors: s_branch its target;
 * s_cbranch_* target and fall-through; s_endpgm none; s_setpc_b64 /
 * s_swappc_b64 the values a small constant propagation finds for their
 * register pair (s_getpc_b64, s_add_u32/s_addc_u32, s_sub_u32/s_subb_u32,
 * s_mov_b32/b64 with constants; up to four values per register), which also
 * resolves returns through the register s_swappc_b64 / s_call_b64 wrote.
 * Then basic blocks, predecessors, dominators and post-dominators (Cooper,
 * Harvey, Kennedy, "A Simple, Fast Dominance Algorithm": one intersect step
 * serves both) and natural loops (back edges to a dominator).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lint.h"

/* ---- growable arrays ---------------------------------------------------- */

static void *xgrow(void *p, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap)
        return p;
    unsigned nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *q = realloc(p, (size_t)nc * elem);
    if (!q)
        return NULL;
    *cap = nc;
    return q;
}

/* ---- address -> index hash ---------------------------------------------- */

typedef struct amap {
    uint64_t *key;
    unsigned *val;
    unsigned cap, n;
} amap;

static unsigned amap_slot(const amap *m, uint64_t k)
{
    uint64_t h = k * 0x9E3779B97F4A7C15ull;
    unsigned i = (unsigned)(h >> 32) & (m->cap - 1);
    while (m->val[i] != ~0u && m->key[i] != k)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int amap_put(amap *m, uint64_t k, unsigned v)
{
    if (2 * (m->n + 1) > m->cap) {
        amap o = *m;
        m->cap = o.cap ? 2 * o.cap : 64;
        m->key = malloc(sizeof *m->key * m->cap);
        m->val = malloc(sizeof *m->val * m->cap);
        if (!m->key || !m->val)
            return -1;
        memset(m->val, 0xFF, sizeof *m->val * m->cap);
        m->n = 0;
        for (unsigned i = 0; i < o.cap; i++)
            if (o.val[i] != ~0u) {
                unsigned s = amap_slot(m, o.key[i]);
                m->key[s] = o.key[i];
                m->val[s] = o.val[i];
                m->n++;
            }
        free(o.key);
        free(o.val);
    }
    unsigned s = amap_slot(m, k);
    if (m->val[s] == ~0u)
        m->n++;
    m->key[s] = k;
    m->val[s] = v;
    return 0;
}

static unsigned amap_get(const amap *m, uint64_t k)
{
    if (!m->cap)
        return ~0u;
    return m->val[amap_slot(m, k)];
}

static void amap_free(amap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* ---- the builder -------------------------------------------------------- */

#define MAXT 16   /* resolved targets per indirect branch */

typedef struct resolved {
    unsigned n;           /* number of targets; 0 with known=0: unresolved */
    bool known;
    uint64_t t[MAXT];
} resolved;

typedef struct builder {
    gcn_cfg *cfg;
    /* source: text bytes or a hand-made list */
    const uint8_t *text;
    uint64_t text_addr, text_size;
    const gcn_insn *list_insn;
    const gcn_lfacts *list_facts;
    unsigned list_n;
    amap list_map;
    /* discovered instructions (discovery order until sorted) */
    gcn_insn *insn;
    gcn_lfacts *facts;
    resolved *res;
    unsigned n, cap, cap2, cap3;
    amap map;
    uint64_t *work;
    unsigned nwork, capwork;
    gcn_cfg_issue *issues;
    unsigned nissues, capissues;
    bool oom;
} builder;

static void add_issue(builder *b, int kind, uint64_t addr, uint64_t target)
{
    for (unsigned i = 0; i < b->nissues; i++)
        if (b->issues[i].kind == kind && b->issues[i].addr == addr &&
            b->issues[i].target == target)
            return;
    gcn_cfg_issue *p = xgrow(b->issues, &b->capissues, b->nissues + 1, sizeof *p);
    if (!p) {
        b->oom = true;
        return;
    }
    b->issues = p;
    b->issues[b->nissues++] = (gcn_cfg_issue){kind, addr, target};
}

static bool in_code(const builder *b, uint64_t a)
{
    if (b->list_insn)
        return amap_get(&b->list_map, a) != ~0u;
    return a >= b->text_addr && a < b->text_addr + b->text_size;
}

static void push_work(builder *b, uint64_t a)
{
    uint64_t *p = xgrow(b->work, &b->capwork, b->nwork + 1, sizeof *p);
    if (!p) {
        b->oom = true;
        return;
    }
    b->work = p;
    b->work[b->nwork++] = a;
}

/* Decode (or look up) the instruction at a; returns its index or ~0u. */
static unsigned fetch(builder *b, uint64_t a)
{
    unsigned i = amap_get(&b->map, a);
    if (i != ~0u)
        return i;
    gcn_insn in;
    gcn_lfacts f;
    if (b->list_insn) {
        unsigned j = amap_get(&b->list_map, a);
        if (j == ~0u)
            return ~0u;
        in = b->list_insn[j];
        f = b->list_facts[j];
    } else {
        if (a < b->text_addr || a >= b->text_addr + b->text_size)
            return ~0u;
        uint64_t off = a - b->text_addr;
        gcn_decode_one(&b->cfg->dec, b->text + off, (size_t)(b->text_size - off), a, &in);
        gcn_lint_classify(&in, b->cfg->dec.target, &f);
    }
    gcn_insn *pi = xgrow(b->insn, &b->cap, b->n + 1, sizeof *pi);
    if (pi) b->insn = pi;
    gcn_lfacts *pf = xgrow(b->facts, &b->cap2, b->n + 1, sizeof *pf);
    if (pf) b->facts = pf;
    resolved *pr = xgrow(b->res, &b->cap3, b->n + 1, sizeof *pr);
    if (pr) b->res = pr;
    if (!pi || !pf || !pr || amap_put(&b->map, a, b->n) < 0) {
        b->oom = true;
        return ~0u;
    }
    b->insn[b->n] = in;
    b->facts[b->n] = f;
    memset(&b->res[b->n], 0, sizeof b->res[b->n]);
    return b->n++;
}

static bool falls_through(const gcn_lfacts *f)
{
    switch (f->kind) {
    case GCN_LK_INVALID: case GCN_LK_BRANCH: case GCN_LK_ENDPGM: case GCN_LK_SETPC:
    case GCN_LK_SWAPPC: case GCN_LK_CALL:
        return false;
    default:
        return true;
    }
}

/* Successor addresses of instruction i (at most MAXT + 1). */
static unsigned succ_addrs(const builder *b, unsigned i, uint64_t *out, bool *unresolved)
{
    const gcn_insn *in = &b->insn[i];
    const gcn_lfacts *f = &b->facts[i];
    unsigned n = 0;
    *unresolved = false;
    switch (f->kind) {
    case GCN_LK_INVALID: case GCN_LK_ENDPGM:
        break;
    case GCN_LK_BRANCH: case GCN_LK_CALL:
        out[n++] = (uint64_t)f->target;
        break;
    case GCN_LK_CBRANCH:
        out[n++] = (uint64_t)f->target;
        out[n++] = in->addr + in->size;
        break;
    case GCN_LK_SETPC: case GCN_LK_SWAPPC:
        if (!b->res[i].known) {
            *unresolved = true;
            /* a call with an unknown callee is assumed to return */
            if (f->kind == GCN_LK_SWAPPC)
                out[n++] = in->addr + in->size;
            break;
        }
        for (unsigned k = 0; k < b->res[i].n; k++)
            out[n++] = b->res[i].t[k];
        break;
    default:
        out[n++] = in->addr + in->size;
        break;
    }
    return n;
}

static void discover(builder *b)
{
    while (b->nwork && !b->oom) {
        uint64_t a = b->work[--b->nwork];
        if (amap_get(&b->map, a) != ~0u)
            continue;
        if (!in_code(b, a)) {
            add_issue(b, GCN_CI_OUTSIDE, a, a);
            continue;
        }
        unsigned i = fetch(b, a);
        if (i == ~0u)
            continue;
        if (b->facts[i].kind == GCN_LK_INVALID)
            add_issue(b, GCN_CI_INVALID, a, 0);
        uint64_t s[MAXT + 2];
        bool unres;
        unsigned ns = succ_addrs(b, i, s, &unres);
        for (unsigned k = 0; k < ns; k++) {
            if (!in_code(b, s[k])) {
                add_issue(b, GCN_CI_OUTSIDE, a, s[k]);
                continue;
            }
            if (amap_get(&b->map, s[k]) == ~0u)
                push_work(b, s[k]);
        }
    }
}

/* ---- blocks ------------------------------------------------------------- */

typedef struct sortrec {
    uint64_t addr;
    unsigned idx;
} sortrec;

static int cmp_rec(const void *x, const void *y)
{
    const sortrec *a = x, *c = y;
    return a->addr < c->addr ? -1 : a->addr > c->addr;
}

static void free_blocks(gcn_cfg *cfg)
{
    for (unsigned i = 0; i < cfg->nblocks; i++) {
        free(cfg->blocks[i].succ);
        free(cfg->blocks[i].pred);
    }
    free(cfg->blocks);
    free(cfg->block_of);
    cfg->blocks = NULL;
    cfg->block_of = NULL;
    cfg->nblocks = 0;
}

static int add_edge(unsigned **arr, unsigned *n, unsigned v)
{
    for (unsigned i = 0; i < *n; i++)
        if ((*arr)[i] == v)
            return 0;
    unsigned *p = realloc(*arr, sizeof **arr * (*n + 1));
    if (!p)
        return -1;
    *arr = p;
    (*arr)[(*n)++] = v;
    return 0;
}

/* Sort the discovered instructions by address into cfg and form blocks. */
static int make_blocks(builder *b)
{
    gcn_cfg *cfg = b->cfg;
    unsigned n = b->n;
    free_blocks(cfg);
    free(cfg->insn);
    free(cfg->facts);
    sortrec *r = malloc(sizeof *r * (n ? n : 1));
    cfg->insn = malloc(sizeof *cfg->insn * (n ? n : 1));
    cfg->facts = malloc(sizeof *cfg->facts * (n ? n : 1));
    resolved *res = malloc(sizeof *res * (n ? n : 1));
    bool *leader = calloc(n ? n : 1, sizeof *leader);
    cfg->block_of = malloc(sizeof *cfg->block_of * (n ? n : 1));
    if (!r || !cfg->insn || !cfg->facts || !res || !leader || !cfg->block_of) {
        free(r); free(res); free(leader);
        return -1;
    }
    for (unsigned i = 0; i < n; i++)
        r[i] = (sortrec){b->insn[i].addr, i};
    qsort(r, n, sizeof *r, cmp_rec);
    amap_free(&b->map);
    for (unsigned i = 0; i < n; i++) {
        cfg->insn[i] = b->insn[r[i].idx];
        cfg->facts[i] = b->facts[r[i].idx];
        res[i] = b->res[r[i].idx];
        if (amap_put(&b->map, cfg->insn[i].addr, i) < 0) {
            free(r); free(res); free(leader);
            return -1;
        }
    }
    memcpy(b->insn, cfg->insn, sizeof *cfg->insn * n);
    memcpy(b->facts, cfg->facts, sizeof *cfg->facts * n);
    memcpy(b->res, res, sizeof *res * n);
    free(res);
    free(r);
    cfg->ninsn = n;

    /* overlapping instructions (a branch into the middle of one) */
    for (unsigned i = 0; i + 1 < n; i++)
        if (cfg->insn[i].addr + cfg->insn[i].size > cfg->insn[i + 1].addr)
            add_issue(b, GCN_CI_OVERLAP, cfg->insn[i].addr, cfg->insn[i + 1].addr);

    /* leaders */
    unsigned ei = amap_get(&b->map, cfg->entry);
    if (ei != ~0u)
        leader[ei] = true;
    for (unsigned i = 0; i < n; i++) {
        uint64_t s[MAXT + 2];
        bool unres;
        unsigned ns = succ_addrs(b, i, s, &unres);
        bool only_next = ns == 1 && s[0] == cfg->insn[i].addr + cfg->insn[i].size &&
                         falls_through(&cfg->facts[i]);
        for (unsigned k = 0; k < ns; k++) {
            unsigned j = amap_get(&b->map, s[k]);
            if (j != ~0u && !only_next)
                leader[j] = true;
        }
        if (!only_next && i + 1 < n)
            leader[i + 1] = true;
        if (i + 1 < n && cfg->insn[i].addr + cfg->insn[i].size != cfg->insn[i + 1].addr)
            leader[i + 1] = true;
    }
    if (n)
        leader[0] = true;
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++)
        nb += leader[i];
    cfg->blocks = calloc(nb ? nb : 1, sizeof *cfg->blocks);
    if (!cfg->blocks) {
        free(leader);
        return -1;
    }
    /* block 0 must hold the entry: number blocks with the entry's first */
    unsigned bi = 0;
    unsigned entry_block = 0;
    for (unsigned i = 0; i < n; i++) {
        if (leader[i]) {
            if (i)
                bi++;
            cfg->blocks[bi].first = i;
        }
        cfg->blocks[bi].last = i;
        cfg->block_of[i] = bi;
        if (i == ei)
            entry_block = bi;
    }
    cfg->nblocks = nb;
    free(leader);
    if (entry_block != 0 && nb) {
        gcn_block t = cfg->blocks[0];
        cfg->blocks[0] = cfg->blocks[entry_block];
        cfg->blocks[entry_block] = t;
        for (unsigned i = 0; i < n; i++) {
            if (cfg->block_of[i] == entry_block)
                cfg->block_of[i] = 0;
            else if (cfg->block_of[i] == 0)
                cfg->block_of[i] = entry_block;
        }
    }
    /* edges */
    for (unsigned k = 0; k < nb; k++) {
        gcn_block *blk = &cfg->blocks[k];
        unsigned last = blk->last;
        uint64_t s[MAXT + 2];
        bool unres;
        unsigned ns = succ_addrs(b, last, s, &unres);
        for (unsigned m = 0; m < ns; m++) {
            unsigned j = amap_get(&b->map, s[m]);
            if (j == ~0u)
                continue;
            unsigned t = cfg->block_of[j];
            if (add_edge(&blk->succ, &blk->nsucc, t) < 0 ||
                add_edge(&cfg->blocks[t].pred, &cfg->blocks[t].npred, k) < 0)
                return -1;
        }
    }
    return 0;
}

/* ---- constant propagation of PC values ---------------------------------- */

#define PV_TOP 0xFF
typedef struct pval {
    uint8_t n;            /* number of values, PV_TOP unknown */
    uint32_t v[4];
} pval;
#define NPV 128           /* scalar indices; SCC at GCN_RS_SCC */

static void pv_add(pval *p, uint32_t x)
{
    if (p->n == PV_TOP)
        return;
    for (unsigned i = 0; i < p->n; i++)
        if (p->v[i] == x)
            return;
    if (p->n == 4) {
        p->n = PV_TOP;
        return;
    }
    p->v[p->n++] = x;
}

static bool pv_join(pval *d, const pval *s)
{
    pval o = *d;
    if (s->n == PV_TOP)
        d->n = PV_TOP;
    else
        for (unsigned i = 0; i < s->n; i++)
            pv_add(d, s->v[i]);
    return memcmp(&o, d, sizeof o) != 0 && !(o.n == PV_TOP && d->n == PV_TOP);
}

static pval pv_const(uint32_t x)
{
    pval p = {0, {0}};
    pv_add(&p, x);
    return p;
}

static pval pv_top(void)
{
    pval p = {PV_TOP, {0}};
    return p;
}

static int scalar_index(const gcn_opnd *o)
{
    switch (o->kind) {
    case GCN_OPND_SGPR: return o->reg;
    case GCN_OPND_TTMP: return GCN_RS_TTMP0 + o->reg;
    case GCN_OPND_SPECIAL: return o->reg < 128 ? o->reg : (o->reg == 253 ? (int)GCN_RS_SCC : -1);
    default: return -1;
    }
}

/* Value of half `hi` (0/1) of a source operand. */
static pval opnd_pv(const pval *st, const gcn_opnd *o, int hi)
{
    if (!o)
        return pv_top();
    int si = scalar_index(o);
    if (si >= 0)
        return si + hi < NPV ? st[si + hi] : pv_top();
    int64_t v;
    if (o->kind == GCN_OPND_INLINE && o->reg >= 128 && o->reg <= 192)
        v = o->reg - 128;
    else if (o->kind == GCN_OPND_INLINE && o->reg >= 193 && o->reg <= 208)
        v = -(int64_t)(o->reg - 192);
    else if (o->kind == GCN_OPND_LITERAL)
        v = (int32_t)(uint32_t)o->imm;
    else
        return pv_top();
    return pv_const(hi ? (uint32_t)((uint64_t)v >> 32) : (uint32_t)v);
}

static void set_def(pval *st, const gcn_opnd *d, int half, pval v)
{
    if (!d)
        return;
    int si = scalar_index(d);
    if (si >= 0 && si + half < NPV)
        st[si + half] = v;
}

/* a op b (op 0 add, 1 sub) with carry-in set c (NULL: none); result and carry-out. */
static void pv_arith(const pval *a, const pval *b, const pval *c, int sub, pval *res, pval *cout)
{
    *res = (pval){0, {0}};
    *cout = (pval){0, {0}};
    if (a->n == PV_TOP || b->n == PV_TOP || (c && c->n == PV_TOP)) {
        *res = pv_top();
        *cout = pv_top();
        return;
    }
    pval zero = pv_const(0);
    if (!c)
        c = &zero;
    for (unsigned i = 0; i < a->n; i++)
        for (unsigned j = 0; j < b->n; j++)
            for (unsigned k = 0; k < c->n; k++) {
                uint64_t x = a->v[i], y = b->v[j], z = c->v[k] & 1;
                uint64_t r = sub ? x - y - z : x + y + z;
                pv_add(res, (uint32_t)r);
                pv_add(cout, sub ? (x < y + z) : (uint32_t)(r >> 32) & 1);
            }
}

static void pc_transfer(const gcn_insn *in, const gcn_lfacts *f, pval *st)
{
    const gcn_opnd *d = gcn_insn_field(in, GCN_FLD_SDST);
    const gcn_opnd *s0 = gcn_insn_field(in, GCN_FLD_SSRC0);
    const gcn_opnd *s1 = gcn_insn_field(in, GCN_FLD_SSRC1);
    pval r0 = pv_top(), r1 = pv_top(), scc = pv_top();
    bool have = false, pair = false, have_scc = false;
    uint64_t ret = in->addr + in->size;
    /* read the sources before anything is clobbered */
    if (f->kind == GCN_LK_GETPC || f->kind == GCN_LK_SWAPPC || f->kind == GCN_LK_CALL) {
        r0 = pv_const((uint32_t)ret);
        r1 = pv_const((uint32_t)(ret >> 32));
        have = pair = true;
    } else {
        switch (f->alu) {
        case GCN_LA_S_MOV:
            r0 = opnd_pv(st, s0, 0);
            have = true;
            break;
        case GCN_LA_S_MOV64:
            r0 = opnd_pv(st, s0, 0);
            r1 = opnd_pv(st, s0, 1);
            have = pair = true;
            break;
        case GCN_LA_S_ADD: case GCN_LA_S_SUB: case GCN_LA_S_ADDC: case GCN_LA_S_SUBB: {
            pval a = opnd_pv(st, s0, 0), b2 = opnd_pv(st, s1, 0);
            bool withc = f->alu == GCN_LA_S_ADDC || f->alu == GCN_LA_S_SUBB;
            bool sub = f->alu == GCN_LA_S_SUB || f->alu == GCN_LA_S_SUBB;
            pv_arith(&a, &b2, withc ? &st[GCN_RS_SCC] : NULL, sub, &r0, &scc);
            /* SCC is the carry/borrow only for the unsigned forms */
            if (!(f->fx & GCN_FX_SCC_CARRY))
                scc = pv_top();
            have = have_scc = true;
            break;
        }
        default:
            break;
        }
    }
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    for (unsigned k = 0; k < 2; k++)          /* the set bits, not every index */
        for (uint64_t x = w.s[k]; x; x &= x - 1) {
            unsigned i = k * 64 + (unsigned)__builtin_ctzll(x);
            if (i < NPV)
                st[i] = pv_top();
        }
    if (have && d) {
        set_def(st, d, 0, r0);
        if (pair)
            set_def(st, d, 1, r1);
    }
    if (have_scc)
        st[GCN_RS_SCC] = scc;
}

/* Run the propagation over the current blocks; fill b->res for SETPC/SWAPPC.
 * Returns true if a new target was found. */
static bool resolve_indirect(builder *b)
{
    gcn_cfg *cfg = b->cfg;
    bool any = false;
    for (unsigned i = 0; i < cfg->ninsn; i++)
        if (cfg->facts[i].kind == GCN_LK_SETPC || cfg->facts[i].kind == GCN_LK_SWAPPC)
            any = true;
    if (!any || !cfg->nblocks)
        return false;
    unsigned nb = cfg->nblocks;
    pval *in = malloc(sizeof *in * NPV * nb);
    bool *seen = calloc(nb, sizeof *seen);
    unsigned *wl = malloc(sizeof *wl * (nb + 1));
    bool *inwl = calloc(nb, sizeof *inwl);
    if (!in || !seen || !wl || !inwl) {
        free(in); free(seen); free(wl); free(inwl);
        b->oom = true;
        return false;
    }
    for (unsigned i = 0; i < NPV; i++)
        in[i] = pv_top();
    seen[0] = true;
    unsigned nw = 0;
    wl[nw++] = 0;
    inwl[0] = true;
    pval st[NPV];
    while (nw) {
        unsigned k = wl[--nw];
        inwl[k] = false;
        memcpy(st, &in[(size_t)k * NPV], sizeof st);
        const gcn_block *blk = &cfg->blocks[k];
        for (unsigned i = blk->first; i <= blk->last; i++)
            pc_transfer(&cfg->insn[i], &cfg->facts[i], st);
        for (unsigned s = 0; s < blk->nsucc; s++) {
            unsigned t = blk->succ[s];
            bool ch = false;
            if (!seen[t]) {
                memcpy(&in[(size_t)t * NPV], st, sizeof st);
                seen[t] = true;
                ch = true;
            } else {
                for (unsigned r = 0; r < NPV; r++)
                    ch |= pv_join(&in[(size_t)t * NPV + r], &st[r]);
            }
            if (ch && !inwl[t]) {
                wl[nw++] = t;
                inwl[t] = true;
            }
        }
    }
    bool found = false;
    for (unsigned k = 0; k < nb; k++) {
        if (!seen[k])
            continue;
        const gcn_block *blk = &cfg->blocks[k];
        memcpy(st, &in[(size_t)k * NPV], sizeof st);
        for (unsigned i = blk->first; i <= blk->last; i++) {
            const gcn_lfacts *f = &cfg->facts[i];
            if (f->kind == GCN_LK_SETPC || f->kind == GCN_LK_SWAPPC) {
                const gcn_opnd *s0 = gcn_insn_field(&cfg->insn[i], GCN_FLD_SSRC0);
                pval lo = opnd_pv(st, s0, 0), hi = opnd_pv(st, s0, 1);
                resolved r = {0, false, {0}};
                if (lo.n != PV_TOP && hi.n != PV_TOP && lo.n * hi.n <= MAXT) {
                    r.known = true;
                    for (unsigned x = 0; x < lo.n; x++)
                        for (unsigned y = 0; y < hi.n; y++)
                            r.t[r.n++] = (uint64_t)hi.v[y] << 32 | lo.v[x];
                }
                resolved *old = &b->res[i];
                for (unsigned x = 0; x < r.n; x++) {
                    bool have = false;
                    for (unsigned y = 0; old->known && y < old->n; y++)
                        have |= old->t[y] == r.t[x];
                    if (!have)
                        found = true;
                    if (amap_get(&b->map, r.t[x]) == ~0u)
                        push_work(b, r.t[x]);
                }
                *old = r;
            }
            pc_transfer(&cfg->insn[i], &cfg->facts[i], st);
        }
    }
    free(in); free(seen); free(wl); free(inwl);
    return found;
}

/* ---- dominators, post-dominators and loops ------------------------------ */

/* Cooper, Harvey and Kennedy's intersect: the nearest common ancestor of x and y in the
 * tree par[] (each node's immediate dominator, or post-dominator), where an ancestor's
 * number num[] is below its descendants' (reverse postorder of the graph walked). */
static unsigned chk_intersect(unsigned x, unsigned y, const unsigned *num, const unsigned *par)
{
    while (x != y) {
        while (num[x] > num[y])
            x = par[x];
        while (num[y] > num[x])
            y = par[y];
    }
    return x;
}

static int dominators(gcn_cfg *cfg)
{
    unsigned nb = cfg->nblocks;
    if (!nb)
        return 0;
    unsigned *order = malloc(sizeof *order * nb);   /* reverse postorder */
    unsigned *rpo = malloc(sizeof *rpo * nb);       /* block -> rpo number */
    unsigned *stack = malloc(sizeof *stack * nb);
    unsigned *it = calloc(nb, sizeof *it);
    bool *vis = calloc(nb, sizeof *vis);
    unsigned *idom = malloc(sizeof *idom * nb);
    if (!order || !rpo || !stack || !it || !vis || !idom) {
        free(order); free(rpo); free(stack); free(it); free(vis); free(idom);
        return -1;
    }
    unsigned sp = 0, post = nb;
    stack[sp++] = 0;
    vis[0] = true;
    while (sp) {
        unsigned k = stack[sp - 1];
        if (it[k] < cfg->blocks[k].nsucc) {
            unsigned t = cfg->blocks[k].succ[it[k]++];
            if (!vis[t]) {
                vis[t] = true;
                stack[sp++] = t;
            }
        } else {
            order[--post] = k;
            sp--;
        }
    }
    /* unreachable blocks (none by construction) come first in order[0..post) */
    for (unsigned k = 0; k < nb; k++) {
        cfg->blocks[k].reachable = vis[k];
        idom[k] = GCN_NOBLOCK;
        cfg->blocks[k].loop = GCN_NOBLOCK;
        cfg->blocks[k].header = false;
        rpo[k] = ~0u;
    }
    for (unsigned i = post; i < nb; i++)
        rpo[order[i]] = i;
    idom[0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned i = post; i < nb; i++) {
            unsigned k = order[i];
            if (k == 0)
                continue;
            unsigned nd = GCN_NOBLOCK;
            for (unsigned p = 0; p < cfg->blocks[k].npred; p++) {
                unsigned q = cfg->blocks[k].pred[p];
                if (idom[q] == GCN_NOBLOCK)
                    continue;
                nd = nd == GCN_NOBLOCK ? q : chk_intersect(q, nd, rpo, idom);
            }
            if (nd != idom[k]) {
                idom[k] = nd;
                changed = true;
            }
        }
    }
    for (unsigned k = 0; k < nb; k++)
        cfg->blocks[k].idom = idom[k];
    free(idom);
    /* natural loops: back edge u -> h with h dominating u */
    unsigned *size = calloc(nb, sizeof *size);     /* body size of the loop headed here */
    bool *body = malloc(sizeof *body * nb);
    unsigned *wl = malloc(sizeof *wl * nb);
    if (!size || !body || !wl) {
        free(order); free(rpo); free(stack); free(it); free(vis); free(size); free(body); free(wl);
        return -1;
    }
    /* headers in reverse RPO so inner (later) headers overwrite outer ones last:
     * process headers from outermost (smallest rpo) to innermost. */
    for (unsigned i = post; i < nb; i++) {
        unsigned h = order[i];
        bool is_header = false;
        memset(body, 0, sizeof *body * nb);
        unsigned nwl = 0;
        for (unsigned p = 0; p < cfg->blocks[h].npred; p++) {
            unsigned u = cfg->blocks[h].pred[p];
            if (!vis[u] || !gcn_cfg_dominates(cfg, h, u))
                continue;
            is_header = true;
            if (!body[u] && u != h) {
                body[u] = true;
                wl[nwl++] = u;
            }
        }
        if (!is_header)
            continue;
        cfg->blocks[h].header = true;
        body[h] = true;
        while (nwl) {
            unsigned u = wl[--nwl];
            for (unsigned p = 0; p < cfg->blocks[u].npred; p++) {
                unsigned q = cfg->blocks[u].pred[p];
                if (!body[q] && vis[q]) {
                    body[q] = true;
                    wl[nwl++] = q;
                }
            }
        }
        for (unsigned k = 0; k < nb; k++)
            if (body[k])
                cfg->blocks[k].loop = h;   /* later (inner) headers overwrite */
    }
    /* retreating edges of irreducible regions still mark a header */
    for (unsigned k = 0; k < nb; k++)
        for (unsigned s = 0; s < cfg->blocks[k].nsucc; s++) {
            unsigned t = cfg->blocks[k].succ[s];
            if (vis[k] && rpo[t] <= rpo[k])
                cfg->blocks[t].header = true;
        }
    free(order); free(rpo); free(stack); free(it); free(vis); free(size); free(body); free(wl);
    return 0;
}

int gcn_cfg_postdom(const gcn_cfg *cfg, unsigned *ipd)
{
    const unsigned nb = cfg->nblocks, X = nb;
    unsigned *order = malloc(sizeof *order * (nb + 1)), *rpn = malloc(sizeof *rpn * (nb + 1));
    unsigned *stack = malloc(sizeof *stack * (nb + 1)), *it = calloc(nb + 1, sizeof *it);
    unsigned char *toexit = calloc(nb + 1, 1), *vis = calloc(nb + 1, 1);
    int rc = -1;
    if (!order || !rpn || !stack || !it || !toexit || !vis)
        goto out;
    /* blocks that reach a block without successors */
    unsigned sp = 0;
    for (unsigned b = 0; b < nb; b++)
        if (!cfg->blocks[b].nsucc) {
            toexit[b] = 1;
            stack[sp++] = b;
        }
    while (sp) {
        const gcn_block *blk = &cfg->blocks[stack[--sp]];
        for (unsigned p = 0; p < blk->npred; p++)
            if (!toexit[blk->pred[p]]) {
                toexit[blk->pred[p]] = 1;
                stack[sp++] = blk->pred[p];
            }
    }
    /* exits[b]: b leads to the virtual exit (no successor, or no way to one) */
#define PD_EXITS(b) (!cfg->blocks[b].nsucc || !toexit[b])
    /* postorder of the reversed graph from the exit: its successors are the
     * blocks that lead to the exit, a block's are its CFG predecessors */
    unsigned n = 0;
    sp = 0;
    stack[sp++] = X;
    vis[X] = 1;
    while (sp) {
        unsigned v = stack[sp - 1];
        unsigned nxt = ~0u;
        if (v == X) {
            while (it[v] < nb && nxt == ~0u) {
                unsigned b = it[v]++;
                if (PD_EXITS(b) && !vis[b])
                    nxt = b;
            }
        } else {
            const gcn_block *blk = &cfg->blocks[v];
            while (it[v] < blk->npred && nxt == ~0u) {
                unsigned q = blk->pred[it[v]++];
                if (!vis[q])
                    nxt = q;
            }
        }
        if (nxt == ~0u) {
            order[n++] = v;
            sp--;
        } else {
            vis[nxt] = 1;
            stack[sp++] = nxt;
        }
    }
    for (unsigned r = 0; r < n; r++)
        rpn[order[r]] = n - 1 - r;              /* reverse postorder number: the exit 0 */
    for (unsigned b = 0; b <= nb; b++)
        ipd[b] = ~0u;
    ipd[X] = X;
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned r = n; r-- > 0;) {        /* reverse postorder, the exit first */
            unsigned b = order[r];
            if (b == X)
                continue;
            const gcn_block *blk = &cfg->blocks[b];
            unsigned nw = ~0u;
            for (unsigned s = 0; s <= blk->nsucc; s++) {
                unsigned t = s < blk->nsucc ? blk->succ[s] : (PD_EXITS(b) ? X : ~0u);
                if (t == ~0u || ipd[t] == ~0u)
                    continue;
                if (nw == ~0u) {
                    nw = t;
                    continue;
                }
                nw = chk_intersect(t, nw, rpn, ipd);
            }
            if (nw != ipd[b]) {
                ipd[b] = nw;
                ch = true;
            }
        }
    }
    for (unsigned b = 0; b < nb; b++)
        if (ipd[b] == ~0u)
            ipd[b] = X;                         /* not reached (cannot happen): the exit */
#undef PD_EXITS
    rc = 0;
out:
    free(order); free(rpn); free(stack); free(it); free(toexit); free(vis);
    return rc;
}

bool gcn_cfg_dominates(const gcn_cfg *cfg, unsigned a, unsigned b)
{
    if (a >= cfg->nblocks || b >= cfg->nblocks)
        return false;
    for (unsigned x = b, guard = 0; guard <= cfg->nblocks; guard++) {
        if (x == a)
            return true;
        if (x == GCN_NOBLOCK || cfg->blocks[x].idom == x || cfg->blocks[x].idom == GCN_NOBLOCK)
            return x == a;
        x = cfg->blocks[x].idom;
    }
    return false;
}

int gcn_cfg_index(const gcn_cfg *cfg, uint64_t addr)
{
    unsigned lo = 0, hi = cfg->ninsn;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (cfg->insn[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cfg->ninsn && cfg->insn[lo].addr == addr ? (int)lo : -1;
}

/* ---- driver ------------------------------------------------------------- */

static int build(builder *b, char *err, size_t errlen)
{
    gcn_cfg *cfg = b->cfg;
    if (!in_code(b, cfg->entry)) {
        snprintf(err, errlen, "kernel entry 0x%llx is outside the code",
                 (unsigned long long)cfg->entry);
        return -1;
    }
    /* room for the instructions at once, up to 1,024 (the text holds at most one per 4
     * bytes): doubling from 16 copied the decoded instructions up to six times */
    uint64_t want = b->text_size / 4 + 1 < 1024 ? b->text_size / 4 + 1 : 1024;
    gcn_insn *pi = xgrow(b->insn, &b->cap, (unsigned)want, sizeof *pi);
    if (pi) b->insn = pi;
    gcn_lfacts *pf = xgrow(b->facts, &b->cap2, (unsigned)want, sizeof *pf);
    if (pf) b->facts = pf;
    resolved *pr = xgrow(b->res, &b->cap3, (unsigned)want, sizeof *pr);
    if (pr) b->res = pr;
    push_work(b, cfg->entry);
    for (unsigned round = 0; round < 64; round++) {
        discover(b);
        if (b->oom || make_blocks(b) < 0) {
            snprintf(err, errlen, "out of memory building the CFG");
            return -1;
        }
        if (!resolve_indirect(b))
            break;
    }
    if (b->oom) {
        snprintf(err, errlen, "out of memory building the CFG");
        return -1;
    }
    /* unresolved indirect branches */
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const gcn_lfacts *f = &cfg->facts[i];
        if ((f->kind == GCN_LK_SETPC || f->kind == GCN_LK_SWAPPC) && !b->res[i].known)
            add_issue(b, GCN_CI_INDIRECT, cfg->insn[i].addr, 0);
    }
    /* fall-through off the end of the code */
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const gcn_insn *in = &cfg->insn[i];
        if (falls_through(&cfg->facts[i]) && !in_code(b, in->addr + in->size))
            add_issue(b, GCN_CI_OUTSIDE, in->addr, in->addr + in->size);
    }
    if (dominators(cfg) < 0) {
        snprintf(err, errlen, "out of memory building the CFG");
        return -1;
    }
    unsigned mv = 0;
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        const gcn_lfacts *f = &cfg->facts[i];
        for (unsigned k = 4; k-- > 0;) {        /* highest v0..v255 named */
            uint64_t x = f->uses.v[k] | f->defs.v[k] | f->adefs.v[k];
            if (x) {
                unsigned v = k * 64 + 63 - (unsigned)__builtin_clzll(x);
                mv = v + 1 > mv ? v + 1 : mv;
                break;
            }
        }
    }
    cfg->max_vgpr = mv;
    cfg->issues = b->issues;
    cfg->nissues = b->nissues;
    b->issues = NULL;
    return 0;
}

static void builder_free(builder *b)
{
    free(b->insn);
    free(b->facts);
    free(b->res);
    free(b->work);
    free(b->issues);
    amap_free(&b->map);
    amap_free(&b->list_map);
}

int gcn_cfg_build(gcn_cfg *cfg, gcn_target t, const uint8_t *text, uint64_t text_addr,
                  uint64_t text_size, uint64_t entry, char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->dec.target = t;
    cfg->entry = entry;
    builder b;
    memset(&b, 0, sizeof b);
    b.cfg = cfg;
    b.text = text;
    b.text_addr = text_addr;
    b.text_size = text_size;
    int rc = build(&b, err, errlen);
    builder_free(&b);
    return rc;
}

int gcn_cfg_build_list(gcn_cfg *cfg, gcn_target t, const gcn_insn *insns,
                       const gcn_lfacts *facts, unsigned n, uint64_t entry,
                       char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->dec.target = t;
    cfg->entry = entry;
    builder b;
    memset(&b, 0, sizeof b);
    b.cfg = cfg;
    b.list_insn = insns;
    b.list_facts = facts;
    b.list_n = n;
    for (unsigned i = 0; i < n; i++)
        if (amap_put(&b.list_map, insns[i].addr, i) < 0) {
            snprintf(err, errlen, "out of memory");
            builder_free(&b);
            return -1;
        }
    int rc = build(&b, err, errlen);
    builder_free(&b);
    return rc;
}

void gcn_cfg_free(gcn_cfg *cfg)
{
    free_blocks(cfg);
    free(cfg->insn);
    free(cfg->facts);
    free(cfg->issues);
    memset(cfg, 0, sizeof *cfg);
}

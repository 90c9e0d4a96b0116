/*
 * suggest.c -- for every s_waitcnt, the loosest vmcnt / lgkmcnt value that is
 * still safe on all paths, and the path that forces it.
 *
 * For a wait W and a counter, let F(N) be the findings of the analysis with
 * W's value for that counter replaced by N (everything else unchanged).
 * F grows with N (a looser wait leaves more operations pending on every
 * path through W), so the loosest safe value is the largest N with
 * F(N) = F(0), found by bisection; F(N + 1) \ F(0) names the producer,
 * consumer and path that force it, and replaying that path to W gives the
 * queue length there ("vmcnt(4) would be unsafe on the first iteration of
 * the loop at line 40, when the queue holds 5 operations").
 * Safety here is about registers and LDS the wave itself reads; waits kept
 * for memory ordering towards other waves or the host are not modelled.
 */
#include <stdlib.h>
#include <string.h>
#include "waits_int.h"

typedef struct keyset {
    uint64_t *k;
    unsigned n;
} keyset;

static uint64_t rec_key(const wrec *r)
{
    return (uint64_t)r->check << 56 | (uint64_t)(r->i & 0xFFFFFFF) << 28 | (r->p & 0xFFFFFFF);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool keyset_has(const keyset *s, uint64_t k)
{
    return bsearch(&k, s->k, s->n, sizeof k, cmp_u64) != NULL;
}

typedef struct sctx {
    const gcn_cfg *cfg;
    const gcn_values *vals;
    gcn_lint_opts o;
    gcn_wait_override *ovr;      /* one per s_waitcnt, sorted; holds the choices so far */
    unsigned novr;
    gcn_paths *paths;            /* the path facts, built once for all the runs */
} sctx;

static gcn_wait_override *ovr_of(sctx *c, unsigned w)
{
    for (unsigned k = 0; k < c->novr; k++)
        if (c->ovr[k].insn == w)
            return &c->ovr[k];
    return NULL;
}

/* Run with wait w's counter q set to N (the other waits as chosen so far);
 * keys in *ks (sorted).  Keeps the run in *keep if non-NULL. */
static int run_keys(sctx *c, unsigned w, unsigned q, unsigned N, keyset *ks, wrun *keep)
{
    gcn_wait_override *ov = ovr_of(c, w), saved = *ov;
    if (q == WQ_VM)
        ov->vm = (uint8_t)N;
    else
        ov->lgkm = (uint8_t)N;
    c->o.ovr = c->ovr;
    c->o.novr = c->novr;
    wrun r;
    int rc = gcn_waits_explore_paths(&r, c->cfg, c->vals, &c->o, c->paths);
    *ov = saved;
    if (rc < 0) {
        gcn_waits_free(&r);
        return -1;
    }
    ks->n = r.nrecs;
    ks->k = malloc(sizeof *ks->k * (r.nrecs ? r.nrecs : 1));
    if (!ks->k) {
        gcn_waits_free(&r);
        return -1;
    }
    for (unsigned k = 0; k < r.nrecs; k++)
        ks->k[k] = rec_key(&r.recs[k]);
    qsort(ks->k, ks->n, sizeof *ks->k, cmp_u64);
    if (keep)
        *keep = r;
    else
        gcn_waits_free(&r);
    return 0;
}

static bool same(const keyset *a, const keyset *b)
{
    for (unsigned i = 0; i < b->n; i++)
        if (!keyset_has(a, b->k[i]))
            return false;
    return true;
}

static void wait_text(unsigned q, unsigned N, gcn_strbuf *sb)
{
    if (N == GCN_WAIT_NONE)
        gcn_sb_printf(sb, "no %s wait", gcn_ctr_name(q));
    else
        gcn_sb_printf(sb, "%s(%u)", gcn_ctr_name(q), N);
}

/* Describe why N is unsafe: the first new finding of run r, its path to w. */
static void forced_by(sctx *c, const wrun *r, const keyset *base, unsigned w, unsigned q,
                      unsigned N, gcn_strbuf *sb)
{
    const wrec *rec = NULL;
    for (unsigned k = 0; k < r->nrecs; k++)
        if (!keyset_has(base, rec_key(&r->recs[k]))) {
            rec = &r->recs[k];
            break;
        }
    if (!rec)
        return;
    unsigned n;
    unsigned *path = gcn_waits_path(r, rec->node, &n);
    if (!path)
        return;
    unsigned wb = c->cfg->block_of[w];
    int at = -1;
    for (unsigned k = n; k-- > 0;) {
        if (r->nodes[path[k]].block != wb)
            continue;
        if (k == n - 1 && rec->i <= w)
            continue;
        at = (int)k;
        break;
    }
    gcn_sb_puts(sb, "; ");
    wait_text(q, N, sb);
    gcn_sb_puts(sb, " would be unsafe");
    if (at >= 0) {
        size_t mark = sb->len;
        gcn_sb_puts(sb, " ");
        size_t mark2 = sb->len;
        gcn_waits_path_phrase(r, path, (unsigned)at + 1, wb, sb);
        bool phrase = sb->len != mark2;
        if (!phrase) {
            sb->len = mark;
            sb->buf[mark] = 0;
        }
        wstate s;
        if (gcn_wstate_init(&s, r->qcap) == 0) {
            gcn_wstate_load(&s, r->nodes[path[at]].st);
            const gcn_block *blk = &c->cfg->blocks[wb];
            for (unsigned i = blk->first; i < w && i <= blk->last; i++)
                gcn_waits_step(r, &s, i);
            gcn_sb_printf(sb, "%s when the %s queue holds %u operation%s", phrase ? "," : "",
                          gcn_ctr_name(q),
                          s.n[q], s.n[q] == 1 ? "" : "s");
            gcn_wstate_free(&s);
        }
    } else {
        gcn_sb_puts(sb, " ");
        gcn_waits_path_phrase(r, path, n, r->nodes[rec->node].block, sb);
    }
    gcn_sb_puts(sb, ": '");
    gcn_lint_insn_text(c->cfg, rec->p, sb);
    gcn_sb_puts(sb, "' (");
    gcn_lint_loc(&c->o, c->cfg->insn[rec->p].addr, sb);
    gcn_sb_puts(sb, ") would still be pending at '");
    gcn_lint_insn_text(c->cfg, rec->i, sb);
    gcn_sb_puts(sb, "' (");
    gcn_lint_loc(&c->o, c->cfg->insn[rec->i].addr, sb);
    gcn_sb_printf(sb, ") [%s]", gcn_check_name(wrec_check(rec->check)));
    free(path);
}

/* Findings of the current choices, and those a fix of wait w (counter q)
 * would address: the ones whose last wait on their path is w. */
static int current(sctx *c, unsigned w, unsigned q, keyset *all, keyset *mine)
{
    const gcn_lfacts *f = &c->cfg->facts[w];
    unsigned cur = q == WQ_VM ? f->wait_vm : f->wait_lgkm;
    gcn_wait_override *ov = ovr_of(c, w);
    unsigned now = q == WQ_VM ? ov->vm : ov->lgkm;
    (void)cur;
    wrun r;
    if (run_keys(c, w, q, now, all, &r) < 0)
        return -1;
    mine->n = 0;
    mine->k = malloc(sizeof *mine->k * (r.nrecs ? r.nrecs : 1));
    if (!mine->k) {
        gcn_waits_free(&r);
        return -1;
    }
    for (unsigned k = 0; k < r.nrecs; k++)
        if (r.recs[k].q == q && gcn_waits_last_wait(&r, &r.recs[k]) == (int)w)
            mine->k[mine->n++] = rec_key(&r.recs[k]);
    qsort(mine->k, mine->n, sizeof *mine->k, cmp_u64);
    gcn_waits_free(&r);
    return 0;
}

/* base := all \ mine */
static void minus(keyset *base, const keyset *all, const keyset *mine)
{
    base->n = 0;
    for (unsigned i = 0; i < all->n; i++)
        if (!keyset_has(mine, all->k[i]))
            base->k[base->n++] = all->k[i];
}

static int suggest_one(sctx *c, unsigned w, unsigned q, gcn_findings *out)
{
    const gcn_lfacts *f = &c->cfg->facts[w];
    unsigned cur = q == WQ_VM ? f->wait_vm : f->wait_lgkm;
    unsigned max = q == WQ_VM ? GCN_VMCNT_MAX : GCN_LGKMCNT_MAX;
    bool changed_before = false;        /* an earlier wait was changed */
    for (unsigned k = 0; k < c->novr; k++) {
        const gcn_lfacts *g = &c->cfg->facts[c->ovr[k].insn];
        if (c->ovr[k].insn < w && (c->ovr[k].vm != g->wait_vm || c->ovr[k].lgkm != g->wait_lgkm))
            changed_before = true;
    }
    keyset all = {0}, mine = {0}, base = {0}, k = {0};
    int rc = -1;
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    if (current(c, w, q, &all, &mine) < 0)
        goto done;
    base.k = malloc(sizeof *base.k * (all.n ? all.n : 1));
    if (!base.k)
        goto done;
    minus(&base, &all, &mine);
    /* safe(N): no finding beyond the ones this wait is not responsible for;
     * safe is monotone (true for small N).  Search the largest safe N. */
    unsigned lo, hi;        /* lo safe (or none below), hi unsafe */
    bool fixable = true;
    if (mine.n) {           /* too loose: somewhere in [0, cur) */
        if (run_keys(c, w, q, 0, &k, NULL) < 0)
            goto done;
        fixable = same(&base, &k);
        lo = 0;
        hi = cur;
    } else {                /* safe now: somewhere in [cur, no wait] */
        lo = cur;
        hi = max;
        free(k.k);
        k.k = NULL;
        if (run_keys(c, w, q, GCN_WAIT_NONE, &k, NULL) < 0)
            goto done;
        if (same(&base, &k))
            lo = hi = max;  /* no consumer needs it */
    }
    while (fixable && hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        free(k.k);
        k.k = NULL;
        if (run_keys(c, w, q, mid, &k, NULL) < 0)
            goto done;
        if (same(&base, &k))
            lo = mid;
        else
            hi = mid;
    }
    unsigned loosest = lo >= max ? GCN_WAIT_NONE : lo, unsafe = hi;
    int check;
    gcn_sb_puts(&sb, "s_waitcnt ");
    wait_text(q, cur, &sb);
    if (!fixable) {
        check = GCN_CHK_WAIT_SUGGEST;
        gcn_sb_printf(&sb, " is too loose, and not even %s(0) here fixes every finding it is "
                           "the last wait of: other waits must change too", gcn_ctr_name(q));
        loosest = cur;
    } else if (loosest == GCN_WAIT_NONE) {
        check = GCN_CHK_WAIT_STRONGER;
        gcn_sb_printf(&sb, ": no register or LDS access on any path needs this %s wait; it can "
                           "be dropped (unless it orders memory for other waves or the host)",
                      gcn_ctr_name(q));
    } else {
        if (loosest > cur) {
            check = GCN_CHK_WAIT_STRONGER;
            gcn_sb_puts(&sb, " is stronger than needed: ");
            wait_text(q, loosest, &sb);
            gcn_sb_puts(&sb, " is safe on every path");
        } else if (loosest == cur) {
            check = GCN_CHK_WAIT_SUGGEST;
            gcn_sb_puts(&sb, " is the loosest safe value");
        } else {
            check = GCN_CHK_WAIT_SUGGEST;
            gcn_sb_puts(&sb, " is too loose: the loosest safe value is ");
            wait_text(q, loosest, &sb);
        }
        wrun ru;
        keyset ku = {0};
        unsigned N = unsafe >= max ? GCN_WAIT_NONE : unsafe;
        if (run_keys(c, w, q, N, &ku, &ru) == 0) {
            forced_by(c, &ru, &base, w, q, N, &sb);
            gcn_waits_free(&ru);
        }
        free(ku.k);
    }
    if (changed_before)
        gcn_sb_puts(&sb, " (with the earlier waits as suggested above)");
    /* later waits are judged with this one at its loosest safe value */
    if (loosest != cur) {
        gcn_wait_override *ov = ovr_of(c, w);
        if (q == WQ_VM)
            ov->vm = (uint8_t)loosest;
        else
            ov->lgkm = (uint8_t)loosest;
    }
    gcn_finding fd = {.check = check, .severity = GCN_SEV_NOTE, .addr = c->cfg->insn[w].addr,
                      .producer = -1, .wait = (int64_t)c->cfg->insn[w].addr,
                      .msg = strdup(sb.buf ? sb.buf : "")};
    gcn_findings_add(out, &fd);
    rc = 0;
done:
    gcn_sb_free(&sb);
    free(all.k);
    free(mine.k);
    free(base.k);
    free(k.k);
    return rc;
}

int gcn_lint_suggest(const gcn_cfg *cfg, const gcn_values *vals, const gcn_lint_opts *o,
                     gcn_findings *out)
{
    sctx c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.vals = vals;
    if (o)
        c.o = *o;
    c.o.explain = false;
    c.ovr = malloc(sizeof *c.ovr * (cfg->ninsn ? cfg->ninsn : 1));
    if (!c.ovr)
        return -1;
    for (unsigned i = 0; i < cfg->ninsn; i++)
        if (cfg->facts[i].kind == GCN_LK_WAITCNT)
            c.ovr[c.novr++] = (gcn_wait_override){i, cfg->facts[i].wait_vm,
                                                  cfg->facts[i].wait_lgkm};
    bool own = false;
    if (c.novr && !c.o.all_paths) {
        c.paths = c.o.paths;
        if (!c.paths) {
            c.paths = gcn_paths_build(cfg);
            own = true;
        }
    }
    int n = 0;
    for (unsigned k = 0; k < c.novr && n >= 0; k++) {
        unsigned i = c.ovr[k].insn;
        const gcn_lfacts *f = &cfg->facts[i];
        for (unsigned q = 0; q < 2; q++) {
            unsigned cur = q == WQ_VM ? f->wait_vm : f->wait_lgkm;
            if (cur == GCN_WAIT_NONE)
                continue;
            if (suggest_one(&c, i, q, out) < 0) {
                n = -1;
                break;
            }
            n++;
        }
    }
    if (own)
        gcn_paths_free(c.paths);
    free(c.ovr);
    return n;
}

/*
 * xwave.c -- LDS races between the waves of one work-group.
 *
 * All waves of a work-group run the same code; nothing orders their LDS
 * accesses but s_barrier.  Two DS accesses A and B (at least one a write, an
 * LDS-DMA load counting as a write) are in the same barrier interval when
 * some path leads from one to the other without an s_barrier; then one wave
 * may execute A while another executes B.  They race if the LDS bytes wave x
 * touches with A can meet the bytes another wave y touches with B.  The
 * ranges come from values.c: base + wave_base_id * k + [lo, hi) with
 * wave_base_id = 64 * wave index (1-D work-groups, as values.c assumes), so
 * per-wave private regions (e.g. M0 = 4 * wave base + buffer offset) are told
 * apart for every pair of wave indexes below the work-group's wave count;
 * unknown ranges may overlap, except that two writes of unknown ranges are
 * not reported (waves filling a shared tile, each its own part, look like
 * that).  DS atomics are not races.  FLAT accesses that
 * may reach LDS are not considered (the check may miss those).
 * (Pending LDS writes at a barrier are barrier-lds-pending, waits.c.)
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"

/* Split a range base into its wave_base_id coefficient and the rest. */
static int64_t wave_coeff(const gcn_aval *b, gcn_aval *rest)
{
    int64_t k = 0;
    *rest = *b;
    rest->nt = 0;
    for (unsigned i = 0; i < b->nt; i++) {
        if (b->sym[i] == GCN_SYM_WAVE) {
            k = b->k[i];
        } else {
            rest->sym[rest->nt] = b->sym[i];
            rest->k[rest->nt++] = b->k[i];
        }
    }
    return k;
}

static bool same_rest(const gcn_aval *a, const gcn_aval *b)
{
    if (a->nt != b->nt)
        return false;
    for (unsigned i = 0; i < a->nt; i++)
        if (a->sym[i] != b->sym[i] || a->k[i] != b->k[i])
            return false;
    return true;
}

/* May wave x's access a and another wave y's access b touch a common byte? */
static bool cross_wave_overlap(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves)
{
    if (!a->known || !b->known)
        return true;
    gcn_aval ra, rb;
    int64_t ka = wave_coeff(&a->base, &ra), kb = wave_coeff(&b->base, &rb);
    if (!same_rest(&ra, &rb))
        return true;
    for (unsigned x = 0; x < nwaves; x++)
        for (unsigned y = 0; y < nwaves; y++) {
            if (x == y)
                continue;
            int64_t ao = ka * 64 * (int64_t)x, bo = kb * 64 * (int64_t)y;
            if (a->lo + ao < b->hi + bo && b->lo + bo < a->hi + ao)
                return true;
        }
    return false;
}

static bool is_access(const gcn_lfacts *f)
{
    return f->lds && !(f->flags & GCN_F_ATOMIC);
}

static bool writes(const gcn_lfacts *f)
{
    return (f->lds & (GCN_LL_WRITE | GCN_LL_DMA)) != 0;
}

/* Mark in `hit` every instruction reachable from i (exclusive) without
 * passing an s_barrier. */
static void reach(const gcn_cfg *cfg, unsigned i, unsigned char *hit, unsigned char *seen,
                  unsigned *stack)
{
    memset(hit, 0, cfg->ninsn);
    memset(seen, 0, cfg->nblocks);
    unsigned sp = 0;
    unsigned b = cfg->block_of[i];
    bool stopped = false;
    for (unsigned j = i + 1; j <= cfg->blocks[b].last; j++) {
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

int gcn_lint_xwave(const gcn_cfg *cfg, const gcn_values *vals, unsigned nwaves,
                   const gcn_lint_opts *o, gcn_findings *out)
{
    if (nwaves <= 1 || !cfg->ninsn)
        return 0;
    unsigned n = cfg->ninsn;
    unsigned char *hit = malloc(n), *seen = malloc(cfg->nblocks ? cfg->nblocks : 1);
    unsigned *stack = malloc(sizeof *stack * (cfg->nblocks ? cfg->nblocks : 1));
    int *race = malloc(sizeof *race * n);        /* access -> racing write, -1 */
    if (!hit || !seen || !stack || !race) {
        free(hit); free(seen); free(stack); free(race);
        return -1;
    }
    for (unsigned i = 0; i < n; i++)
        race[i] = -1;
    gcn_ldsrange unknown;
    memset(&unknown, 0, sizeof unknown);
    for (unsigned a = 0; a < n; a++) {
        if (!is_access(&cfg->facts[a]))
            continue;
        reach(cfg, a, hit, seen, stack);
        for (unsigned b = 0; b < n; b++) {
            if (!hit[b] || !is_access(&cfg->facts[b]))
                continue;
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
            if (!cross_wave_overlap(ra, rb, nwaves))
                continue;
            /* report at the read (or at the later write), naming the write */
            unsigned at = (!wb || (wa && wb)) ? b : a, w = at == b ? a : b;
            if (!writes(&cfg->facts[w]))
                w = at == b ? b : a;
            if (race[at] < 0 || (unsigned)race[at] > w)
                race[at] = (int)w;
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
        gcn_sb_printf(&sb, "): no s_barrier separates them on some path, so the waves are "
                           "not ordered, and %s", 
                      vals && vals->lds && vals->lds[i].known && vals->lds[w].known
                          ? "their LDS ranges overlap across waves"
                          : "the LDS addresses are not known to be private to each wave");
        gcn_sb_printf(&sb, " (%u waves per work-group)", nwaves);
        gcn_finding f = {.check = GCN_CHK_LDS_XWAVE, .severity = GCN_SEV_ERROR,
                         .addr = cfg->insn[i].addr, .producer = (int64_t)cfg->insn[w].addr,
                         .wait = -1, .msg = strdup(sb.buf ? sb.buf : "")};
        gcn_sb_free(&sb);
        gcn_findings_add(out, &f);
        added++;
    }
    free(hit); free(seen); free(stack); free(race);
    return added;
}

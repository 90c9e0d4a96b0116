/*
 * fault.c -- what instructions report: a kernel fault (sim_fault: the first one
 * stops the run, with the instruction, wave and workgroup in the message) and the
 * findings (sim_finding*: one entry per kind, consumer pc, producer pc and hazard
 * rule, counting its occurrences; a finding with a fix keeps, per counter, the
 * tightest wait over the occurrences at the same place).  With --strict the first
 * finding stops the run.  Naming, printing and grouping: findings.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"
#include "trace.h"

void sim_fault(sim_x *x, const char *fmt, ...)
{
    gcn_sim *s = x->sim;
    if (s->faulted)
        return;
    s->faulted = 1;
    s->stop = 1;
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const sim_insn *i = x->i;
    const sim_wg *g = x->g;
    if (i) {
        s->fault_at.pc = i->pc;
        snprintf(s->fault_at.sym, sizeof s->fault_at.sym, "%s", i->sym ? i->sym : "");
        snprintf(s->fault_at.file, sizeof s->fault_at.file, "%s", i->file ? i->file : "");
        s->fault_at.line = i->file ? i->line : 0;
    }
    if (i)
        snprintf(s->fault, sizeof s->fault, "%s\n  at pc 0x%llx%s%s%s%s%s: %s\n  wave %u of workgroup (%u,%u,%u)",
                 msg, (unsigned long long)i->pc, i->sym ? " (" : "", i->sym ? i->sym : "",
                 i->sym ? ")" : "", i->where ? " " : "", i->where ? i->where : "",
                 i->text, x->w ? x->w->idx : 0, g ? g->id[0] : 0, g ? g->id[1] : 0,
                 g ? g->id[2] : 0);
    else
        snprintf(s->fault, sizeof s->fault, "%s", msg);
}

static char *dupz(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* detail = the explanation, then the sentence proposing the fix */
void sim_compose_detail(gcn_sim_finding *f)
{
    if (!f->fix_how || (f->fix_vmcnt < 0 && f->fix_lgkmcnt < 0))
        return;
    char wt[64], how[256];
    gcn_sim_fix_text(f, wt, sizeof wt);
    snprintf(how, sizeof how, f->fix_how, wt);
    const char *base = f->detail_base ? f->detail_base : "";
    size_t n = strlen(base) + strlen(how) + 3;
    char *d = malloc(n);
    if (!d)
        return;
    snprintf(d, n, "%s: %s", base, how);
    free(f->detail);
    f->detail = d;
}

/* A new entry of s's finding list for consumer cons (producer prod, may be NULL), its
 * texts copied, no fix and no occurrence yet; NULL when the list cannot grow. */
static gcn_sim_finding *new_finding(gcn_sim *s, gcn_sim_finding_kind k, const char *rule,
                                    const sim_insn *cons, const sim_insn *prod,
                                    const char *detail)
{
    if (s->nfinds == s->cap_finds) {
        unsigned nc = s->cap_finds ? 2 * s->cap_finds : 16;
        gcn_sim_finding *nf = realloc(s->finds, nc * sizeof *nf);
        if (!nf)
            return NULL;
        s->finds = nf;
        s->cap_finds = nc;
    }
    gcn_sim_finding *f = &s->finds[s->nfinds++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->rule = dupz(rule);
    f->pc = cons->pc;
    f->text = dupz(cons->text);
    f->where = dupz(cons->where);
    f->file = dupz(cons->file);
    f->line = cons->line;
    f->prod_pc = prod ? prod->pc : ~0ull;
    f->prod_text = prod ? dupz(prod->text) : NULL;
    f->prod_where = prod ? dupz(prod->where) : NULL;
    f->sym = dupz(cons->sym);
    f->prod_sym = prod ? dupz(prod->sym) : NULL;
    f->detail = dupz(detail);
    f->fix_pc = ~0ull;
    return f;
}

static void add_finding(gcn_sim *s, sim_wave *w, const sim_insn *cons, gcn_sim_finding_kind k,
                        const char *rule, const sim_insn *prod, uint64_t lanes,
                        const char *detail, const sim_fix *fx, const sim_insn *at,
                        const char *how)
{
    uint64_t ppc = prod ? prod->pc : ~0ull;
    int fvm = fx ? fx->vm : -1, flg = fx ? fx->lgkm : -1;
    if (!at)
        at = cons;
    /* a thread's copy keeps the occurrences whose fix goes before another instruction
     * apart (merge_finding combines them as this loop would have) */
    uint64_t kfix = fvm >= 0 || flg >= 0 ? at->pc : ~0ull;
    for (unsigned i = 0; i < s->nfinds; i++) {
        gcn_sim_finding *f = &s->finds[i];
        if (f->kind == k && f->pc == cons->pc && f->prod_pc == ppc && sim_same_str(f->rule, rule) &&
            (!s->wgkey || f->fix_pc == kfix)) {
            f->count++;
            /* the fix must retire the producer on every path: the tightest count of each
             * counter over the occurrences (at the same place) */
            if ((fvm >= 0 || flg >= 0) && f->fix_pc == at->pc) {
                int ch = 0;
                if (fvm >= 0 && (f->fix_vmcnt < 0 || fvm < f->fix_vmcnt))
                    f->fix_vmcnt = fvm, ch = 1;
                if (flg >= 0 && (f->fix_lgkmcnt < 0 || flg < f->fix_lgkmcnt))
                    f->fix_lgkmcnt = flg, ch = 1;
                if (ch)
                    sim_compose_detail(f);
            }
            return;
        }
    }
    gcn_sim_finding *f = new_finding(s, k, rule, cons, prod, detail);
    if (!f)
        return;
    f->fix_vmcnt = fvm;
    f->fix_lgkmcnt = flg;
    if (fvm >= 0 || flg >= 0) {
        f->fix_pc = at->pc;
        f->fix_text = dupz(at->text);
        f->fix_where = dupz(at->where);
        f->fix_sym = dupz(at->sym);
        f->fix_how = how;
        f->detail_base = dupz(detail);
        sim_compose_detail(f);
    }
    f->lanes = lanes;
    f->count = 1;
    if (w && w->wg) {
        f->wg[0] = w->wg->id[0];
        f->wg[1] = w->wg->id[1];
        f->wg[2] = w->wg->id[2];
    }
    f->wave = w ? w->idx : 0;
    if (s->o.strict)
        s->finding_stop = s->stop = 1;
    if (s->trace)
        sim_trace_finding(s->trace, w, f);
}

int sim_finding_site(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod,
                     const char *detail)
{
    gcn_sim *s = x->sim;
    const sim_insn *cons = x->i;
    uint64_t ppc = prod ? prod->pc : ~0ull;
    for (unsigned i = 0; i < s->nfinds; i++) {
        const gcn_sim_finding *f = &s->finds[i];
        if (f->kind == k && f->pc == cons->pc && f->prod_pc == ppc && !f->rule &&
            (!s->wgkey || f->fix_pc == ~0ull))
            return (int)i;
    }
    gcn_sim_finding *f = new_finding(s, k, NULL, cons, prod, detail);
    if (!f)
        return -1;
    f->fix_vmcnt = f->fix_lgkmcnt = -1;
    f->count = 0;               /* (no occurrence yet) */
    return (int)(s->nfinds - 1);
}

void sim_finding_occur(gcn_sim *s, int fi, sim_wave *w, uint64_t lanes, uint64_t seq)
{
    if (fi < 0 || (unsigned)fi >= s->nfinds)
        return;
    gcn_sim_finding *f = &s->finds[fi];
    if (!f->count || seq < f->first_seq) {
        f->first_seq = seq;
        f->lanes = lanes;
        if (w && w->wg) {
            f->wg[0] = w->wg->id[0];
            f->wg[1] = w->wg->id[1];
            f->wg[2] = w->wg->id[2];
        }
        f->wave = w ? w->idx : 0;
    }
    if (f->count++)
        return;
    if (s->o.strict)
        s->finding_stop = s->stop = 1;
    if (s->trace)
        sim_trace_finding(s->trace, w, f);
}

void sim_finding_prune(gcn_sim *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->nfinds; i++) {
        gcn_sim_finding *f = &s->finds[i];
        if (f->count) {
            if (n != i)
                s->finds[n] = *f;
            n++;
            continue;
        }
        free(f->text); free(f->where); free(f->file); free(f->prod_text); free(f->prod_where);
        free(f->detail); free(f->sym); free(f->prod_sym); free(f->rule);
        free(f->fix_text); free(f->fix_where); free(f->fix_sym); free(f->detail_base);
    }
    s->nfinds = n;
}

void sim_finding_w(gcn_sim *s, sim_wave *w, const sim_insn *cons, gcn_sim_finding_kind k,
                   const sim_insn *prod, uint64_t lanes, const char *detail)
{
    add_finding(s, w, cons, k, NULL, prod, lanes, detail, NULL, NULL, NULL);
}

void sim_finding_rule(gcn_sim *s, sim_wave *w, const sim_insn *cons, const char *rule,
                      const sim_insn *prod, uint64_t lanes, const char *detail)
{
    add_finding(s, w, cons, GCN_FIND_HAZARD, rule, prod, lanes, detail, NULL, NULL, NULL);
}

void sim_finding(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod, uint64_t lanes,
                 const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add_finding(x->sim, x->w, x->i, k, NULL, prod, lanes, buf, NULL, NULL, NULL);
}

void sim_finding_fix(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod, uint64_t lanes,
                     const sim_fix *fx, const sim_insn *at, const char *how, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add_finding(x->sim, x->w, x->i, k, NULL, prod, lanes, buf, fx, at, how);
}

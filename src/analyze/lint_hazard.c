/*
 * lint_hazard.c -- the linter's hook for wait-state (hazard) rules (written
 * by the lint helper as src/analyze/hazard.c; moved here when the hazard
 * engine took that name): the hazard engine (src/analyze/hazards.def,
 * gcn_hazard.h) run over the CFG, with the histories of a block's
 * predecessors joined, and the rule list for --list-checks.  (A second,
 * predicate-pair search that only tests used is gone: every rule is a row
 * of hazards.def.)  A path shorter than the rule's window is a finding,
 * reported at the consumer with the producer as related location.  Rules the ISA guide or
 * rocRoller require are errors; the llvm-conservative ones (what only LLVM
 * requires) are checked with gcn_lint_opts.hz_llvm only, as warnings.  With
 * --explain a finding says the rule, its source and its wait states.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lint.h"
#include "gcn_hazard.h"

#define HZ_GFX942 (1u << GCN_TARGET_GFX942)
#define HZ_GFX950 (1u << GCN_TARGET_GFX950)

/* The built-in rules are the hazard engine's (hazards.def), listed here with
 * their names in check style ("xdl-srcab") and no predicates: they are
 * evaluated by gcn_lint_hazards through the engine, not by the predicate
 * checker below. */
static gcn_hazard_rule *builtin;
static unsigned nbuiltin;

/* Short references of rule i for --list-checks: "ISA 4.5; rocRoller
 * VALUWriteSGPRVMEM; LLVM checkVMEMHazards" (the sections and observers its
 * citation names; an llvm-conservative rule cites LLVM only). */
static void short_refs(unsigned i, const gcn_hz_rule *h, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    const char *p = h->cite;
    while (!h->llvm_only && p && *p) {
        const char *e = strstr(p, "; ");
        size_t pl = e ? (size_t)(e - p) : strlen(p);
        size_t k = 0;
        if (!strncmp(p, "ISA ", 4)) {
            while (k < pl && p[k] != ':' && p[k] != ',' && !(p[k] == ' ' && k > 8))
                k++;
            if (k < pl && p[k] == ' ' && p[k + 1] == '(')   /* "ISA 4.5 (CDNA4)" */
                while (k < pl && p[k] != ')' && p[k] != ':')
                    k++, k += p[k] == ')';
        } else if (!strncmp(p, "rocRoller ", 10)) {
            k = 10;
            while (k < pl && p[k] != ' ' && p[k] != ':' && p[k] != ',' && p[k] != '.')
                k++;
        }
        if (k && n + k + 3 < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? "; " : "", (int)k, p);
        p = e ? e + 2 : NULL;
    }
    if (h->src & GCN_HZ_SRC_LLVM)
        snprintf(buf + n, len - n, "%sLLVM %s", n ? "; " : "", h->func);
    (void)i;
}

static void build_builtin_once(void)
{
    unsigned n = gcn_hz_rule_count();
    gcn_hazard_rule *r = calloc(n + 1, sizeof *r);
    if (!r)
        return;
    for (unsigned i = 0; i < n; i++) {
        const gcn_hz_rule *h = gcn_hz_rule_get(i);
        char *name = strdup(h->name), *why = NULL, refs[256], wt[64];
        for (char *c = name; c && *c; c++)
            *c = *c == '_' ? '-' : (char)tolower((unsigned char)*c);
        short_refs(i, h, refs, sizeof refs);
        gcn_hz_rule_wait_text(i, wt, sizeof wt);
        size_t len = strlen(h->desc) + strlen(refs) + 160;
        why = malloc(len);
        if (why)
            snprintf(why, len, "%s; %s wait state%s; %s [%s]", h->desc, wt,
                     strcmp(wt, "1") ? "s" : "",
                     h->llvm_only ? "llvm-conservative (warning, -Wllvm-conservative)" : "error",
                     refs);
        r[i].name = name;
        r[i].targets = ((h->targets & 1) ? HZ_GFX942 : 0) | ((h->targets & 2) ? HZ_GFX950 : 0);
        r[i].why = why;
    }
    builtin = r;
    nbuiltin = n;
}

/* Once per process: files are linted on several threads (gcnlint -j). */
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void build_builtin(void)
{
    pthread_once(&builtin_once, build_builtin_once);
}

const gcn_hazard_rule *gcn_hazard_rules(unsigned *n)
{
    build_builtin();
    *n = nbuiltin;
    return builtin;
}

unsigned gcn_hazard_wait_states(const gcn_lfacts *f)
{
    return f->kind == GCN_LK_NOP ? f->nop_states : 1;
}

static int lint_engine(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out);

/* --explain text of a hazard finding: the rule, its class, its wait states
 * and its source. */
static char *hz_explain(unsigned rule, const gcn_hz_rule *r, const gcn_hz_finding *f)
{
    char src[1024], wt[64];
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_hz_rule_source(rule, src, sizeof src);
    gcn_hz_rule_wait_text(rule, wt, sizeof wt);
    gcn_sb_printf(&sb, "  rule %s: %s\n", r->name, r->desc);
    gcn_sb_printf(&sb, "  wait states: %s between producer and consumer (here %u needed, "
                       "%u present); every instruction counts 1, s_nop N counts N+1\n",
                  wt, f->required, f->present);
    if (r->llvm_only)
        gcn_sb_printf(&sb, "  class: warning, llvm-conservative (checked with "
                           "-Wllvm-conservative): only LLVM asks for this wait\n");
    else if (r->src & (GCN_HZ_SRC_ISA | GCN_HZ_SRC_ROCROLLER))
        gcn_sb_printf(&sb, "  class: error, required by %s\n",
                      gcn_hz_src_tag(r->src & (GCN_HZ_SRC_ISA | GCN_HZ_SRC_ROCROLLER)));
    else
        gcn_sb_printf(&sb, "  class: error, a hardware hazard LLVM knows (see the source)\n");
    gcn_sb_printf(&sb, "  source (%s): %s\n", gcn_hz_src_tag(r->src), src);
    char *t = strdup(sb.buf ? sb.buf : "");
    gcn_sb_free(&sb);
    return t;
}

int gcn_lint_hazards(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out)
{
    return lint_engine(cfg, o, out);
}

/* ---- the built-in rules: the hazard engine over the CFG ----------------- */

/* The history reaching each block is the join of its predecessors' (a
 * multi-history: LLVM decides per path which producer is nearest), iterated
 * to a fixed point over branches and loop back edges; then every
 * instruction is checked against the history before it, i.e. against the
 * minimum number of wait states over all paths. */
static int lint_engine(const gcn_cfg *cfg, const gcn_lint_opts *o, gcn_findings *out)
{
    if (!cfg->nblocks)
        return 0;
    build_builtin();
    unsigned flags = (o && o->hz_xnack_off) ? 0 : GCN_HZ_XNACK;
    if (o && o->hz_llvm)
        flags |= GCN_HZ_LLVM;
    for (unsigned i = 0; i < cfg->ninsn && !(flags & GCN_HZ_AGPR0); i++)
        for (unsigned k = 0; k < cfg->insn[i].nopnds; k++)
            if (cfg->insn[i].op[k].kind == GCN_OPND_AGPR && cfg->insn[i].op[k].reg == 0)
                flags |= GCN_HZ_AGPR0;
    gcn_hz_insn *hi = malloc((size_t)cfg->ninsn * sizeof *hi);
    /* per block its entry state, made when the block is first reached (an
     * array of all of them, 17 KiB a block, was mapped afresh on every run) */
    gcn_hz_multi **in = calloc(cfg->nblocks, sizeof *in);
    unsigned char *has = calloc(cfg->nblocks, 1), *queued = calloc(cfg->nblocks, 1);
    size_t wcap = (size_t)cfg->nblocks * 64 + 1;
    unsigned *work = malloc(wcap * sizeof *work);
    gcn_hz_multi *st = malloc(sizeof *st), *nw = malloc(sizeof *nw);
    int added = 0;
    if (!hi || !in || !has || !queued || !work || !st || !nw) {
        added = -1;
        goto done;
    }
    for (unsigned i = 0; i < cfg->ninsn; i++)
        gcn_hz_analyze(&cfg->dec, &cfg->insn[i], &hi[i]);
    gcn_hz_state init;
    gcn_hz_reset(&init, cfg->dec.target, flags);
    if (!(in[0] = malloc(sizeof **in))) {
        added = -1;
        goto done;
    }
    gcn_hz_multi_init(in[0], &init);
    has[0] = 1;
    size_t wh = 0, wt = 0;
    work[wt++] = 0;
    queued[0] = 1;
    while (wh < wt) {
        unsigned b = work[wh++];
        queued[b] = 0;
        const gcn_block *blk = &cfg->blocks[b];
        gcn_hz_multi_copy(st, in[b]);
        for (unsigned i = blk->first; i <= blk->last; i++)
            gcn_hz_multi_push(st, &hi[i]);
        for (unsigned s = 0; s < blk->nsucc; s++) {
            unsigned c = blk->succ[s];
            if (!has[c]) {
                if (!(in[c] = malloc(sizeof **in))) {
                    added = -1;
                    goto done;
                }
                gcn_hz_multi_copy(in[c], st);
                has[c] = 1;
            } else {
                gcn_hz_multi_copy(nw, in[c]);
                gcn_hz_multi_join(nw, st);
                if (gcn_hz_multi_same(nw, in[c]))
                    continue;
                gcn_hz_multi_copy(in[c], nw);
            }
            if (!queued[c] && wt < wcap) {   /* the bound ends pathological iterations */
                work[wt++] = c;
                queued[c] = 1;
            }
        }
    }
    gcn_hz_finding f[32];
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    for (unsigned b = 0; b < cfg->nblocks; b++) {
        if (!has[b])
            continue;
        const gcn_block *blk = &cfg->blocks[b];
        gcn_hz_multi_copy(st, in[b]);
        for (unsigned i = blk->first; i <= blk->last; i++) {
            unsigned n = gcn_hz_multi_check(st, &hi[i], f, 32);
            for (unsigned k = 0; k < n && k < 32; k++) {
                const gcn_hz_rule *r = gcn_hz_rule_get(f[k].rule);
                char u[24];
                gcn_sb_reset(&sb);
                gcn_lint_insn_text(cfg, i, &sb);
                gcn_sb_printf(&sb, " needs %u wait state%s after '", f[k].required,
                              f[k].required == 1 ? "" : "s");
                int p = gcn_cfg_index(cfg, f[k].prod_pc);
                if (p >= 0)
                    gcn_lint_insn_text(cfg, (unsigned)p, &sb);
                gcn_sb_puts(&sb, "' (");
                gcn_lint_loc(o, f[k].prod_pc, &sb);
                gcn_sb_printf(&sb, ") but some path has only %u (%s): %s [%s%s]",
                              f[k].present, gcn_hz_unit_name(f[k].unit, u, sizeof u),
                              r ? r->desc : "", r ? gcn_hz_src_tag(r->src) : "",
                              f[k].llvm ? "; llvm-conservative" : "");
                gcn_finding fd = {.check = GCN_CHK_HAZARD,
                                  .severity = f[k].llvm ? GCN_SEV_WARNING : GCN_SEV_ERROR,
                                  .addr = cfg->insn[i].addr, .producer = (int64_t)f[k].prod_pc,
                                  .wait = -1,
                                  .rule = builtin && f[k].rule < nbuiltin ? builtin[f[k].rule].name
                                                                         : (r ? r->name : NULL),
                                  .msg = strdup(sb.buf ? sb.buf : "")};
                if (o && o->explain && r)
                    fd.explain = hz_explain(f[k].rule, r, &f[k]);
                gcn_findings_add(out, &fd);
                added++;
            }
            gcn_hz_multi_push(st, &hi[i]);
        }
    }
    gcn_sb_free(&sb);
done:
    free(hi);
    if (in)
        for (unsigned b = 0; b < cfg->nblocks; b++)
            free(in[b]);
    free(in);
    free(has);
    free(queued);
    free(work);
    free(st);
    free(nw);
    return added;
}

/*
 * hazard.c -- the hook for wait-state (hazard) rules: the built-in table from
 * hazards.def, and a checker that, for each consumer, walks the CFG backwards
 * and finds the fewest wait states to a matching producer over all paths.
 * A path shorter than the rule's window is a finding, reported at the
 * consumer with the producer as related location.
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"

#define HZ_GFX942 (1u << GCN_TARGET_GFX942)
#define HZ_GFX950 (1u << GCN_TARGET_GFX950)

/* Predicate helpers for rows of hazards.def. */
static inline bool hz_salu_writes_m0(const gcn_insn *in, const gcn_lfacts *f)
{
    return in->enc >= GCN_FMT_SOP2 && in->enc <= GCN_FMT_SOPP && gcn_rs_has_s(&f->defs, GCN_RS_M0);
}

static inline bool hz_lds_dma(const gcn_insn *in, const gcn_lfacts *f)
{
    (void)in;
    return (f->lds & GCN_LL_DMA) != 0;
}

static const gcn_hazard_rule builtin[] = {
#define HAZARD(NAME, TARGETS, PRODUCER, CONSUMER, REL, STATES, WHY) \
    {#NAME, (TARGETS), (PRODUCER), (CONSUMER), (REL), (STATES), (WHY), NULL, NULL},
#define HAZARD_FN(NAME, TARGETS, PRODUCER, CONSUMER, MATCH, NEED, WINDOW, WHY) \
    {#NAME, (TARGETS), (PRODUCER), (CONSUMER), GCN_HZ_ANY, (WINDOW), (WHY), (MATCH), (NEED)},
#include "hazards.def"
#undef HAZARD
#undef HAZARD_FN
    {NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL}
};

const gcn_hazard_rule *gcn_hazard_rules(unsigned *n)
{
    *n = sizeof builtin / sizeof builtin[0] - 1;
    (void)hz_salu_writes_m0;
    (void)hz_lds_dma;
    return builtin;
}

unsigned gcn_hazard_wait_states(const gcn_lfacts *f)
{
    return f->kind == GCN_LK_NOP ? f->nop_states : 1;
}

static bool related(const gcn_hazard_rule *r, const gcn_insn *pi, const gcn_lfacts *p,
                    const gcn_insn *ci, const gcn_lfacts *c)
{
    if (r->match)
        return r->match(pi, p, ci, c);
    switch (r->rel) {
    case GCN_HZ_RAW: return gcn_rs_intersects(&p->defs, &c->uses);
    case GCN_HZ_WAW: return gcn_rs_intersects(&p->defs, &c->defs);
    case GCN_HZ_WAR: return gcn_rs_intersects(&p->uses, &c->defs);
    default: return true;
    }
}

/* Backward search state: (block, wait states so far) visited. */
typedef struct hsearch {
    const gcn_cfg *cfg;
    const gcn_hazard_rule *rule;
    unsigned cons;
    unsigned char *seen;      /* nblocks * (states + 1) */
    unsigned *stack;          /* pairs (block, acc) */
    unsigned sp, cap;
    int best_p;               /* producer short of the most wait states */
    unsigned best_acc, best_need;
    int best_short;
} hsearch;

static void push(hsearch *h, unsigned b, unsigned acc)
{
    unsigned w = h->rule->states + 1;
    if (acc >= h->rule->states)
        return;
    size_t key = (size_t)b * w + acc;
    if (h->seen[key])
        return;
    h->seen[key] = 1;
    if (h->sp + 2 > h->cap) {
        unsigned nc = h->cap ? 2 * h->cap : 64;
        unsigned *p = realloc(h->stack, sizeof *p * nc);
        if (!p)
            return;
        h->stack = p;
        h->cap = nc;
    }
    h->stack[h->sp++] = b;
    h->stack[h->sp++] = acc;
}

/* Scan instructions [first, from) of a block backwards with acc states between. */
static void scan(hsearch *h, unsigned b, int from, unsigned acc)
{
    const gcn_cfg *cfg = h->cfg;
    const gcn_block *blk = &cfg->blocks[b];
    const gcn_lfacts *c = &cfg->facts[h->cons];
    const gcn_insn *ci = &cfg->insn[h->cons];
    for (int i = from - 1; i >= (int)blk->first; i--) {
        const gcn_lfacts *p = &cfg->facts[i];
        if (h->rule->producer(&cfg->insn[i], p) && related(h->rule, &cfg->insn[i], p, ci, c)) {
            unsigned need = h->rule->need ? h->rule->need(cfg->dec.target, &cfg->insn[i], p, ci, c)
                                          : h->rule->states;
            if (acc < need && (h->best_p < 0 || (int)(need - acc) > h->best_short)) {
                h->best_p = i;
                h->best_acc = acc;
                h->best_need = need;
                h->best_short = (int)(need - acc);
            }
            /* a nearer producer shadows older ones only for fixed-window rules */
            if (!h->rule->need)
                return;
        }
        acc += gcn_hazard_wait_states(p);
        if (acc >= h->rule->states)
            return;
    }
    for (unsigned k = 0; k < blk->npred; k++)
        push(h, blk->pred[k], acc);
}

int gcn_lint_hazards(const gcn_cfg *cfg, const gcn_hazard_rule *rules, unsigned nrules,
                     const gcn_lint_opts *o, gcn_findings *out)
{
    if (!rules)
        rules = gcn_hazard_rules(&nrules);
    int added = 0;
    for (unsigned r = 0; r < nrules; r++) {
        const gcn_hazard_rule *rule = &rules[r];
        if (!(rule->targets & (1u << cfg->dec.target)) || !rule->states)
            continue;
        hsearch h;
        memset(&h, 0, sizeof h);
        h.cfg = cfg;
        h.rule = rule;
        h.seen = malloc((size_t)cfg->nblocks * (rule->states + 1));
        if (!h.seen)
            return -1;
        for (unsigned i = 0; i < cfg->ninsn; i++) {
            if (!rule->consumer(&cfg->insn[i], &cfg->facts[i]))
                continue;
            memset(h.seen, 0, (size_t)cfg->nblocks * (rule->states + 1));
            h.cons = i;
            h.best_p = -1;
            h.best_short = 0;
            h.sp = 0;
            unsigned b = cfg->block_of[i];
            scan(&h, b, (int)i, 0);
            while (h.sp) {
                unsigned acc = h.stack[--h.sp];
                unsigned pb = h.stack[--h.sp];
                scan(&h, pb, (int)cfg->blocks[pb].last + 1, acc);
            }
            if (h.best_p < 0)
                continue;
            gcn_strbuf sb;
            gcn_sb_init(&sb);
            gcn_lint_insn_text(cfg, i, &sb);
            gcn_sb_printf(&sb, " needs %u wait state%s after '", h.best_need,
                          h.best_need == 1 ? "" : "s");
            gcn_lint_insn_text(cfg, (unsigned)h.best_p, &sb);
            gcn_sb_puts(&sb, "' (");
            gcn_lint_loc(o, cfg->insn[h.best_p].addr, &sb);
            gcn_sb_printf(&sb, ") but some path has only %u", h.best_acc);
            if (rule->why)
                gcn_sb_printf(&sb, ": %s", rule->why);
            gcn_finding f = {.check = GCN_CHK_HAZARD, .severity = GCN_SEV_ERROR,
                             .addr = cfg->insn[i].addr,
                             .producer = (int64_t)cfg->insn[h.best_p].addr, .wait = -1,
                             .rule = rule->name, .msg = strdup(sb.buf ? sb.buf : "")};
            gcn_sb_free(&sb);
            gcn_findings_add(out, &f);
            added++;
        }
        free(h.seen);
        free(h.stack);
    }
    return added;
}

/*
 * hazard.c -- dynamic wait-state (hazard) checks: the simulator counts the
 * wait states each wave issues (s_nop N provides N+1, any other instruction
 * 1) and, at every instruction that is the consumer of a rule of the shared
 * table src/analyze/hazards.def (the same rules gcnlint checks statically),
 * looks back at the producers the wave issued less than the rule's window
 * ago.  A match (with the rule's register relation) is a finding
 * "hazard-<rule>" naming both instructions and the wait states missing.
 * Without rules for the target nothing is classified and the inner loop
 * pays one well-predicted branch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"
#include "analyze/lint.h"

void sim_hz_init(gcn_sim *s, gcn_target t)
{
    unsigned n = 0;
    const gcn_hazard_rule *r = gcn_hazard_rules(&n);
    s->nhz = 0;
    s->hz_max = 0;
    for (unsigned i = 0; i < n && s->nhz < 32; i++) {
        if (!(r[i].targets & (1u << t)) || !r[i].producer || !r[i].consumer)
            continue;
        s->hz[s->nhz++] = &r[i];
        if (r[i].states > s->hz_max)
            s->hz_max = r[i].states;
    }
}

void sim_hz_classify(gcn_sim *s, sim_insn *si, gcn_target t)
{
    gcn_lfacts *f = calloc(1, sizeof *f);
    if (!f)
        return;
    gcn_lint_classify(&si->raw, t, f);
    for (unsigned i = 0; i < s->nhz; i++) {
        const gcn_hazard_rule *r = s->hz[i];
        if (r->producer(&si->raw, f))
            si->hz_prod |= 1u << i;
        if (r->consumer(&si->raw, f))
            si->hz_cons |= 1u << i;
    }
    if (si->hz_prod || si->hz_cons)
        si->hzf = f;
    else
        free(f);
}

static int related(const gcn_hazard_rule *r, const sim_insn *pi, const gcn_lfacts *p,
                   const sim_insn *ci, const gcn_lfacts *c)
{
    if (r->match)
        return r->match(&pi->raw, p, &ci->raw, c);
    switch (r->rel) {
    case GCN_HZ_RAW: return gcn_rs_intersects(&p->defs, &c->uses);
    case GCN_HZ_WAW: return gcn_rs_intersects(&p->defs, &c->defs);
    case GCN_HZ_WAR: return gcn_rs_intersects(&p->uses, &c->defs);
    default: return 1;
    }
}

static unsigned states_of(const sim_insn *si)
{
    if (si->flags & GCN_F_NOP)
        return (unsigned)(si->imm & 0xf) + 1;     /* s_nop N: N+1 wait states */
    return 1;
}

void sim_hz_step(sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    gcn_sim *s = x->sim;
    unsigned ring = sizeof w->hz / sizeof w->hz[0];
    if (si->hz_cons && si->hzf) {
        for (unsigned k = 0; k < w->hz_n; k++) {
            unsigned i = (w->hz_head + ring - 1 - k) % ring;
            const sim_insn *p = w->hz[i].si;
            uint64_t have = w->hz_pos - w->hz[i].end;
            if (have >= s->hz_max)
                break;
            uint32_t both = p->hz_prod & si->hz_cons;
            for (unsigned r = 0; both; r++, both >>= 1) {
                if (!(both & 1))
                    continue;
                const gcn_hazard_rule *rule = s->hz[r];
                if (have >= rule->states || !p->hzf || !related(rule, p, p->hzf, si, si->hzf))
                    continue;
                unsigned need = rule->need ? rule->need(x->sim->o.target, &p->raw, p->hzf,
                                                        &si->raw, si->hzf) : rule->states;
                if (have >= need)
                    continue;
                char buf[512], name[96];
                snprintf(name, sizeof name, "hazard-%s", rule->name);
                for (char *c = name; *c; c++)
                    if (*c == '_')
                        *c = '-';
                snprintf(buf, sizeof buf, "needs %u wait state%s after the producer, has %llu: "
                         "put s_nop %llu before this instruction (%s)", need,
                         need == 1 ? "" : "s", (unsigned long long)have,
                         (unsigned long long)(need - have - 1), rule->why ? rule->why : "");
                unsigned before = s->nfinds;
                sim_finding_w(s, w, si, GCN_FIND_HAZARD, p, x->exec, buf);
                if (s->nfinds > before && !s->finds[s->nfinds - 1].rule)
                    s->finds[s->nfinds - 1].rule = strdup(name);
            }
        }
    }
    w->hz_pos += states_of(si);
    if (si->hz_prod) {
        w->hz[w->hz_head].si = si;
        w->hz[w->hz_head].end = w->hz_pos;
        w->hz_head = (w->hz_head + 1) % ring;
        if (w->hz_n < ring)
            w->hz_n++;
    }
}

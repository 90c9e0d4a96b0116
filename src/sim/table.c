/*
 * table.c -- the simulator's dispatch table: GCN_ID_* -> body, derived from
 * the ISA table rows (gcn_isa_rows) and the body registries of the family
 * files (ops_*.c), matched by the row's id name; the MAI rows take the one
 * MFMA body by their GCN_F_MFMA flag.  A row without a body runs
 * sim_body_unsimulated, an explicit "not simulated" fault naming the
 * instruction (never a silent no-op); the reasons for rows deliberately left
 * without a body are listed in sim_notsim[] (notsim.c).  tests/sim checks
 * that every body names a row, and every row has a body or a reason.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

static sim_body *table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT, byname_once = PTHREAD_ONCE_INIT;
/* Row ids by id name, for the registry check only (the table takes each entry's id, which
 * B() gives as GCN_ID_<name>; hashing every row's and every body's name at the first
 * decode was a sixth of a short run's start-up): an open-addressing hash table. */
static unsigned *byname, nbyname;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;               /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static unsigned find_id(const char *name)
{
    if (!byname)
        return GCN_ID_INVALID;
    for (uint32_t i = name_hash(name) & (nbyname - 1);; i = (i + 1) & (nbyname - 1)) {
        unsigned id = byname[i];
        if (!id)
            return GCN_ID_INVALID;
        if (!strcmp(gcn_isa_rows[id].id_name, name))
            return id;
    }
}

static const sim_body_ent *const families[] = {
    sim_bodies_salu, sim_bodies_valu, sim_bodies_vcmp, sim_bodies_vop3p,
    sim_bodies_mem, sim_bodies_cvt,
    sim_bodies_gfx950, sim_bodies_cvtmx,
};

static void build_byname(void)
{
    for (nbyname = 16; nbyname < 2 * GCN_ID_COUNT; nbyname *= 2)
        ;
    byname = calloc(nbyname, sizeof *byname);     /* 0: empty (GCN_ID_INVALID) */
    if (!byname)
        return;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {   /* the first row of a name wins */
        uint32_t i = name_hash(gcn_isa_rows[id].id_name) & (nbyname - 1);
        while (byname[i] && strcmp(gcn_isa_rows[byname[i]].id_name, gcn_isa_rows[id].id_name))
            i = (i + 1) & (nbyname - 1);
        if (!byname[i])
            byname[i] = id;
    }
}

static void build(void)
{
    table = calloc(GCN_ID_COUNT, sizeof *table);
    if (!table)
        return;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const sim_body_ent *e = families[f]; e->name; e++)
            if (e->id > GCN_ID_INVALID && e->id < GCN_ID_COUNT && !table[e->id])
                table[e->id] = e->fn;
    /* the MAI rows by their flag: one parameterised body (ops_mfma.c) */
    for (unsigned id = 1; id < GCN_ID_COUNT; id++)
        if (!table[id] && (gcn_isa_rows[id].flags & GCN_F_MFMA))
            table[id] = sim_mfma_body;
}

sim_body sim_body_of(unsigned id)
{
    pthread_once(&table_once, build);
    if (table && id < GCN_ID_COUNT && table[id])
        return table[id];
    return sim_body_unsimulated;
}

static int pat_match(const char *pat, const char *name)
{
    size_t n = strlen(pat);
    if (n && pat[n - 1] == '*')
        return strncmp(pat, name, n - 1) == 0;
    return strcmp(pat, name) == 0;
}

const char *gcn_sim_not_simulated(unsigned id)
{
    if (sim_body_of(id) != sim_body_unsimulated)
        return NULL;
    const char *name = gcn_isa_row_of(id)->id_name;
    for (const sim_notsim_ent *e = sim_notsim; e->pattern; e++)
        if (pat_match(e->pattern, name))
            return e->reason;
    return "no semantic body yet";
}

/* Report registry problems: bodies naming no row, duplicate bodies, rows
 * with neither a body nor a listed reason.  Returns the number of problems. */
unsigned gcn_sim_check_registry(FILE *rep)
{
    pthread_once(&table_once, build);
    pthread_once(&byname_once, build_byname);
    unsigned bad = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const sim_body_ent *e = families[f]; e->name; e++) {
            unsigned id = find_id(e->name);
            if (id == GCN_ID_INVALID) {
                if (rep)
                    fprintf(rep, "body %s names no ISA row\n", e->name);
                bad++;
            } else if (id != e->id) {
                if (rep)
                    fprintf(rep, "body %s registered for row %u, not its row %u\n", e->name,
                            e->id, id);
                bad++;
            }
            for (size_t g = 0; g <= f; g++)
                for (const sim_body_ent *o = families[g]; o->name && o != e; o++)
                    if (!strcmp(o->name, e->name)) {
                        if (rep)
                            fprintf(rep, "body %s registered twice\n", e->name);
                        bad++;
                    }
        }
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        if (sim_body_of(id) != sim_body_unsimulated)
            continue;
        const char *name = gcn_isa_row_of(id)->id_name;
        int listed = 0;
        for (const sim_notsim_ent *e = sim_notsim; e->pattern; e++)
            if (pat_match(e->pattern, name)) {
                listed = 1;
                break;
            }
        if (!listed) {
            if (rep)
                fprintf(rep, "row %s has no body and no not-simulated reason\n", name);
            bad++;
        }
    }
    return bad;
}

/* ---- the bodies of no row: a bad instruction, an unsimulated row, the alias warning ---- */

void sim_body_bad(sim_x *x)
{
    sim_fault(x, "%s", x->i->badmsg ? x->i->badmsg : "bad instruction");
}

/* An instruction that names a row of the unified register file the other
 * way from an earlier one (prog.c note_names): a warning, then the body. */
void sim_alias_body(sim_x *x)
{
    const sim_insn *si = x->i;
    const sim_insn *prod = sim_prog_insn(x->sim->prog, (uint32_t)si->alias_prod);
    unsigned r = si->alias_row, acc = x->w->accum;
    sim_finding(x, GCN_FIND_REG_ALIAS, prod, x->exec,
                "v%u and a%u are one physical register (row %u of the unified file, "
                "accum_offset %u): this instruction and the other name it differently; legal, "
                "but a write through one name changes the other", r, r - acc, r, acc);
    si->fn_alias(x);
}

void sim_body_unsimulated(sim_x *x)
{
    const gcn_isa_row *r = gcn_isa_row_of(x->i->id);
    const char *why = gcn_sim_not_simulated(x->i->id);
    sim_fault(x, "instruction %s is not simulated%s%s", r->mnem, why ? ": " : "", why ? why : "");
}

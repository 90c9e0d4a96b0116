/*
 * findings.c -- the findings of a run as the tools show them: the name of each
 * kind, the s_waitcnt text of a fix, gcc-style text (file:line: error: ...,
 * then the producer, the fix and where the finding was first seen), the
 * grouping of the sites of one rule into one finding, and the kernel fault's
 * location line.  Recording them: fault.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim_int.h"

const char *gcn_sim_finding_name(gcn_sim_finding_kind k)
{
    switch (k) {
    case GCN_FIND_READ_PENDING: return "read-before-retire";
    case GCN_FIND_WRITE_PENDING: return "overwrite-before-retire";
    case GCN_FIND_LDS_DMA_PENDING: return "lds-dma-read-before-retire";
    case GCN_FIND_SMEM_OOO: return "smem-out-of-order";
    case GCN_FIND_BARRIER_LDS: return "barrier-with-pending-lds-write";
    case GCN_FIND_LDS_RACE: return "lds-cross-wave-race";
    case GCN_FIND_HAZARD: return "hazard";
    case GCN_FIND_REG_ALIAS: return "vgpr-agpr-alias";
    default: return "finding";
    }
}

void gcn_sim_fix_text(const gcn_sim_finding *f, char *buf, size_t n)
{
    if (f->fix_vmcnt >= 0 && f->fix_lgkmcnt >= 0)
        snprintf(buf, n, "s_waitcnt vmcnt(%d) lgkmcnt(%d)", f->fix_vmcnt, f->fix_lgkmcnt);
    else if (f->fix_vmcnt >= 0)
        snprintf(buf, n, "s_waitcnt vmcnt(%d)", f->fix_vmcnt);
    else if (f->fix_lgkmcnt >= 0)
        snprintf(buf, n, "s_waitcnt lgkmcnt(%d)", f->fix_lgkmcnt);
    else if (n)
        buf[0] = 0;
}

static void print_lanes(FILE *f, uint64_t m)
{
    int first = 1;
    for (int i = 0; i < 64;) {
        if (!(m >> i & 1)) {
            i++;
            continue;
        }
        int j = i;
        while (j + 1 < 64 && (m >> (j + 1) & 1))
            j++;
        fprintf(f, "%s%d", first ? "" : ",", i);
        if (j > i)
            fprintf(f, "-%d", j);
        first = 0;
        i = j + 1;
    }
    if (first)
        fprintf(f, "none");
}

/* The path to print for a line table's file: the code as given when that is
 * the file, else the path relative to the working directory when it is below
 * it, else the absolute path. */
static const char *shown_path(const char *file, const char *code, char *buf, size_t n)
{
    if (code) {
        char *rc = realpath(code, NULL);
        int same = rc && !strcmp(rc, file);
        free(rc);
        if (same)
            return code;
    }
    char *cwd = getcwd(buf, n);
    size_t l = cwd ? strlen(cwd) : 0;
    if (cwd && l > 1 && !strncmp(file, cwd, l) && file[l] == '/')
        return file + l + 1;
    return file;
}

static void print_one(FILE *f, const gcn_sim_finding *g, const char *code)
{
    char cwd[4096];
    if (g->file && g->line)
        fprintf(f, "%s:%u: ", shown_path(g->file, code, cwd, sizeof cwd), g->line);
    else
        fprintf(f, "%s:0: ", code ? code : "?");
    fprintf(f, "%s: %s%s%s at pc 0x%llx: %s\n",
            g->kind == GCN_FIND_REG_ALIAS ? "warning" : "error", g->sym ? g->sym : "",
            g->sym ? ": " : "", gcn_sim_finding_name(g->kind), (unsigned long long)g->pc,
            g->text ? g->text : "");
    if (g->detail)
        fprintf(f, "  %s\n", g->detail);
    if (g->prod_text)
        fprintf(f, "  producer: pc 0x%llx%s%s%s%s%s: %s\n", (unsigned long long)g->prod_pc,
                g->prod_sym ? " (" : "", g->prod_sym ? g->prod_sym : "", g->prod_sym ? ")" : "",
                g->prod_where ? " " : "", g->prod_where ? g->prod_where : "", g->prod_text);
    if (g->fix_text && g->fix_pc != g->pc) {
        char wt[64];
        gcn_sim_fix_text(g, wt, sizeof wt);
        fprintf(f, "  fix: %s before pc 0x%llx%s%s%s%s%s: %s\n", wt, (unsigned long long)g->fix_pc,
                g->fix_sym ? " (" : "", g->fix_sym ? g->fix_sym : "", g->fix_sym ? ")" : "",
                g->fix_where ? " " : "", g->fix_where ? g->fix_where : "", g->fix_text);
    }
    fprintf(f, "  first seen: workgroup (%u,%u,%u) wave %u, lanes ", g->wg[0], g->wg[1],
            g->wg[2], g->wave);
    print_lanes(f, g->lanes);
    fprintf(f, "; %llu occurrence%s\n", (unsigned long long)g->count, g->count == 1 ? "" : "s");
}

void gcn_sim_print_fault_at(FILE *f, const gcn_sim_result *r, const char *code)
{
    const gcn_sim_where *w = &r->fault_at;
    char cwd[4096];
    if (!w->pc)
        return;
    if (w->file[0] && w->line)
        fprintf(f, "%s:%u: ", shown_path(w->file, code, cwd, sizeof cwd), w->line);
    else
        fprintf(f, "%s:0: ", code ? code : "?");
    const char *nl = strchr(r->msg, '\n');
    fprintf(f, "error: %s%skernel fault at pc 0x%llx: %.*s\n", w->sym, w->sym[0] ? ": " : "",
            (unsigned long long)w->pc, nl ? (int)(nl - r->msg) : (int)strlen(r->msg), r->msg);
}

void gcn_sim_print_findings(FILE *f, const gcn_sim_result *r, unsigned max)
{
    gcn_sim_print_findings_at(f, r, max, NULL);
}

void gcn_sim_print_findings_at(FILE *f, const gcn_sim_result *r, unsigned max, const char *code)
{
    for (unsigned i = 0; i < r->nfindings && i < max; i++)
        print_one(f, &r->findings[i], code);
    if (r->nfindings > max)
        fprintf(f, "(%u more findings not shown)\n", r->nfindings - max);
}

static int site_cmp(const void *a, const void *b, void *base)
{
    const gcn_sim_finding *x = &((const gcn_sim_finding *)base)[*(const unsigned *)a];
    const gcn_sim_finding *y = &((const gcn_sim_finding *)base)[*(const unsigned *)b];
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    if (x->prod_pc != y->prod_pc)
        return x->prod_pc < y->prod_pc ? -1 : 1;
    return 0;
}

int gcn_sim_group_findings(const gcn_sim_result *r, gcn_sim_group **groups, unsigned *ngroups)
{
    *groups = NULL;
    *ngroups = 0;
    if (!r->nfindings)
        return 0;
    gcn_sim_group *g = calloc(r->nfindings, sizeof *g);
    unsigned *gi = malloc(r->nfindings * sizeof *gi);     /* finding -> its group */
    if (!g || !gi) {
        free(g);
        free(gi);
        return -1;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < r->nfindings; i++) {
        const gcn_sim_finding *f = &r->findings[i];
        unsigned k = 0;
        while (k < n && !(g[k].kind == f->kind && sim_same_str(g[k].rule, f->rule)))
            k++;
        if (k == n) {
            g[n].kind = f->kind;
            g[n].rule = f->rule;
            n++;
        }
        gi[i] = k;
        g[k].nsites++;
        g[k].count += f->count;
    }
    for (unsigned k = 0; k < n; k++) {
        g[k].site = malloc(g[k].nsites * sizeof *g[k].site);
        if (!g[k].site) {
            gcn_sim_free_groups(g, n);
            free(gi);
            return -1;
        }
        g[k].nsites = 0;
    }
    for (unsigned i = 0; i < r->nfindings; i++)
        g[gi[i]].site[g[gi[i]].nsites++] = i;
    for (unsigned k = 0; k < n; k++) {
        qsort_r(g[k].site, g[k].nsites, sizeof *g[k].site, site_cmp, (void *)r->findings);
        for (unsigned j = 0; j < g[k].nsites; j++)
            g[k].npcs += !j || r->findings[g[k].site[j]].pc != r->findings[g[k].site[j - 1]].pc;
    }
    free(gi);
    *groups = g;
    *ngroups = n;
    return 0;
}

void gcn_sim_free_groups(gcn_sim_group *g, unsigned n)
{
    for (unsigned k = 0; g && k < n; k++)
        free(g[k].site);
    free(g);
}

void gcn_sim_print_groups(FILE *f, const gcn_sim_result *r, const gcn_sim_group *g, unsigned n,
                          unsigned max)
{
    gcn_sim_print_groups_at(f, r, g, n, max, NULL);
}

void gcn_sim_print_groups_at(FILE *f, const gcn_sim_result *r, const gcn_sim_group *g, unsigned n,
                             unsigned max, const char *code)
{
    for (unsigned k = 0; k < n && k < max; k++) {
        const gcn_sim_group *gr = &g[k];
        print_one(f, &r->findings[gr->site[0]], code);
        if (gr->nsites < 2)
            continue;
        fprintf(f, "  the same %s%s%s at %u pc%s, %llu occurrence%s in all (--no-group lists "
                "each):", gcn_sim_finding_name(gr->kind), gr->rule ? " " : "",
                gr->rule ? gr->rule : "", gr->npcs, gr->npcs == 1 ? "" : "s",
                (unsigned long long)gr->count, gr->count == 1 ? "" : "s");
        unsigned col = 0;
        for (unsigned j = 0; j < gr->nsites; j++) {
            const gcn_sim_finding *s = &r->findings[gr->site[j]];
            if (j && s->pc == r->findings[gr->site[j - 1]].pc)
                continue;
            fprintf(f, "%s0x%llx", col % 10 ? " " : "\n    ", (unsigned long long)s->pc);
            col++;
        }
        fprintf(f, "\n");
    }
    if (n > max)
        fprintf(f, "(%u more findings not shown)\n", n - max);
}

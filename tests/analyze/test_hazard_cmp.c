/*
 * test_hazard_cmp.c -- checks the hazard engine against LLVM 22's own hazard
 * recognizer.  Inputs: two builds of the same code, GOOD (with the s_nops
 * the post-RA hazard recognizer inserted) and BAD (llc -start-after
 * post-RA-hazard-rec: without them).  The two instruction streams are
 * aligned; every s_nop that GOOD has and BAD lacks was inserted by LLVM.
 *
 * For every instruction I of GOOD:
 *   - with the whole history (LLVM's nops included) the engine must report
 *     nothing (a finding here is a false alarm);
 *   - where LLVM inserted k wait states before I, the engine run on the
 *     history without them must say that I is short by exactly k wait
 *     states ("found" when it says > 0, "exact" when = k), and with k-1 of
 *     them short by exactly 1.
 * Control flow: the history at a branch target is the join of its
 * predecessors (fixed point over the function's blocks), like the linter;
 * --linear instead restarts the history at every branch target and after
 * every branch (straight-line regions).
 *
 * --llvm checks with GCN_HZ_LLVM (the llvm-conservative rows too: LLVM's own
 * rules, what the comparison needs) and also checks the default flags
 * against LLVM: at every site whose deciding finding (the largest shortfall)
 * is of a required row, the default flags must find exactly LLVM's wait
 * states ("required"); where an llvm-conservative row decides, fewer
 * ("relaxed": what only LLVM asks for is not reported by default); and the
 * default flags never report an llvm-conservative row nor anything where
 * LLVM's nops are in place.  The comparison with LLVM only looks at the rows
 * LLVM has; a finding of a row LLVM does not have (the ISA asks for more than
 * LLVM inserts) is counted as "stricter" (listed with --cover).
 *
 * usage: test_hazard_cmp [--llvm] [--linear] [--quiet] [--cover] [--no-fail] [--allow-missed]
 *                        [--dump] [--sites] GOOD BAD
 * --sites prints "site FUNCTION 0xOFFSET K" for every place LLVM inserted K
 * wait states (the offset in BAD's function).
 * Prints per function and total counts; exit 1 on any mismatch (with
 * --allow-missed: only on false alarms and over-reports).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"
#include "analyze/gcn_hazard.h"

typedef struct item {
    gcn_insn in;
    gcn_hz_insn hi;
    int inserted;        /* LLVM-inserted s_nop (GOOD only) */
    int leader;          /* starts a block */
    int block;
    uint64_t bad_off;    /* offset of the same instruction in BAD's function */
} item;

typedef struct fn {
    item *v;
    unsigned n;
} fn;

static int opt_linear, opt_quiet, opt_cover, opt_nofail, opt_dump, opt_allow_missed, opt_sites,
    opt_llvm;
static unsigned long tot_sites, tot_found, tot_exact, tot_oneshort, tot_false, tot_insns,
    tot_missed, tot_over, tot_req, tot_req_exact, tot_relaxed, tot_leak, tot_stricter;
static unsigned long *rule_hits;

static void decode_range(const gcn_codeobj *co, const gcn_decoder *d, uint64_t start,
                         uint64_t size, fn *out)
{
    uint64_t off = start - co->text_addr, end = off + size;
    if (end > co->text_size)
        end = co->text_size;
    out->v = calloc(size / 4 + 1, sizeof *out->v);
    out->n = 0;
    while (off < end) {
        item *it = &out->v[out->n++];
        size_t sz = gcn_decode_one(d, co->text + off, end - off, co->text_addr + off, &it->in);
        gcn_hz_analyze(d, &it->in, &it->hi);
        off += sz ? sz : 4;
    }
}

static int is_nop(const gcn_insn *in)
{
    return in->id != GCN_ID_INVALID && (gcn_isa_row_of(in->id)->flags & GCN_F_NOP);
}

static long nop_imm(const gcn_insn *in)
{
    const gcn_opnd *o = gcn_insn_field(in, GCN_FLD_SIMM16);
    return o ? (long)o->imm : -1;
}

/* Mark GOOD's inserted nops. Returns 0, or -1 when the streams do not align. */
static int align(fn *g, const fn *b, const char *name)
{
    unsigned i = 0, j = 0;
    while (i < g->n) {
        if (j < b->n && g->v[i].in.id == b->v[j].in.id &&
            (!is_nop(&g->v[i].in) || nop_imm(&g->v[i].in) == nop_imm(&b->v[j].in))) {
            g->v[i].bad_off = b->v[j].in.addr - b->v[0].in.addr;
            i++, j++;
            continue;
        }
        if (is_nop(&g->v[i].in)) {
            g->v[i].inserted = 1;
            i++;
            continue;
        }
        fprintf(stderr, "%s: streams do not align at 0x%llx\n", name,
                (unsigned long long)g->v[i].in.addr);
        return -1;
    }
    /* BAD may end with padding GOOD lacks: ignore */
    return 0;
}

static int label_target(const gcn_insn *in, uint64_t *t)
{
    for (unsigned i = 0; i < in->nopnds; i++)
        if (in->op[i].kind == GCN_OPND_LABEL) {
            *t = in->addr + 4 + (uint64_t)(in->op[i].imm * 4);
            return 1;
        }
    return 0;
}

static int is_uncond(const gcn_insn *in)
{
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    return !strcmp(r->mnem, "s_branch") || !strcmp(r->mnem, "s_setpc_b64") ||
           (r->flags & GCN_F_ENDPGM);
}

static int ends_block(const gcn_insn *in)
{
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    return (r->flags & (GCN_F_BRANCH | GCN_F_ENDPGM)) != 0;
}

static int index_of(const fn *f, uint64_t addr)
{
    unsigned lo = 0, hi = f->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (f->v[mid].in.addr < addr) lo = mid + 1; else hi = mid;
    }
    return lo < f->n && f->v[lo].in.addr == addr ? (int)lo : -1;
}

static void print_insn(const gcn_decoder *d, const gcn_insn *in)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_print_insn(d, in, &sb);
    fprintf(stdout, "  0x%llx: %s\n", (unsigned long long)in->addr, sb.buf ? sb.buf : "");
    gcn_sb_free(&sb);
}

static void print_findings(const gcn_hz_finding *f, unsigned n)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    for (unsigned i = 0; i < n; i++) {
        gcn_sb_reset(&sb);
        gcn_hz_format(&f[i], &sb);
        fprintf(stdout, "      %s\n", sb.buf);
    }
    gcn_sb_free(&sb);
}

/* --dump: the engine's view of an instruction. */
static void dump_item(const gcn_decoder *d, const item *it)
{
    char b1[24], b2[24];
    print_insn(d, &it->in);
    printf("      %s cls=%#x ws=%u passes=%u hwreg=%d\n", it->inserted ? "[inserted]" : "",
           it->hi.cls, it->hi.ws, it->hi.passes, it->hi.hwreg);
    for (unsigned i = 0; i < it->hi.ndef; i++)
        printf("      def %s+%u role=%#x\n", gcn_hz_unit_name(it->hi.def[i].lo, b1, sizeof b1),
               it->hi.def[i].n, it->hi.def[i].role);
    for (unsigned i = 0; i < it->hi.nuse; i++)
        printf("      use %s+%u role=%#x\n", gcn_hz_unit_name(it->hi.use[i].lo, b2, sizeof b2),
               it->hi.use[i].n, it->hi.use[i].role);
}

static int shortfall(const gcn_hz_finding *f, unsigned n)
{
    int s = 0;
    for (unsigned i = 0; i < n; i++)
        if ((int)f[i].required - (int)f[i].present > s)
            s = (int)f[i].required - (int)f[i].present;
    return s;
}

/* Check with the default flags (GCN_HZ_LLVM off) on the same histories. */
static unsigned check_default(gcn_hz_multi *m, const gcn_hz_insn *c, gcn_hz_finding *f,
                              unsigned max)
{
    for (unsigned a = 0; a < m->n; a++)
        m->alt[a].flags &= ~GCN_HZ_LLVM;
    unsigned n = gcn_hz_multi_check(m, c, f, max);
    for (unsigned a = 0; a < m->n; a++)
        m->alt[a].flags |= GCN_HZ_LLVM;
    return n;
}

/* --llvm: keep only the findings of rows LLVM has (compacted, of the first
 * 32); with name, the others (ISA / rocRoller rows stricter than LLVM) are
 * counted and listed. */
static unsigned llvm_rows(gcn_hz_finding *f, unsigned n, const char *name)
{
    if (!opt_llvm)
        return n;
    unsigned k = 0;
    for (unsigned i = 0; i < n && i < 32; i++) {
        if (gcn_hz_rule_get(f[i].rule)->src & GCN_HZ_SRC_LLVM)
            f[k++] = f[i];
        else if (name) {
            tot_stricter++;
            if (opt_cover)
                printf("stricter %s %s\n", name, gcn_hz_rule_get(f[i].rule)->name);
        }
    }
    return k;
}

static unsigned count_llvm(const gcn_hz_finding *f, unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        k += f[i].llvm != 0;
    return k;
}

/* Walk one block from state st, checking (final = 1) or only propagating. */
static void walk_block(const gcn_decoder *d, fn *f, unsigned first, unsigned end,
                       gcn_hz_multi *st, int final, const char *name, unsigned *bad)
{
    static gcn_hz_multi s0, s1;
    int have_s0 = 0;
    unsigned k = 0;
    gcn_hz_finding fb[32];
    for (unsigned i = first; i < end; i++) {
        item *it = &f->v[i];
        if (it->inserted) {
            if (!have_s0) {
                s0 = *st;
                have_s0 = 1;
                k = 0;
            }
            k += it->hi.ws;
            gcn_hz_multi_push(st, &it->hi);
            continue;
        }
        if (final) {
            tot_insns++;
            unsigned n = llvm_rows(fb, gcn_hz_multi_check(st, &it->hi, fb, 32), name);
            if (n) {
                tot_false++;
                (*bad)++;
                if (!opt_quiet) {
                    printf("%s: false alarm (LLVM's nops are enough):\n", name);
                    print_insn(d, &it->in);
                    print_findings(fb, n < 32 ? n : 32);
                }
            }
            if (opt_llvm) {
                /* (rows LLVM lacks: counted above) */
                unsigned nd = llvm_rows(fb, check_default(st, &it->hi, fb, 32), NULL);
                if (nd) {   /* with LLVM's nops nothing, with fewer rules nothing either */
                    tot_leak++;
                    (*bad)++;
                    if (!opt_quiet) {
                        printf("%s: default flags report where LLVM mode does not:\n", name);
                        print_insn(d, &it->in);
                        print_findings(fb, nd < 32 ? nd : 32);
                    }
                }
            }
            if (have_s0) {
                tot_sites++;
                if (opt_sites)
                    printf("site %s 0x%llx %u\n", name, (unsigned long long)it->bad_off, k);
                unsigned n0 = llvm_rows(fb, gcn_hz_multi_check(&s0, &it->hi, fb, 32), NULL);
                int sh = shortfall(fb, n0 < 32 ? n0 : 32);
                if (sh > 0) tot_found++;
                if (sh == (int)k) {
                    tot_exact++;
                    for (unsigned t = 0; t < n0 && t < 32; t++)
                        if ((int)fb[t].required - (int)fb[t].present == sh)
                            rule_hits[fb[t].rule]++;
                } else {
                    if (sh > (int)k || !opt_allow_missed)
                        (*bad)++;
                    if (sh < (int)k) tot_missed++; else tot_over++;
                    if (!opt_quiet) {
                        printf("%s: LLVM inserted %u wait states, engine says %d:\n", name, k, sh);
                        print_insn(d, &it->in);
                        print_findings(fb, n0 < 32 ? n0 : 32);
                    }
                }
                if (opt_llvm && sh == (int)k) {
                    /* the default flags: LLVM's number where a required row
                     * decides, less where an llvm-conservative one does
                     * (judged where LLVM mode is exact; misses: above) */
                    int by_req = 0;
                    unsigned dec = 0;   /* the deciding llvm-conservative row */
                    for (unsigned t = 0; t < n0 && t < 32; t++)
                        if ((int)fb[t].required - (int)fb[t].present == sh) {
                            if (fb[t].llvm)
                                dec = fb[t].rule;
                            else
                                by_req = 1;
                        }
                    unsigned nd = llvm_rows(fb, check_default(&s0, &it->hi, fb, 32), NULL);
                    int shd = shortfall(fb, nd < 32 ? nd : 32);
                    unsigned leaks = count_llvm(fb, nd < 32 ? nd : 32);
                    int ok = !leaks && (by_req ? shd == sh : shd < sh);
                    if (by_req) {
                        tot_req++;
                        tot_req_exact += shd == sh;
                    } else {
                        tot_relaxed++;
                        if (opt_cover)
                            printf("relaxed %s %s\n", name, gcn_hz_rule_get(dec)->name);
                    }
                    tot_leak += leaks;
                    if (!ok) {
                        (*bad)++;
                        if (!opt_quiet) {
                            printf("%s: LLVM inserted %u wait states (%s row decides), default "
                                   "flags say %d%s:\n", name, k, by_req ? "a required" :
                                   "an llvm-conservative", shd, leaks ? " with llvm rows" : "");
                            print_insn(d, &it->in);
                            print_findings(fb, nd < 32 ? nd : 32);
                        }
                    }
                }
                /* one wait state short */
                s1 = s0;
                if (k > 1)
                    for (unsigned a = 0; a < s1.n; a++)
                        gcn_hz_advance(&s1.alt[a], k - 1);
                unsigned n1 = llvm_rows(fb, gcn_hz_multi_check(&s1, &it->hi, fb, 32), NULL);
                if (k > 0 && shortfall(fb, n1 < 32 ? n1 : 32) == 1)
                    tot_oneshort++;
            }
        }
        have_s0 = 0;
        gcn_hz_multi_push(st, &it->hi);
    }
}

static unsigned run_fn(const gcn_decoder *d, fn *f, const char *name, unsigned flags)
{
    unsigned bad = 0;
    if (!f->n)
        return 0;
    /* LLVM remembers more instructions when the function uses a0 */
    for (unsigned i = 0; i < f->n; i++)
        for (unsigned k = 0; k < f->v[i].in.nopnds; k++)
            if (f->v[i].in.op[k].kind == GCN_OPND_AGPR && f->v[i].in.op[k].reg == 0)
                flags |= GCN_HZ_AGPR0;
    /* blocks */
    f->v[0].leader = 1;
    for (unsigned i = 0; i < f->n; i++) {
        uint64_t t;
        if (ends_block(&f->v[i].in) && i + 1 < f->n)
            f->v[i + 1].leader = 1;
        if (label_target(&f->v[i].in, &t)) {
            int j = index_of(f, t);
            if (j >= 0)
                f->v[j].leader = 1;
        }
    }
    unsigned nb = 0;
    for (unsigned i = 0; i < f->n; i++) {
        if (f->v[i].leader)
            nb++;
        f->v[i].block = (int)nb - 1;
    }
    unsigned *bstart = calloc(nb + 1, sizeof *bstart);
    int *is_target = calloc(nb, sizeof *is_target);
    for (unsigned i = 0, b = 0; i < f->n; i++)
        if (f->v[i].leader)
            bstart[b++] = i;
    bstart[nb] = f->n;
    for (unsigned i = 0; i < f->n; i++) {
        uint64_t t;
        int j;
        if (label_target(&f->v[i].in, &t) && (j = index_of(f, t)) >= 0)
            is_target[f->v[j].block] = 1;
    }
    gcn_hz_multi *in = calloc(nb, sizeof *in);
    int *has = calloc(nb, sizeof *has), *queued = calloc(nb, sizeof *queued);
    unsigned *work = calloc(nb * 64 + 1, sizeof *work), wh = 0, wt = 0;
    gcn_hz_state init;
    gcn_hz_reset(&init, d->target, flags);
    static gcn_hz_multi st, nw;
    if (!opt_linear) {
        gcn_hz_multi_init(&in[0], &init);
        has[0] = 1;
        work[wt++] = 0;
        queued[0] = 1;
        unsigned iters = 0;
        while (wh < wt && iters++ < nb * 64) {
            unsigned b = work[wh++];
            queued[b] = 0;
            st = in[b];
            walk_block(d, f, bstart[b], bstart[b + 1], &st, 0, name, &bad);
            const gcn_insn *last = &f->v[bstart[b + 1] - 1].in;
            unsigned succ[2], ns = 0;
            uint64_t t;
            if (!is_uncond(last) && b + 1 < nb)
                succ[ns++] = b + 1;
            if (label_target(last, &t)) {
                int j = index_of(f, t);
                if (j >= 0)
                    succ[ns++] = (unsigned)f->v[j].block;
            }
            for (unsigned s = 0; s < ns; s++) {
                unsigned c = succ[s];
                if (!has[c]) {
                    nw = st;
                    has[c] = 1;
                } else {
                    nw = in[c];
                    gcn_hz_multi_join(&nw, &st);
                    if (gcn_hz_multi_same(&nw, &in[c]))
                        continue;
                }
                in[c] = nw;
                if (!queued[c] && wt < nb * 64) {
                    work[wt++] = c;
                    queued[c] = 1;
                }
            }
        }
    }
    /* final pass */
    for (unsigned b = 0; b < nb; b++) {
        if (opt_linear) {
            const gcn_insn *prev = b ? &f->v[bstart[b] - 1].in : NULL;
            if (!b || is_target[b] || (prev && ends_block(prev)))
                gcn_hz_multi_init(&st, &init);
        } else {
            if (!has[b])
                continue;   /* unreachable */
            st = in[b];
        }
        walk_block(d, f, bstart[b], bstart[b + 1], &st, 1, name, &bad);
    }
    free(bstart); free(in); free(has); free(queued); free(work); free(is_target);
    return bad;
}

int main(int argc, char **argv)
{
    int ai = 1;
    for (; ai < argc && argv[ai][0] == '-'; ai++) {
        if (!strcmp(argv[ai], "--linear")) opt_linear = 1;
        else if (!strcmp(argv[ai], "--llvm")) opt_llvm = 1;
        else if (!strcmp(argv[ai], "--quiet")) opt_quiet = 1;
        else if (!strcmp(argv[ai], "--cover")) opt_cover = 1;
        else if (!strcmp(argv[ai], "--no-fail")) opt_nofail = 1;
        else if (!strcmp(argv[ai], "--dump")) opt_dump = 1;
        else if (!strcmp(argv[ai], "--allow-missed")) opt_allow_missed = 1;
        else if (!strcmp(argv[ai], "--sites")) opt_sites = 1;
        else { fprintf(stderr, "unknown option %s\n", argv[ai]); return 2; }
    }
    if (argc - ai != 2) {
        fprintf(stderr, "usage: test_hazard_cmp [--llvm] [--linear] [--quiet] [--cover] [--no-fail] [--allow-missed] [--dump] [--sites] GOOD BAD\n");
        return 2;
    }
    gcn_codeobj *g = NULL, *b = NULL;
    gcn_co_err err;
    if (gcn_co_open(argv[ai], &g, &err) || gcn_co_open(argv[ai + 1], &b, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    gcn_decoder d = { .target = g->target };
    unsigned flags = (g->xnack_mode == GCN_CO_FEAT_OFF) ? 0 : GCN_HZ_XNACK;
    if (opt_llvm)
        flags |= GCN_HZ_LLVM;
    rule_hits = calloc(gcn_hz_rule_count(), sizeof *rule_hits);
    unsigned bad = 0, nfn = 0;
    for (unsigned s = 0; s < g->nsyms; s++) {
        const gcn_symbol *sy = &g->syms[s];
        if (sy->type != 2 /* STT_FUNC */ || !sy->size)
            continue;
        const gcn_symbol *sb = NULL;
        for (unsigned t = 0; t < b->nsyms; t++)
            if (b->syms[t].type == 2 && !strcmp(b->syms[t].name, sy->name))
                sb = &b->syms[t];
        if (!sb) {
            fprintf(stderr, "%s: not in %s\n", sy->name, argv[ai + 1]);
            bad++;
            continue;
        }
        fn fg, fb;
        decode_range(g, &d, sy->value, sy->size, &fg);
        decode_range(b, &d, sb->value, sb->size, &fb);
        nfn++;
        if (align(&fg, &fb, sy->name)) {
            bad++;
        } else {
            if (opt_dump)
                for (unsigned i = 0; i < fg.n; i++)
                    dump_item(&d, &fg.v[i]);
            bad += run_fn(&d, &fg, sy->name, flags);
        }
        free(fg.v);
        free(fb.v);
    }
    printf("%s %s: %u functions, %lu instructions; LLVM-inserted nop sites %lu: "
           "found %lu, exact %lu, one-short %lu, missed %lu, over %lu; false alarms %lu",
           gcn_target_name(d.target), (flags & GCN_HZ_XNACK) ? "xnack" : "no-xnack", nfn,
           tot_insns, tot_sites, tot_found, tot_exact, tot_oneshort, tot_missed, tot_over,
           tot_false);
    if (opt_llvm)
        printf("; default flags: required %lu (exact %lu), relaxed %lu, llvm-row leaks %lu; "
               "findings of rows LLVM lacks %lu",
               tot_req, tot_req_exact, tot_relaxed, tot_leak, tot_stricter);
    printf("\n");
    if (opt_cover) {
        for (unsigned r = 0; r < gcn_hz_rule_count(); r++)
            printf("cover %s %lu %u %u\n", gcn_hz_rule_get(r)->name, rule_hits[r],
                   gcn_hz_rule_get(r)->targets, gcn_hz_rule_get(r)->src);
    }
    gcn_co_close(g);
    gcn_co_close(b);
    return bad && !opt_nofail ? 1 : 0;
}

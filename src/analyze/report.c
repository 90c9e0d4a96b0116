/*
 * report.c -- findings: the check registry, the finding and diagnostic
 * containers, the grouping of findings that repeat in one kernel, and
 * output as gcc-style text, JSON and SARIF 2.1.0 (OASIS "Static Analysis
 * Results Interchange Format" 2.1.0: sarifLog -> runs[] -> tool.driver.rules[],
 * artifacts[], addresses[], results[] with ruleId, level, message,
 * locations[] {physicalLocation {artifactLocation, region, address},
 * logicalLocations[]}, relatedLocations[]).  A location in a binary is
 * symbol+0xOFFSET (the kernel, another function, or .text), as AMD's
 * rj_waitcheck names them; in text it follows "file:0: severity:" so that
 * gcc-style error parsers (vim, emacs, VS Code's $gcc) read the line.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "config.h"
#include "lint.h"

static const struct {
    const char *name, *desc;
} checks[GCN_CHK_COUNT] = {
    [GCN_CHK_PENDING_READ] = {"pending-read",
        "a register is read while a memory load that writes it may still be pending"},
    [GCN_CHK_PENDING_WRITE] = {"pending-overwrite",
        "a register is written while a pending memory load may still write it"},
    [GCN_CHK_SMEM_ORDER] = {"smem-out-of-order",
        "an SMEM result is used under lgkmcnt(N>0), but scalar loads return out of order"},
    [GCN_CHK_LDS_DMA_PENDING] = {"lds-dma-pending",
        "LDS is accessed while an LDS-DMA load into it may still be pending (needs vmcnt)"},
    [GCN_CHK_LDS_DMA_RACE] = {"lds-dma-race",
        "an LDS-DMA load overwrites LDS that a pending DS access may not have finished with"},
    [GCN_CHK_BARRIER_LDS] = {"barrier-lds-pending",
        "s_barrier while LDS writes of this wave may still be pending, and another wave "
        "accesses those bytes before the next barrier"},
    [GCN_CHK_LDS_XWAVE] = {"lds-cross-wave-race",
        "two waves may access the same LDS bytes (one writing) with no s_barrier between"},
    [GCN_CHK_WAIT_SUGGEST] = {"waitcnt-suggest",
        "the loosest safe value of an s_waitcnt and the path that forces it"},
    [GCN_CHK_WAIT_STRONGER] = {"waitcnt-stronger",
        "an s_waitcnt stronger than any consumer needs (performance)"},
    [GCN_CHK_CFG_INDIRECT] = {"cfg-indirect",
        "an indirect branch whose target the analysis cannot compute"},
    [GCN_CHK_CFG_INVALID] = {"cfg-invalid",
        "invalid code or a branch out of the code on a path from the kernel entry"},
    [GCN_CHK_CFG_LIMIT] = {"analysis-limit",
        "the analysis hit a budget and merged or dropped states"},
    [GCN_CHK_HAZARD] = {"hazard",
        "too few wait states between two instructions (hazards.def)"},
    [GCN_CHK_LDS_UNPROVEN] = {"lds-unproven",
        "an LDS check that could not be proven either way: an LDS address the value "
        "analysis does not know (warning, off by default: -Wlds-unproven)"},
};

const char *gcn_check_name(int c)
{
    return c >= 0 && c < GCN_CHK_COUNT ? checks[c].name : "?";
}

const char *gcn_check_desc(int c)
{
    return c >= 0 && c < GCN_CHK_COUNT ? checks[c].desc : "?";
}

int gcn_check_from_name(const char *name)
{
    for (int c = 0; c < GCN_CHK_COUNT; c++)
        if (!strcmp(name, checks[c].name))
            return c;
    return -1;
}

const char *gcn_severity_name(int sev)
{
    return sev == GCN_SEV_ERROR ? "error" : sev == GCN_SEV_WARNING ? "warning" : "note";
}

/* ---- findings ----------------------------------------------------------- */

void gcn_findings_add(gcn_findings *fs, const gcn_finding *f)
{
    if (fs->n == fs->cap) {
        unsigned nc = fs->cap ? 2 * fs->cap : 16;
        gcn_finding *p = realloc(fs->f, sizeof *p * nc);
        if (!p) {
            free(f->msg);
            free(f->explain);
            return;
        }
        fs->f = p;
        fs->cap = nc;
    }
    fs->f[fs->n++] = *f;
}

void gcn_findings_free(gcn_findings *fs)
{
    for (unsigned i = 0; i < fs->n; i++) {
        free(fs->f[i].msg);
        free(fs->f[i].explain);
    }
    free(fs->f);
    memset(fs, 0, sizeof *fs);
}

static int cmp_finding(const void *x, const void *y)
{
    const gcn_finding *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    if (a->check != b->check)
        return a->check - b->check;
    return a->producer < b->producer ? -1 : a->producer > b->producer;
}

void gcn_findings_sort(gcn_findings *fs)
{
    if (fs->n)
        qsort(fs->f, fs->n, sizeof *fs->f, cmp_finding);
}

void gcn_lint_insn_text(const gcn_cfg *cfg, unsigned idx, gcn_strbuf *sb)
{
    if (idx >= cfg->ninsn)
        return;
    size_t before = sb->len;
    if (cfg->insn[idx].id != GCN_ID_INVALID)
        gcn_print_insn(&cfg->dec, &cfg->insn[idx], sb);
    if (sb->len == before)
        gcn_sb_puts(sb, cfg->facts[idx].mnem ? cfg->facts[idx].mnem : "<invalid>");
}

/* The location of ADDR: the caller's formatter (gcn_lint_opts.loc), else 0xADDR. */
void gcn_lint_loc(const gcn_lint_opts *o, uint64_t addr, gcn_strbuf *sb)
{
    if (o && o->loc)
        o->loc(o->loc_ctx, addr, sb);
    else
        gcn_sb_printf(sb, "0x%llx", (unsigned long long)addr);
}

/* ---- diagnostics -------------------------------------------------------- */

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void site_free(gcn_dsite *s)
{
    free(s->file);
    free(s->symbol);
    free(s->msg);
}

int gcn_diags_add(gcn_diags *ds, const gcn_diag *d)
{
    if (ds->n == ds->cap) {
        unsigned nc = ds->cap ? 2 * ds->cap : 16;
        gcn_diag *p = realloc(ds->d, sizeof *p * nc);
        if (!p)
            return -1;
        ds->d = p;
        ds->cap = nc;
    }
    gcn_dsite *sites = NULL;
    if (d->nsites > 1) {
        sites = calloc(d->nsites, sizeof *sites);
        if (!sites)
            return -1;
        for (unsigned k = 0; k < d->nsites; k++) {
            sites[k] = d->sites[k];
            sites[k].file = dup(d->sites[k].file);
            sites[k].symbol = dup(d->sites[k].symbol);
            sites[k].msg = dup(d->sites[k].msg);
        }
    }
    gcn_diag *c = &ds->d[ds->n++];
    *c = *d;
    c->input = dup(d->input);
    c->kernel = dup(d->kernel);
    c->file = dup(d->file);
    c->check_name = dup(d->check_name);
    c->msg = dup(d->msg);
    c->explain = dup(d->explain);
    c->rel_file = dup(d->rel_file);
    c->wait_file = dup(d->wait_file);
    c->symbol = dup(d->symbol);
    c->rel_symbol = dup(d->rel_symbol);
    c->wait_symbol = dup(d->wait_symbol);
    c->sites = sites;
    if (!sites)
        c->nsites = 1;
    return 0;
}

static void diag_free(gcn_diag *d)
{
    free(d->input); free(d->kernel); free(d->file); free(d->check_name);
    free(d->msg); free(d->explain); free(d->rel_file); free(d->wait_file);
    free(d->symbol); free(d->rel_symbol); free(d->wait_symbol);
    for (unsigned k = 0; d->sites && k < d->nsites; k++)
        site_free(&d->sites[k]);
    free(d->sites);
}

void gcn_diags_free(gcn_diags *ds)
{
    for (unsigned i = 0; i < ds->n; i++)
        diag_free(&ds->d[i]);
    free(ds->d);
    memset(ds, 0, sizeof *ds);
}

void gcn_diag_where(const char *symbol, const char *kernel, uint64_t off, gcn_strbuf *sb)
{
    const char *s = symbol ? symbol : kernel ? kernel : ".text";
    gcn_sb_printf(sb, "%s+0x%llx", s, (unsigned long long)off);
}

/* ---- grouping of repeated findings ---------------------------------------- */

/* Checks whose findings at several sites are one problem when they share a
 * producer (or the wait that leaves it in flight): one LDS-DMA or LDS access
 * found pending or racing at many sites.  lds-cross-wave-race groups per
 * kernel, like a hazard rule: its sites are the pairs of one missing
 * barrier, whichever access each names. */
static bool group_by_producer(int check)
{
    return check == GCN_CHK_LDS_DMA_PENDING || check == GCN_CHK_LDS_DMA_RACE ||
           check == GCN_CHK_BARRIER_LDS || check == GCN_CHK_LDS_UNPROVEN;
}

typedef struct gkey {
    const char *name;
    const char *ctr;             /* by a wait: its counter; by a producer: "" */
    int64_t producer;            /* the producer's or the wait's address; -1: the check alone */
    unsigned idx;                /* position in ds (order of the sites) */
} gkey;

static int cmp_gkey(const void *x, const void *y)
{
    const gkey *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    if (!c)
        c = strcmp(a->ctr, b->ctr);
    if (c)
        return c;
    if (a->producer != b->producer)
        return a->producer < b->producer ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static bool same_group(const gkey *a, const gkey *b)
{
    return !strcmp(a->name, b->name) && !strcmp(a->ctr, b->ctr) && a->producer == b->producer;
}

/* Where site s is, seen from the group's first site h: "line 12", "f.s:12",
 * "+0x1c" (the same function) or "sym+0x1c". */
static void site_text(const gcn_diag *h, const gcn_dsite *s, gcn_strbuf *sb)
{
    if (s->line && h->line && s->file && h->file && !strcmp(s->file, h->file))
        gcn_sb_printf(sb, "line %u", s->line);
    else if (s->line)
        gcn_sb_printf(sb, "%s:%u", s->file ? s->file : "?", s->line);
    else if ((!s->symbol && !h->symbol) || (s->symbol && h->symbol && !strcmp(s->symbol, h->symbol)))
        gcn_sb_printf(sb, "+0x%llx", (unsigned long long)s->offset);
    else
        gcn_diag_where(s->symbol, h->kernel, s->offset, sb);
}

/* Make d (the first of its group) the group of the n diagnostics at
 * ds->d[idx[0..n)] (idx[0] is d): the sites, the message, the explanation. */
static int make_group(gcn_diags *ds, const gkey *g, unsigned n)
{
    gcn_diag *h = &ds->d[g[0].idx];
    gcn_dsite *sites = calloc(n, sizeof *sites);
    if (!sites)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        gcn_diag *d = &ds->d[g[k].idx];
        sites[k] = (gcn_dsite){d->file, d->line, d->symbol, d->offset, d->addr, d->msg};
    }
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_sb_puts(&sb, h->msg ? h->msg : "");
    bool hazard = !strncmp(h->check_name, "hazard", 6), bywait = *g[0].ctr != 0;
    bool xwave = h->check == GCN_CHK_LDS_XWAVE;
    if (bywait) {
        gcn_dsite w = {.file = h->wait_file, .line = h->wait_line, .symbol = h->wait_symbol,
                       .offset = (uint64_t)h->wait_offset};
        gcn_sb_puts(&sb, "; the same s_waitcnt (");
        site_text(h, &w, &sb);
        gcn_sb_printf(&sb, ") leaves the operations in flight at %u more site%s in this "
                           "kernel: ", n - 1, n == 2 ? "" : "s");
    } else {
        gcn_sb_printf(&sb, "; %s at %u more site%s in this kernel: ",
                      hazard ? "the same rule is broken"
                      : xwave ? "accesses of different waves meet with no barrier between them"
                              : "the same producer is involved",
                      n - 1, n == 2 ? "" : "s");
    }
    for (unsigned k = 1; k < n && k <= GCN_GROUP_SHOWN; k++) {
        if (k > 1)
            gcn_sb_puts(&sb, ", ");
        site_text(h, &sites[k], &sb);
    }
    if (n - 1 > GCN_GROUP_SHOWN)
        gcn_sb_printf(&sb, ", ... (%u more; --no-group lists each)", n - 1 - GCN_GROUP_SHOWN);
    if (bywait) {                   /* the count that retires every site's producer */
        int fix = h->fix;
        for (unsigned k = 1; k < n; k++)
            if (ds->d[g[k].idx].fix < fix)
                fix = ds->d[g[k].idx].fix;
        gcn_sb_printf(&sb, "; %s(%d) there would retire them all", g[0].ctr, fix);
    }
    char *msg = strdup(sb.buf ? sb.buf : "");
    char *ex = NULL;
    if (h->explain) {
        gcn_sb_reset(&sb);
        gcn_sb_puts(&sb, h->explain);
        gcn_sb_printf(&sb, "  all %u sites:", n);
        for (unsigned k = 0; k < n; k++) {
            gcn_sb_puts(&sb, k % 8 ? ", " : (k ? ",\n    " : "\n    "));
            site_text(h, &sites[k], &sb);
        }
        gcn_sb_puts(&sb, "\n");
        ex = strdup(sb.buf ? sb.buf : "");
    }
    gcn_sb_free(&sb);
    if (!msg || (h->explain && !ex)) {
        free(msg);
        free(ex);
        free(sites);
        return -1;
    }
    /* the sites take the strings of the diagnostics they came from */
    for (unsigned k = 1; k < n; k++) {
        gcn_diag *d = &ds->d[g[k].idx];
        free(d->input); free(d->kernel); free(d->check_name); free(d->explain);
        free(d->rel_file); free(d->wait_file); free(d->rel_symbol); free(d->wait_symbol);
        for (unsigned j = 0; d->sites && j < d->nsites; j++)
            site_free(&d->sites[j]);
        free(d->sites);
        memset(d, 0, sizeof *d);    /* marks it for removal */
    }
    sites[0].file = dup(h->file);
    sites[0].symbol = dup(h->symbol);
    h->msg = msg;                   /* the old one went to sites[0] */
    free(h->explain);
    h->explain = ex;
    h->sites = sites;
    h->nsites = n;
    if ((h->file && !sites[0].file) || (h->symbol && !sites[0].symbol))
        return -1;
    return 0;
}

int gcn_diags_group(gcn_diags *ds, unsigned first, unsigned min_sites)
{
    if (min_sites < 2 || first >= ds->n)
        return 0;
    unsigned n = ds->n - first, nk = 0;
    gkey *k = malloc(sizeof *k * n);
    if (!k)
        return -1;
    for (unsigned i = first; i < ds->n; i++) {
        const gcn_diag *d = &ds->d[i];
        if (!d->check_name || d->nsites > 1)
            continue;
        if (!strncmp(d->check_name, "hazard", 6) || d->check == GCN_CHK_LDS_XWAVE)
            k[nk++] = (gkey){d->check_name, "", -1, i};
        else if (group_by_producer(d->check) && d->wait_offset >= 0 && d->fix_ctr && d->fix >= 0)
            k[nk++] = (gkey){d->check_name, d->fix_ctr, (int64_t)d->wait_addr, i};
        else if (group_by_producer(d->check) && d->rel_offset >= 0)
            k[nk++] = (gkey){d->check_name, "", (int64_t)d->rel_addr, i};
    }
    qsort(k, nk, sizeof *k, cmp_gkey);
    int rc = 0;
    bool any = false;
    for (unsigned a = 0, b; a < nk && rc == 0; a = b) {
        for (b = a + 1; b < nk && same_group(&k[a], &k[b]); b++)
            ;
        /* one wait: one place to fix, whatever the count */
        if (b - a >= (*k[a].ctr ? 2 : min_sites)) {
            rc = make_group(ds, &k[a], b - a);
            any = true;
        }
    }
    free(k);
    if (any) {                      /* drop the sites folded into groups */
        unsigned w = first;
        for (unsigned i = first; i < ds->n; i++)
            if (ds->d[i].check_name)
                ds->d[w++] = ds->d[i];
        ds->n = w;
    }
    return rc;
}

/* The location and severity of a line: "file:line: sev: " or, without a
 * line, "file:0: sev: symbol+0xOFF: ". */
static void text_head(FILE *out, const char *file, unsigned line, const char *symbol,
                      const char *kernel, uint64_t off, const char *sev)
{
    if (line) {
        fprintf(out, "%s:%u: %s: ", file ? file : "?", line, sev);
    } else {
        gcn_strbuf sb;
        gcn_sb_init(&sb);
        gcn_diag_where(symbol, kernel, off, &sb);
        fprintf(out, "%s:0: %s: %s: ", file ? file : "?", sev, sb.buf ? sb.buf : "");
        gcn_sb_free(&sb);
    }
}

void gcn_report_text(FILE *out, const gcn_diags *ds, bool explain)
{
    for (unsigned i = 0; i < ds->n; i++) {
        const gcn_diag *d = &ds->d[i];
        text_head(out, d->file, d->line, d->symbol, d->kernel, d->offset,
                  gcn_severity_name(d->severity));
        fprintf(out, "%s [%s]\n", d->msg, d->check_name);
        if (explain && d->rel_file && d->rel_offset >= 0) {
            text_head(out, d->rel_file, d->rel_line, d->rel_symbol, d->kernel,
                      (uint64_t)d->rel_offset, "note");
            fprintf(out, "the producing instruction is here\n");
        }
        if (explain && d->explain)
            fputs(d->explain, out);
    }
}

static json_t *jstr(const char *s)
{
    return json_string(s ? s : "");
}

static char *hex(uint64_t v, char *buf, size_t n)
{
    snprintf(buf, n, "0x%llx", (unsigned long long)v);
    return buf;
}

static json_t *jwhere(const char *symbol, const char *kernel, uint64_t off)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_diag_where(symbol, kernel, off, &sb);
    json_t *j = jstr(sb.buf);
    gcn_sb_free(&sb);
    return j;
}

/* A related location: {file, line, offset, location, address}. */
static json_t *jloc(const char *file, unsigned line, const char *symbol, const char *kernel,
                    uint64_t off, uint64_t addr)
{
    char buf[32];
    json_t *p = json_object();
    json_object_set_new(p, "file", jstr(file));
    json_object_set_new(p, "line", line ? json_integer(line) : json_null());
    json_object_set_new(p, "offset", json_string(hex(off, buf, sizeof buf)));
    json_object_set_new(p, "location", jwhere(symbol, kernel, off));
    if (addr)
        json_object_set_new(p, "address", json_string(hex(addr, buf, sizeof buf)));
    return p;
}

int gcn_report_json(FILE *out, const gcn_diags *ds, const char *const *inputs, unsigned ninputs)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string("gcnlint"));
    json_object_set_new(root, "version", json_string(PACKAGE_VERSION));
    json_t *in = json_array();
    for (unsigned i = 0; i < ninputs; i++)
        json_array_append_new(in, json_string(inputs[i]));
    json_object_set_new(root, "inputs", in);
    json_t *arr = json_array();
    char buf[32];
    for (unsigned i = 0; i < ds->n; i++) {
        const gcn_diag *d = &ds->d[i];
        json_t *o = json_object();
        json_object_set_new(o, "input", jstr(d->input));
        json_object_set_new(o, "kernel", jstr(d->kernel));
        json_object_set_new(o, "file", jstr(d->file));
        json_object_set_new(o, "line", d->line ? json_integer(d->line) : json_null());
        json_object_set_new(o, "offset", json_string(hex(d->offset, buf, sizeof buf)));
        json_object_set_new(o, "location", jwhere(d->symbol, d->kernel, d->offset));
        if (d->addr)
            json_object_set_new(o, "address", json_string(hex(d->addr, buf, sizeof buf)));
        json_object_set_new(o, "severity", json_string(gcn_severity_name(d->severity)));
        json_object_set_new(o, "check", jstr(d->check_name));
        json_object_set_new(o, "message", jstr(d->msg));
        json_object_set_new(o, "count", json_integer(d->nsites > 1 ? d->nsites : 1));
        if (d->rel_offset >= 0)
            json_object_set_new(o, "producer", jloc(d->rel_file, d->rel_line, d->rel_symbol,
                                                    d->kernel, (uint64_t)d->rel_offset,
                                                    d->rel_addr));
        if (d->wait_offset >= 0)
            json_object_set_new(o, "wait", jloc(d->wait_file, d->wait_line, d->wait_symbol,
                                                d->kernel, (uint64_t)d->wait_offset,
                                                d->wait_addr));
        if (d->nsites > 1) {
            json_t *sa = json_array();
            for (unsigned k = 0; k < d->nsites; k++) {
                const gcn_dsite *st = &d->sites[k];
                json_t *so = jloc(st->file, st->line, st->symbol, d->kernel, st->offset, st->addr);
                json_object_set_new(so, "message", jstr(st->msg));
                json_array_append_new(sa, so);
            }
            json_object_set_new(o, "sites", sa);
        }
        if (d->explain)
            json_object_set_new(o, "explanation", jstr(d->explain));
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "findings", arr);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc;
}

static const char *sarif_level(int sev)
{
    return sev == GCN_SEV_ERROR ? "error" : sev == GCN_SEV_WARNING ? "warning" : "note";
}

/* run.addresses: one entry per function (or .text) a location is in,
 * keyed by input and symbol; instruction addresses point at theirs with
 * parentIndex and offsetFromParent. */
typedef struct sarif_addrs {
    json_t *arr;                 /* run.addresses */
    json_t *index;               /* "input\nsymbol" -> index */
} sarif_addrs;

static int sarif_parent(sarif_addrs *at, const char *input, const char *sym, uint64_t start)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_sb_printf(&sb, "%s\n%s", input ? input : "", sym);
    json_t *ix = json_object_get(at->index, sb.buf ? sb.buf : "");
    int k;
    if (ix) {
        k = (int)json_integer_value(ix);
    } else {
        k = (int)json_array_size(at->arr);
        json_t *a = json_object();
        json_object_set_new(a, "absoluteAddress", json_integer((json_int_t)start));
        json_object_set_new(a, "name", json_string(sym));
        json_object_set_new(a, "fullyQualifiedName", json_string(sym));
        json_object_set_new(a, "kind", json_string(sym[0] == '.' ? "section" : "function"));
        json_array_append_new(at->arr, a);
        json_object_set_new(at->index, sb.buf ? sb.buf : "", json_integer(k));
    }
    gcn_sb_free(&sb);
    return k;
}

/* physicalLocation: the file, the line (region) when known, and the
 * instruction's address as symbol+0xOFF (address object). */
static json_t *sarif_phys(sarif_addrs *at, const char *input, const char *file, unsigned line,
                          const char *symbol, const char *kernel, uint64_t off, uint64_t addr)
{
    json_t *pl = json_object();
    json_t *al = json_object();
    json_object_set_new(al, "uri", jstr(file));
    json_object_set_new(pl, "artifactLocation", al);
    if (line) {
        json_t *rg = json_object();
        json_object_set_new(rg, "startLine", json_integer(line));
        json_object_set_new(pl, "region", rg);
    }
    const char *sym = symbol ? symbol : kernel ? kernel : ".text";
    json_t *ad = json_object();
    json_object_set_new(ad, "absoluteAddress", json_integer((json_int_t)(addr ? addr : off)));
    json_object_set_new(ad, "kind", json_string("instruction"));
    json_object_set_new(ad, "fullyQualifiedName", jwhere(symbol, kernel, off));
    if (addr >= off) {
        json_object_set_new(ad, "offsetFromParent", json_integer((json_int_t)off));
        json_object_set_new(ad, "parentIndex",
                            json_integer(sarif_parent(at, input, sym, addr - off)));
    }
    json_object_set_new(pl, "address", ad);
    return pl;
}

static json_t *sarif_logical(const char *symbol, const char *kernel)
{
    const char *sym = symbol ? symbol : kernel ? kernel : ".text";
    json_t *ll = json_array();
    json_t *l1 = json_object();
    json_object_set_new(l1, "name", json_string(sym));
    if (sym[0] != '.')
        json_object_set_new(l1, "kind", json_string("function"));
    json_array_append_new(ll, l1);
    return ll;
}

int gcn_report_sarif(FILE *out, const gcn_diags *ds, const char *const *inputs, unsigned ninputs)
{
    json_t *root = json_object();
    json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(root, "version", json_string("2.1.0"));
    json_t *run = json_object();
    json_t *driver = json_object();
    json_object_set_new(driver, "name", json_string("gcnlint"));
    json_object_set_new(driver, "version", json_string(PACKAGE_VERSION));
    json_object_set_new(driver, "informationUri", json_string("docs/gcnlint.md"));
    /* rules: the fixed checks, then every hazard rule name that occurs */
    json_t *rules = json_array();
    json_t *rule_index = json_object();
    for (int c = 0; c < GCN_CHK_COUNT; c++) {
        json_t *r = json_object();
        json_object_set_new(r, "id", json_string(checks[c].name));
        json_t *sd = json_object();
        json_object_set_new(sd, "text", json_string(checks[c].desc));
        json_object_set_new(r, "shortDescription", sd);
        json_t *dc = json_object();
        int sev = c == GCN_CHK_WAIT_SUGGEST || c == GCN_CHK_WAIT_STRONGER ? GCN_SEV_NOTE
                : c >= GCN_CHK_CFG_INDIRECT && c <= GCN_CHK_CFG_LIMIT ? GCN_SEV_WARNING
                : GCN_SEV_ERROR;
        json_object_set_new(dc, "level", json_string(sarif_level(sev)));
        json_object_set_new(r, "defaultConfiguration", dc);
        json_object_set_new(rule_index, checks[c].name, json_integer(json_array_size(rules)));
        json_array_append_new(rules, r);
    }
    for (unsigned i = 0; i < ds->n; i++) {
        const char *name = ds->d[i].check_name;
        if (name && !json_object_get(rule_index, name)) {
            json_t *r = json_object();
            json_object_set_new(r, "id", json_string(name));
            json_t *sd = json_object();
            json_object_set_new(sd, "text", json_string(checks[GCN_CHK_HAZARD].desc));
            json_object_set_new(r, "shortDescription", sd);
            json_object_set_new(rule_index, name, json_integer(json_array_size(rules)));
            json_array_append_new(rules, r);
        }
    }
    json_object_set_new(driver, "rules", rules);
    json_t *tool = json_object();
    json_object_set_new(tool, "driver", driver);
    json_object_set_new(run, "tool", tool);
    json_t *arts = json_array();
    for (unsigned i = 0; i < ninputs; i++) {
        json_t *a = json_object();
        json_t *l = json_object();
        json_object_set_new(l, "uri", json_string(inputs[i]));
        json_object_set_new(a, "location", l);
        json_array_append_new(arts, a);
    }
    json_object_set_new(run, "artifacts", arts);
    json_t *results = json_array();
    sarif_addrs at = {json_array(), json_object()};
    char buf[32];
    for (unsigned i = 0; i < ds->n; i++) {
        const gcn_diag *d = &ds->d[i];
        json_t *r = json_object();
        json_object_set_new(r, "ruleId", jstr(d->check_name));
        json_t *ri = json_object_get(rule_index, d->check_name ? d->check_name : "");
        if (ri)
            json_object_set_new(r, "ruleIndex", json_integer(json_integer_value(ri)));
        json_object_set_new(r, "level", json_string(sarif_level(d->severity)));
        json_t *m = json_object();
        json_object_set_new(m, "text", jstr(d->msg));
        json_object_set_new(r, "message", m);
        json_t *locs = json_array();
        json_t *loc = json_object();
        json_object_set_new(loc, "physicalLocation",
                            sarif_phys(&at, d->input, d->file, d->line, d->symbol, d->kernel,
                                       d->offset, d->addr));
        json_object_set_new(loc, "logicalLocations", sarif_logical(d->symbol, d->kernel));
        json_array_append_new(locs, loc);
        json_object_set_new(r, "locations", locs);
        json_t *rel = json_array();
        if (d->rel_offset >= 0) {
            json_t *rl = json_object();
            json_object_set_new(rl, "id", json_integer(1));
            json_object_set_new(rl, "physicalLocation",
                                sarif_phys(&at, d->input, d->rel_file ? d->rel_file : d->file,
                                           d->rel_line, d->rel_symbol, d->kernel,
                                           (uint64_t)d->rel_offset, d->rel_addr));
            json_t *rm = json_object();
            json_object_set_new(rm, "text", json_string("producing instruction"));
            json_object_set_new(rl, "message", rm);
            json_array_append_new(rel, rl);
        }
        /* a group: every site (the first is the result's own location) */
        for (unsigned k = 0; d->nsites > 1 && k < d->nsites; k++) {
            const gcn_dsite *st = &d->sites[k];
            json_t *rl = json_object();
            json_object_set_new(rl, "id", json_integer(2 + k));
            json_object_set_new(rl, "physicalLocation",
                                sarif_phys(&at, d->input, st->file ? st->file : d->file, st->line,
                                           st->symbol, d->kernel, st->offset, st->addr));
            json_t *rm = json_object();
            json_object_set_new(rm, "text", jstr(st->msg));
            json_object_set_new(rl, "message", rm);
            json_array_append_new(rel, rl);
        }
        if (json_array_size(rel))
            json_object_set_new(r, "relatedLocations", rel);
        else
            json_decref(rel);
        json_t *props = json_object();
        json_object_set_new(props, "input", jstr(d->input));
        json_object_set_new(props, "kernel", jstr(d->kernel));
        json_object_set_new(props, "offset", json_string(hex(d->offset, buf, sizeof buf)));
        json_object_set_new(props, "location", jwhere(d->symbol, d->kernel, d->offset));
        json_object_set_new(props, "count", json_integer(d->nsites > 1 ? d->nsites : 1));
        if (d->explain)
            json_object_set_new(props, "explanation", jstr(d->explain));
        json_object_set_new(r, "properties", props);
        json_array_append_new(results, r);
    }
    json_object_set_new(run, "addresses", at.arr);
    json_decref(at.index);
    json_object_set_new(run, "results", results);
    json_t *runs = json_array();
    json_array_append_new(runs, run);
    json_object_set_new(root, "runs", runs);
    json_decref(rule_index);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc;
}

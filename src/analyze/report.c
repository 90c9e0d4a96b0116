/*
 * report.c -- findings: the check registry, the finding and diagnostic
 * containers, and output as gcc-style text, JSON and SARIF 2.1.0
 * (OASIS "Static Analysis Results Interchange Format" 2.1.0: sarifLog ->
 * runs[] -> tool.driver.rules[], artifacts[], results[] with ruleId, level,
 * message, locations[].physicalLocation {artifactLocation, region | address},
 * relatedLocations[]).
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

/* ---- diagnostics -------------------------------------------------------- */

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
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
    return 0;
}

void gcn_diags_free(gcn_diags *ds)
{
    for (unsigned i = 0; i < ds->n; i++) {
        gcn_diag *d = &ds->d[i];
        free(d->input); free(d->kernel); free(d->file); free(d->check_name);
        free(d->msg); free(d->explain); free(d->rel_file); free(d->wait_file);
    }
    free(ds->d);
    memset(ds, 0, sizeof *ds);
}

static void text_loc(FILE *out, const char *file, unsigned line, uint64_t off)
{
    if (line)
        fprintf(out, "%s:%u", file, line);
    else
        fprintf(out, "%s:+0x%llx", file, (unsigned long long)off);
}

void gcn_report_text(FILE *out, const gcn_diags *ds, bool explain)
{
    for (unsigned i = 0; i < ds->n; i++) {
        const gcn_diag *d = &ds->d[i];
        text_loc(out, d->file, d->line, d->offset);
        fprintf(out, ": %s: %s [%s]\n", gcn_severity_name(d->severity), d->msg, d->check_name);
        if (explain && d->rel_file && d->rel_offset >= 0) {
            text_loc(out, d->rel_file, d->rel_line, (uint64_t)d->rel_offset);
            fprintf(out, ": note: the producing instruction is here\n");
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
        json_object_set_new(o, "severity", json_string(gcn_severity_name(d->severity)));
        json_object_set_new(o, "check", jstr(d->check_name));
        json_object_set_new(o, "message", jstr(d->msg));
        if (d->rel_offset >= 0) {
            json_t *p = json_object();
            json_object_set_new(p, "file", jstr(d->rel_file));
            json_object_set_new(p, "line", d->rel_line ? json_integer(d->rel_line) : json_null());
            json_object_set_new(p, "offset", json_string(hex((uint64_t)d->rel_offset, buf,
                                                             sizeof buf)));
            json_object_set_new(o, "producer", p);
        }
        if (d->wait_offset >= 0) {
            json_t *p = json_object();
            json_object_set_new(p, "file", jstr(d->wait_file));
            json_object_set_new(p, "line", d->wait_line ? json_integer(d->wait_line) : json_null());
            json_object_set_new(p, "offset", json_string(hex((uint64_t)d->wait_offset, buf,
                                                             sizeof buf)));
            json_object_set_new(o, "wait", p);
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

static json_t *sarif_phys(const char *file, unsigned line, uint64_t off)
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
    json_t *ad = json_object();
    json_object_set_new(ad, "absoluteAddress", json_integer((json_int_t)off));
    json_object_set_new(ad, "kind", json_string("instruction"));
    json_object_set_new(pl, "address", ad);
    return pl;
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
        json_object_set_new(loc, "physicalLocation", sarif_phys(d->file, d->line, d->offset));
        if (d->kernel) {
            json_t *ll = json_array();
            json_t *l1 = json_object();
            json_object_set_new(l1, "name", json_string(d->kernel));
            json_object_set_new(l1, "kind", json_string("function"));
            json_array_append_new(ll, l1);
            json_object_set_new(loc, "logicalLocations", ll);
        }
        json_array_append_new(locs, loc);
        json_object_set_new(r, "locations", locs);
        if (d->rel_offset >= 0) {
            json_t *rel = json_array();
            json_t *rl = json_object();
            json_object_set_new(rl, "id", json_integer(1));
            json_object_set_new(rl, "physicalLocation",
                                sarif_phys(d->rel_file ? d->rel_file : d->file, d->rel_line,
                                           (uint64_t)d->rel_offset));
            json_t *rm = json_object();
            json_object_set_new(rm, "text", json_string("producing instruction"));
            json_object_set_new(rl, "message", rm);
            json_array_append_new(rel, rl);
            json_object_set_new(r, "relatedLocations", rel);
        }
        json_t *props = json_object();
        json_object_set_new(props, "input", jstr(d->input));
        json_object_set_new(props, "offset", json_string(hex(d->offset, buf, sizeof buf)));
        if (d->explain)
            json_object_set_new(props, "explanation", jstr(d->explain));
        json_object_set_new(r, "properties", props);
        json_array_append_new(results, r);
    }
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

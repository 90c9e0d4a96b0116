/*
 * devcmp.c -- the compare tool of the on-device cross-check: compares the
 * dumps of one gcnrun run (device) with those of one gcnsim run of the same
 * manifest, size and target, and writes the comparison report (JSON and
 * text, format in docs/gcnrun.md "Reports"); with --summary it gathers the
 * reports of a whole cross-check into one.
 *
 *   devcmp [--code F] [--tolerance F] [--label L] [--report-json F]
 *          [--report-text F] SIM_DIR DEV_DIR
 *   devcmp --summary --report-json F --report-text F CASE.json...
 *
 * Exit: 0 identical or within the stated tolerance, 1 different, 2 error
 * (missing or inconsistent dumps, not the same dispatch, bad tolerance file).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "run/compare.h"
#include "run/gcn_run.h"
#include "sim/manifest.h"

enum { EX_SAME = 0, EX_DIFF = 1, EX_ERROR = 2 };

static char errbuf[4096];

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail("%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
        }
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (!r)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        fail("%s: %s", path, b ? "read error" : "out of memory");
        return -1;
    }
    *data = b;
    *len = n;
    return 0;
}

static json_t *load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        fail("%s:%d: %s", path, je.line, je.text);
    return j;
}

static const char *jstr(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static char *path_in(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* "N=1000 WG=2" from a params object */
static void params_text(json_t *params, char *out, size_t n)
{
    out[0] = 0;
    const char *k;
    json_t *v;
    json_object_foreach(params, k, v) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s=%lld", l ? " " : "", k, (long long)json_integer_value(v));
    }
}

/* ---- the text of one case report (also used by --summary) -------------------------- */
static void case_text(json_t *c, FILE *f)
{
    char ps[512];
    params_text(json_object_get(c, "params"), ps, sizeof ps);
    fprintf(f, "== %s  %s  %s  [%s]\n", jstr(c, "kernel"), jstr(c, "target"), ps[0] ? ps : "-",
            json_object_get(c, "source_manifest") ? jstr(c, "source_manifest")
                                                  : jstr(c, "manifest"));
    json_t *dev = json_object_get(c, "device");
    if (dev)
        fprintf(f, "   device: %s (%s), %s\n", jstr(dev, "name"), jstr(dev, "arch"),
                jstr(dev, "runtime"));
    const char *res = jstr(c, "result");
    char up[64];
    size_t i = 0;
    for (; res[i] && i < sizeof up - 1; i++)
        up[i] = (char)(res[i] >= 'a' && res[i] <= 'z' ? res[i] - 32 : res[i]);
    up[i] = 0;
    fprintf(f, "   result: %s", up);
    if (json_object_get(c, "reason"))
        fprintf(f, ": %s", jstr(c, "reason"));
    if (json_object_get(c, "error"))
        fprintf(f, ": %s", jstr(c, "error"));
    fputc('\n', f);
    json_t *ap = json_object_get(c, "approximate_instructions");
    if (json_array_size(ap)) {
        fprintf(f, "   approximate instructions in the kernel:");
        size_t k;
        json_t *v;
        json_array_foreach(ap, k, v) fprintf(f, " %s", json_string_value(v));
        fputc('\n', f);
    }
    size_t bi;
    json_t *b;
    json_array_foreach(json_object_get(c, "buffers"), bi, b) {
        const char *br = jstr(b, "result");
        fprintf(f, "   %s%s: %s, %s, %lld bytes", jstr(b, "name"),
                json_is_true(json_object_get(b, "output")) ? " (output)" : "", br,
                jstr(b, "compare"), (long long)json_integer_value(json_object_get(b, "bytes")));
        json_t *fd = json_object_get(b, "first_difference");
        if (fd) {
            fprintf(f, "; %lld of %lld %s elements differ",
                    (long long)json_integer_value(json_object_get(b, "differing_elements")),
                    (long long)json_integer_value(json_object_get(b, "elements")), jstr(b, "type"));
            if (json_integer_value(json_object_get(b, "beyond_tolerance")) !=
                json_integer_value(json_object_get(b, "differing_elements")))
                fprintf(f, " (%lld beyond the tolerance)",
                        (long long)json_integer_value(json_object_get(b, "beyond_tolerance")));
            fprintf(f, "\n     first: %s[%lld] (byte offset %lld): device %s, gcnsim %s",
                    jstr(b, "name"), (long long)json_integer_value(json_object_get(fd, "index")),
                    (long long)json_integer_value(json_object_get(fd, "byte_offset")),
                    jstr(fd, "device"), jstr(fd, "gcnsim"));
            if (json_is_integer(json_object_get(fd, "ulp")))
                fprintf(f, ", %lld ulp", (long long)json_integer_value(json_object_get(fd, "ulp")));
            if (json_object_get(fd, "as_f32"))
                fprintf(f, " [as f32: %s]", jstr(fd, "as_f32"));
        }
        fputc('\n', f);
    }
    if (json_is_true(json_object_get(c, "gcnsim_findings")))
        fprintf(f, "   gcnsim reports wait-counter findings: the kernel is racy, its results depend "
                "on memory timing\n");
    json_t *ref = json_object_get(c, "reference");
    if (ref)
        fprintf(f, "   C reference: device %s; gcnsim %s\n", jstr(ref, "device"),
                jstr(ref, "gcnsim"));
    const char *dd = jstr(c, "dev_dir"), *sd = jstr(c, "sim_dir");
    if (*dd || *sd)
        fprintf(f, "   dumps: device %s, gcnsim %s\n", dd, sd);
}

static int write_reports(json_t *j, const char *jpath, const char *tpath, int summary)
{
    if (jpath) {
        char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        char e[1024];
        if (!s || gcn_run_write_file(jpath, s, strlen(s), e, sizeof e)) {
            fprintf(stderr, "devcmp: %s\n", s ? e : "out of memory");
            free(s);
            return -1;
        }
        free(s);
    }
    if (tpath) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m)
            return -1;
        if (summary) {
            fprintf(m, "gcnrun cross-check report (%s)\n", jstr(j, "generated"));
            json_t *dev = json_object_get(j, "device");
            if (dev)
                fprintf(m, "device: %s (%s), %s\n", jstr(dev, "name"), jstr(dev, "arch"),
                        jstr(dev, "runtime"));
            if (json_object_get(j, "note"))
                fprintf(m, "note: %s\n", jstr(j, "note"));
            size_t i;
            json_t *c;
            json_array_foreach(json_object_get(j, "cases"), i, c) case_text(c, m);
            json_t *n = json_object_get(j, "counts");
            fprintf(m, "%lld identical, %lld within tolerance, %lld different, %lld errors, "
                    "%lld skipped\n",
                    (long long)json_integer_value(json_object_get(n, "identical")),
                    (long long)json_integer_value(json_object_get(n, "within-tolerance")),
                    (long long)json_integer_value(json_object_get(n, "different")),
                    (long long)json_integer_value(json_object_get(n, "error")),
                    (long long)json_integer_value(json_object_get(n, "skipped")));
        } else {
            case_text(j, m);
        }
        fclose(m);
        char e[1024];
        int rc = gcn_run_write_file(tpath, buf, len, e, sizeof e);
        if (rc)
            fprintf(stderr, "devcmp: %s\n", e);
        free(buf);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- one comparison ------------------------------------------------------------------ */
typedef struct tol {
    int type;
    uint64_t ulp;
} tol;

/* The tolerance entry of kernel/buffer, or type -1. */
static int find_tol(json_t *tf, const char *kernel, const char *buffer, tol *t)
{
    t->type = -1;
    t->ulp = 0;
    if (!tf)
        return 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(tf, "tolerances"), i, e) {
        if (strcmp(jstr(e, "kernel"), kernel) || strcmp(jstr(e, "buffer"), buffer))
            continue;
        t->type = gcn_cmp_type_from_name(jstr(e, "type"));
        json_t *u = json_object_get(e, "ulp");
        if (t->type < 0 || !gcn_cmp_type_is_float((gcn_cmp_type)t->type) || !json_is_integer(u) ||
            json_integer_value(u) < 1) {
            fail("tolerance entry %s.%s: needs \"type\" (f16, bf16, f32, f64) and \"ulp\" >= 1",
                 kernel, buffer);
            return -1;
        }
        t->ulp = (uint64_t)json_integer_value(u);
    }
    return 0;
}

static const char *verdict_name(int v)
{
    return v == GCN_CMP_SAME ? "identical" : v == GCN_CMP_WITHIN ? "within-tolerance" : "different";
}

static int compare(const char *simdir, const char *devdir, const char *code, const char *tolfile,
                   const char *label, json_t *rep)
{
    int ex = EX_ERROR;
    json_t *rs = NULL, *rd = NULL, *tf = NULL;
    gcn_manifest *m = NULL;
    gcn_codeobj *co = NULL;
    char *p;
    char abs1[PATH_MAX], abs2[PATH_MAX];
    json_object_set_new(rep, "format", json_string("gcnrun-compare/1"));
    if (label)
        json_object_set_new(rep, "label", json_string(label));
    json_object_set_new(rep, "sim_dir", json_string(realpath(simdir, abs1) ? abs1 : simdir));
    json_object_set_new(rep, "dev_dir", json_string(realpath(devdir, abs2) ? abs2 : devdir));
    p = path_in(simdir, "run.json");
    rs = p ? load_json(p) : NULL;
    free(p);
    if (!rs)
        goto out;
    p = path_in(devdir, "run.json");
    rd = p ? load_json(p) : NULL;
    free(p);
    if (!rd)
        goto out;
    json_object_set(rep, "manifest", json_object_get(rs, "manifest") ? json_object_get(rs, "manifest") : json_string(""));
    json_object_set_new(rep, "kernel", json_string(jstr(rs, "kernel")));
    json_object_set_new(rep, "target", json_string(jstr(rs, "target")));
    json_object_set(rep, "params", json_object_get(rs, "params") ? json_object_get(rs, "params") : json_object());
    if (json_object_get(rd, "device"))
        json_object_set(rep, "device", json_object_get(rd, "device"));
    static const char *const same[] = {"kernel", "target", "params", "grid", "block", "args",
                                       "buffers", "outputs"};
    for (unsigned i = 0; i < sizeof same / sizeof *same; i++) {
        json_t *a = json_object_get(rs, same[i]), *b = json_object_get(rd, same[i]);
        int eq;
        if (!strcmp(same[i], "buffers")) {
            /* the same buffers of the same sizes (the files each dump holds may differ:
             * gcnsim dumps inputs and non-outputs only when asked) */
            const char *bn;
            json_t *bv;
            eq = json_object_size(a) == json_object_size(b);
            json_object_foreach(a, bn, bv)
                eq = eq && json_object_get(b, bn) &&
                     json_equal(json_object_get(bv, "size"),
                                json_object_get(json_object_get(b, bn), "size"));
        } else {
            eq = json_equal(a, b) || (!a && !b);
        }
        if (!eq) {
            fail("not the same dispatch: run.json \"%s\" differs between %s and %s", same[i],
                 simdir, devdir);
            goto out;
        }
    }
    if (!json_object_get(rd, "device"))
        fprintf(stderr, "devcmp: warning: %s/run.json has no \"device\" (not written by gcnrun?)\n",
                devdir);
    /* the kernel's approximate instructions */
    const char *kname = jstr(rs, "kernel");
    char errm[2048];
    if (!code) {
        const char *mp = jstr(rs, "manifest");
        if (gcn_mf_load(mp, NULL, 0, &m, errm, sizeof errm)) {
            fail("cannot find the code (give --code): %s", errm);
            goto out;
        }
        code = m->code;
    }
    if (gcn_mf_load_code(code, jstr(rs, "target"), &co, errm, sizeof errm)) {
        fail("%s", errm);
        goto out;
    }
    const gcn_kernel *k = *kname ? gcn_co_kernel(co, kname) : co->nkernels == 1 ? co->kernels : NULL;
    if (!k) {
        fail("%s: no kernel %s", code, *kname ? kname : "(the code object has several)");
        goto out;
    }
    if (!*kname) {
        kname = k->name;
        json_object_set_new(rep, "kernel", json_string(kname));
    }
    char approx[1024];
    gcn_cmp_approx_insns(co, k, approx, sizeof approx);
    json_t *aa = json_array();
    for (char *s = approx, *tok; (tok = strtok(s, " ")); s = NULL)
        json_array_append_new(aa, json_string(tok));
    json_object_set_new(rep, "approximate_instructions", aa);
    if (tolfile && !(tf = load_json(tolfile)))
        goto out;
    /* buffers */
    json_t *outs = json_object_get(rs, "outputs");
    json_t *bufs = json_array();
    json_object_set_new(rep, "buffers", bufs);
    int worst = GCN_CMP_SAME, inputs_differ = 0;
    const char *bname;
    json_t *bdesc;
    json_object_foreach(json_object_get(rs, "buffers"), bname, bdesc) {
        int is_out = 0;
        size_t oi;
        json_t *ov;
        json_array_foreach(outs, oi, ov) if (!strcmp(json_string_value(ov), bname)) is_out = 1;
        uint64_t size = (uint64_t)json_integer_value(json_object_get(bdesc, "size"));
        tol t;
        if (find_tol(tf, kname, bname, &t))
            goto out;
        if (t.type >= 0 && !json_array_size(aa)) {
            fail("%s: tolerance for %s.%s, but the kernel has no approximate instruction: its "
                 "results must be bit-exact (remove the entry)", tolfile, kname, bname);
            goto out;
        }
        if (t.type >= 0 && !is_out) {
            fail("%s: tolerance for %s.%s, which is not an output", tolfile, kname, bname);
            goto out;
        }
        uint8_t *d[4] = {0};
        size_t l[4] = {0};
        const char *files[4] = {"in", "out", "in", "out"};
        int bad = 0;
        json_t *ddesc = json_object_get(json_object_get(rd, "buffers"), bname);
        for (int q = 0; q < 4 && !bad; q++) {
            const char *fn = jstr(q < 2 ? bdesc : ddesc, files[q]);
            if (!*fn) {
                fail("%s/run.json: the dump has no %s file of buffer %s (gcnsim: dump with "
                     "--dump-inputs and --output for every buffer)", q < 2 ? simdir : devdir,
                     q % 2 ? "output" : "input", bname);
                bad = 1;
                break;
            }
            char *f = path_in(q < 2 ? simdir : devdir, fn);
            bad = !f || read_file(f, &d[q], &l[q]);
            if (!bad && l[q] != size) {
                fail("%s: %zu bytes, run.json says %llu", f, l[q], (unsigned long long)size);
                bad = 1;
            }
            free(f);
        }
        if (bad) {
            for (int q = 0; q < 4; q++)
                free(d[q]);
            goto out;
        }
        gcn_cmp_type ty = t.type >= 0 ? (gcn_cmp_type)t.type : size % 4 ? GCN_CMP_U8 : GCN_CMP_U32;
        gcn_cmp_result in, r;
        gcn_cmp_bytes(d[0], d[2], size, GCN_CMP_U8, 0, &in);
        gcn_cmp_bytes(d[3], d[1], size, ty, t.ulp, &r);   /* a = device, b = gcnsim */
        json_t *bj = json_object();
        json_object_set_new(bj, "name", json_string(bname));
        json_object_set_new(bj, "output", json_boolean(is_out));
        json_object_set_new(bj, "bytes", json_integer((json_int_t)size));
        json_object_set_new(bj, "type", json_string(gcn_cmp_type_name(ty)));
        char how[64];
        if (t.type >= 0)
            snprintf(how, sizeof how, "%s within %llu ulp", gcn_cmp_type_name(ty),
                     (unsigned long long)t.ulp);
        else
            snprintf(how, sizeof how, "bit-exact");
        json_object_set_new(bj, "compare", json_string(how));
        if (in.verdict != GCN_CMP_SAME) {
            inputs_differ = 1;
            json_object_set_new(bj, "result", json_string("input-different"));
            json_object_set_new(bj, "first_input_difference",
                                json_integer((json_int_t)in.first_index));
        } else {
            json_object_set_new(bj, "result", json_string(verdict_name(r.verdict)));
        }
        json_object_set_new(bj, "elements", json_integer((json_int_t)r.nelems));
        json_object_set_new(bj, "differing_elements", json_integer((json_int_t)r.ndiff));
        json_object_set_new(bj, "beyond_tolerance", json_integer((json_int_t)r.nbeyond));
        if (r.has_first) {
            unsigned es = gcn_cmp_type_size(ty);
            char a[96], b[96];
            gcn_cmp_format(ty, r.first_a, a, sizeof a);
            gcn_cmp_format(ty, r.first_b, b, sizeof b);
            json_t *fd = json_object();
            json_object_set_new(fd, "index", json_integer((json_int_t)r.first_index));
            json_object_set_new(fd, "byte_offset", json_integer((json_int_t)(r.first_index * es)));
            json_object_set_new(fd, "device", json_string(a));
            json_object_set_new(fd, "gcnsim", json_string(b));
            json_object_set_new(fd, "ulp", r.first_ulp == UINT64_MAX || !gcn_cmp_type_is_float(ty)
                                ? json_null() : json_integer((json_int_t)r.first_ulp));
            if (ty == GCN_CMP_U32) {
                uint32_t ua = (uint32_t)r.first_a, ub = (uint32_t)r.first_b;
                float fa, fb;
                memcpy(&fa, &ua, 4);
                memcpy(&fb, &ub, 4);
                char both[128];
                snprintf(both, sizeof both, "device %.9g, gcnsim %.9g", (double)fa, (double)fb);
                json_object_set_new(fd, "as_f32", json_string(both));
            }
            json_object_set_new(bj, "first_difference", fd);
            if (gcn_cmp_type_is_float(ty) && r.max_ulp != UINT64_MAX)
                json_object_set_new(bj, "max_ulp", json_integer((json_int_t)r.max_ulp));
        }
        json_array_append_new(bufs, bj);
        if (r.verdict > worst)
            worst = r.verdict;
        for (int q = 0; q < 4; q++)
            free(d[q]);
    }
    if (inputs_differ) {
        fail("the initial buffer contents differ between gcnsim and gcnrun (a gcnrun bug)");
        goto out;
    }
    json_object_set_new(rep, "result", json_string(verdict_name(worst)));
    ex = worst == GCN_CMP_DIFF ? EX_DIFF : EX_SAME;
out:
    if (ex == EX_ERROR) {
        json_object_set_new(rep, "result", json_string("error"));
        json_object_set_new(rep, "error", json_string(errbuf));
    }
    json_decref(rs);
    json_decref(rd);
    json_decref(tf);
    gcn_co_close(co);
    gcn_mf_free(m);
    return ex;
}

/* ---- --summary ------------------------------------------------------------------------- */
static int summary(char **files, int n, json_t *rep)
{
    static const char *const keys[] = {"identical", "within-tolerance", "different", "error",
                                       "skipped"};
    json_t *counts = json_object();
    for (unsigned i = 0; i < 5; i++)
        json_object_set_new(counts, keys[i], json_integer(0));
    json_t *cases = json_array();
    char when[64];
    time_t t = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    json_object_set_new(rep, "format", json_string("gcnrun-report/1"));
    json_object_set_new(rep, "generated", json_string(when));
    for (int i = 0; i < n; i++) {
        json_t *c = load_json(files[i]);
        if (!c) {
            fprintf(stderr, "devcmp: %s\n", errbuf);
            json_decref(counts);
            json_decref(cases);
            return EX_ERROR;
        }
        const char *r = jstr(c, "result");
        json_t *cnt = json_object_get(counts, r);
        if (!cnt) {
            r = "error";
            cnt = json_object_get(counts, r);
        }
        json_object_set_new(counts, r, json_integer(json_integer_value(cnt) + 1));
        if (!json_object_get(rep, "device") && json_object_get(c, "device"))
            json_object_set(rep, "device", json_object_get(c, "device"));
        json_array_append_new(cases, c);
    }
    json_object_set_new(rep, "counts", counts);
    json_object_set_new(rep, "cases", cases);
    return EX_SAME;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: devcmp [--code FILE] [--tolerance FILE] [--label TEXT]\n"
        "              [--report-json FILE] [--report-text FILE] SIM_DIR DEV_DIR\n"
        "       devcmp --summary [--note TEXT] --report-json FILE --report-text FILE CASE.json...\n"
        "Compare gcnrun's dumps (DEV_DIR) with gcnsim's (SIM_DIR) of the same dispatch.\n"
        "Exit: 0 identical or within tolerance, 1 different, 2 error.\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"code", required_argument, 0, 'c'}, {"tolerance", required_argument, 0, 't'},
        {"label", required_argument, 0, 'l'}, {"report-json", required_argument, 0, 'j'},
        {"report-text", required_argument, 0, 'x'}, {"summary", no_argument, 0, 's'},
        {"note", required_argument, 0, 'n'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *code = NULL, *tolf = NULL, *label = NULL, *rj = NULL, *rt = NULL, *note = NULL;
    int sum = 0, c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': code = optarg; break;
        case 't': tolf = optarg; break;
        case 'l': label = optarg; break;
        case 'j': rj = optarg; break;
        case 'x': rt = optarg; break;
        case 's': sum = 1; break;
        case 'n': note = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return EX_ERROR;
        }
    }
    json_t *rep = json_object();
    int ex;
    if (sum) {
        ex = summary(argv + optind, argc - optind, rep);
        if (note)
            json_object_set_new(rep, "note", json_string(note));
    } else {
        if (argc - optind != 2) {
            usage(stderr);
            json_decref(rep);
            return EX_ERROR;
        }
        ex = compare(argv[optind], argv[optind + 1], code, tolf, label, rep);
        if (ex == EX_ERROR)
            fprintf(stderr, "devcmp: %s\n", errbuf);
    }
    if (write_reports(rep, rj, rt, sum))
        ex = EX_ERROR;
    if (!sum && !rt)
        case_text(rep, stdout);
    json_decref(rep);
    return ex;
}

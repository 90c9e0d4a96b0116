/*
 * gcnsim.c -- the gcnsim command: run a kernel of a code object (or assembly
 * source, or a run manifest) on the functional wave64 simulator and report
 * wait-counter findings.  Thin: the work is in libgcn (src/sim).
 *
 * Exit codes: 0 ran clean, 1 usage, 2 bad input, 3 kernel fault (memory
 * fault, illegal or unsimulated instruction, budget exceeded), 4 ran with
 * findings.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/gcn_sim.h"
#include "sim/manifest.h"
#include "gcn_file.h"
#include "tools/gcn_version.h"
#include "sim/trace.h"
#include "analyze/gcn_hazard.h"
#include "cli.h"

enum { EX_OK = 0, EX_USAGE = 1, EX_INPUT = 2, EX_FAULT = 3, EX_FINDINGS = 4 };

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcnsim [options] FILE.hsaco|FILE.s\n"
        "       gcnsim [options] --manifest M.json [FILE]\n"
        "Run a kernel on the functional gfx942/gfx950 wave64 simulator.\n"
        "\n"
        "Dispatch (without a manifest):\n"
        "  --kernel NAME          kernel to run (default: the only one)\n"
        "  --grid X[,Y[,Z]]       workgroups per dimension (default 1)\n"
        "  --block X[,Y[,Z]]      work-items per workgroup (default 64)\n"
        "  --buffer NAME:SIZE[:INIT]  a device buffer; INIT = zero | fill=BYTE |\n"
        "                         random=f32|f16|bf16|u32|i32|u8[,SEED] | file=PATH\n"
        "  --arg KIND:VALUE       next kernel argument: buffer:NAME, u32:N, i32:N, u64:N,\n"
        "                         i64:N, f32:X, f64:X (repeat in order)\n"
        "  --output NAME          buffer to dump (repeatable; default all; with --manifest:\n"
        "                         instead of the manifest's outputs)\n"
        "  --default-args[=zero|random]  no --buffer/--arg: make them from the kernel's\n"
        "                         metadata and run on stated defaults (announced): a\n"
        "                         buffer per pointer, zero- (default) or random-filled\n"
        "  --default-buffer-size N  bytes of each such buffer (default 65536)\n"
        "  --default-scalar N     value of every scalar argument (default 1; structs zero)\n"
        "Kernels and their arguments (from the code object's metadata; print and exit):\n"
        "  --list-kernels         the kernels of the code object, one per line\n"
        "  --list-args            each argument: offset, size, value kind, name, the --arg\n"
        "                         kind to give, address space of pointers; hidden ones marked\n"
        "  --manifest-template[=FILE]  a manifest to edit for the kernel (stdout, or FILE)\n"
        "Common:\n"
        "  --manifest M.json      run manifest (docs/manifest.md)\n"
        "  --code FILE            with --manifest: run FILE (another build of the kernel) in\n"
        "                         place of the manifest's code, its arguments checked against\n"
        "                         the manifest's (also: --manifest M.json FILE); --kernel NAME\n"
        "                         when FILE names the kernel differently\n"
        "  --set NAME=VALUE       override a manifest param (repeatable)\n"
        "  --all-sizes            run every entry of the manifest's test_sizes, a summary line\n"
        "                         each (stdout); exit: the worst (2, then 3, then 4, then 0)\n"
        "  --mcpu gfx942|gfx950   target (also --mcpu=X, -mcpu=X); default: the one the\n"
        "                         input states (ELF, .amdgcn_target), else the manifest's\n"
        "  --dump-dir DIR         write the outputs (NAME.bin) and run.json there\n"
        "  --dump-inputs          with --dump-dir: also every buffer's initial bytes\n"
        "                         (NAME.in.bin), which the C references read\n"
        "  --max-insns N          wave-instruction budget of one workgroup (default 2000000000)\n"
        "  --strict               stop at the first finding\n"
        "  --hazard-effect=MODE   hazards (too few wait states, src/analyze/hazards.def):\n"
        "                         report (default), stale (report, and the consumer reads\n"
        "                         the value from before the producer wrote it), off\n"
        "  --wait-effect=MODE     a load not yet retired by s_waitcnt when its register is\n"
        "                         read or written (read-before-retire, ...): stale (default:\n"
        "                         the old value is read, the load lands later), retire\n"
        "                         (report, then retire the loads as the proposed wait would)\n"
        "  --llvm-conservative    also the hazard rules only LLVM imposes, beyond the ISA\n"
        "                         guide and rocRoller (off by default; docs/hazards.md)\n"
        "  --list-hazards         list the hazard rules of the target (--mcpu) and exit\n"
        "  --trace=fifo           per-instruction FIFO trace of one wave (stdout)\n"
        "  --wave=WG,W            the wave to trace/plot: flat workgroup index, wave (0,0);\n"
        "                         one outside the dispatch is a usage error (exit 1)\n"
        "  --trace-json FILE      Chrome/Perfetto trace of that wave\n"
        "  --plot FILE.svg        FIFO depth plot of that wave\n"
        "  --max-findings N       findings to print (default 20)\n"
        "  --no-group             one finding per site (kind, pc, producer); by default the\n"
        "                         sites of one rule are one finding with a count and the pcs\n"
        "  --json FILE            the findings as JSON (grouped unless --no-group); with\n"
        "                         --dump-dir they also go into run.json\n"
        "  --quantum N            instructions a wave runs before the next wave of its\n"
        "                         workgroup (default 1: instruction-level round robin)\n"
        "  -j N, --jobs N         run workgroups on N threads (default: one per CPU); the\n"
        "                         results are those of -j 1 (docs/gcnsim.md, Threads)\n"
        "  -q, --quiet            no summary line; --no-progress: no progress line\n"
        "  -h, --help             this help\n"
        "  --version              print the version (and the git revision) and exit\n"
        "Exit: 0 clean, 1 usage, 2 bad input, 3 kernel fault, 4 findings.\n");
}

typedef struct strv {
    char **v;
    unsigned n;
} strv;

/* The strings stay argv's: nothing to free on an early return. */
static void strv_add(strv *s, char *x)
{
    char **nv = realloc(s->v, (s->n + 2) * sizeof *nv);
    if (!nv)
        return;
    s->v = nv;
    s->v[s->n++] = x;
    s->v[s->n] = NULL;
}

/* A decimal or 0x number in [lo, hi], nothing else (no sign, no blanks, no
 * trailing text); 0 or -1. */
static int parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!s || !((s[0] >= '0' && s[0] <= '9')))
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

static int parse_dims(const char *s, json_t **out)
{
    json_t *a = json_array();
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        char *end;
        long v = strtol(p, &end, 0);
        if (end == p || v < 1 || !(*p >= '0' && *p <= '9')) {
            json_decref(a);
            return -1;
        }
        json_array_append_new(a, json_integer(v));
        if (*end == 0)
            break;
        if (*end != ',' || i == 2) {
            json_decref(a);
            return -1;
        }
        p = end + 1;
    }
    *out = a;
    return 0;
}

/* --buffer NAME:SIZE[:INIT] -> manifest buffer object */
static int parse_buffer(const char *s, json_t *bufs, char *err, size_t errlen)
{
    char *dup = strdup(s);
    char *name = dup, *size = strchr(dup, ':'), *init = NULL;
    int rc = -1;
    if (!size || size == name) {
        snprintf(err, errlen, "--buffer %s: expected NAME:SIZE[:INIT]", s);
        goto out;
    }
    *size++ = 0;
    init = strchr(size, ':');
    if (init)
        *init++ = 0;
    json_t *b = json_object();
    char *end;
    long long sz = strtoll(size, &end, 0);
    if (*end == 0)
        json_object_set_new(b, "size", json_integer(sz));
    else
        json_object_set_new(b, "size", json_string(size));
    uint64_t num = 0;
    if (!init || !strcmp(init, "zero")) {
        json_object_set_new(b, "init", json_string("zero"));
    } else if (!strncmp(init, "fill=", 5)) {
        if (parse_num(init + 5, 0, 255, &num)) {
            snprintf(err, errlen, "--buffer %s: fill=%s: expected a byte value, 0 to 255", s,
                     init + 5);
            json_decref(b);
            goto out;
        }
        json_object_set_new(b, "init", json_pack("{s:i}", "fill", (int)num));
    } else if (!strncmp(init, "file=", 5)) {
        json_object_set_new(b, "init", json_pack("{s:s}", "file", init + 5));
    } else if (!strncmp(init, "random=", 7)) {
        char *t = init + 7, *seed = strchr(t, ',');
        num = 1;
        if (seed) {
            *seed++ = 0;
            if (parse_num(seed, 0, INT64_MAX, &num)) {
                snprintf(err, errlen, "--buffer %s: seed %s: expected an integer, 0 to 2^63-1", s,
                         seed);
                json_decref(b);
                goto out;
            }
        }
        json_object_set_new(b, "init", json_pack("{s:s,s:I}", "random", t, "seed", (json_int_t)num));
    } else {
        snprintf(err, errlen, "--buffer %s: INIT must be zero, fill=B, file=PATH or random=TYPE[,SEED]", s);
        json_decref(b);
        goto out;
    }
    json_object_set_new(bufs, name, b);
    rc = 0;
out:
    free(dup);
    return rc;
}

static int parse_arg(const char *s, json_t *args, char *err, size_t errlen)
{
    const char *c = strchr(s, ':');
    if (!c) {
        snprintf(err, errlen, "--arg %s: expected KIND:VALUE", s);
        return -1;
    }
    char kind[16];
    snprintf(kind, sizeof kind, "%.*s", (int)(c - s), s);
    const char *v = c + 1;
    json_t *o;
    if (!strcmp(kind, "buffer")) {
        o = json_pack("{s:s}", "buffer", v);
    } else if (!strcmp(kind, "f32") || !strcmp(kind, "f64")) {
        char *end;
        double d = strtod(v, &end);
        if (*end || end == v || d != d || d - d != 0) {
            snprintf(err, errlen, "--arg %s: not a finite number", s);
            return -1;
        }
        o = json_pack("{s:f}", kind, d);
    } else if (!strcmp(kind, "u32") || !strcmp(kind, "i32") || !strcmp(kind, "u64") ||
               !strcmp(kind, "i64")) {
        char *end;
        errno = 0;
        long long d = strtoll(v, &end, 0);
        if (*end || end == v || errno)
            o = json_pack("{s:s}", kind, v);      /* an expression (or a number out of range) */
        else
            o = json_pack("{s:I}", kind, (json_int_t)d);
    } else {
        snprintf(err, errlen, "--arg %s: unknown kind %s", s, kind);
        return -1;
    }
    json_array_append_new(args, o);
    return 0;
}

/* The command line, as parse_options read it (set once; main then checks how the
 * options combine).  Everything read from it that is allocated stays reachable from
 * here, so an early return leaks nothing (LeakSanitizer agrees). */
typedef struct cli_opts {
    /* the input */
    const char *manifest, *kernel, *file;  /* file: the code file argument, as given */
    int nfiles;                 /* arguments that are no option (one code file) */
    const char *code_opt;       /* --code FILE */
    const char *code_override;  /* with a manifest: --code FILE, or the FILE beside it */
    const char *mcpu;
    strv sets;                  /* --set NAME=VALUE */
    /* a dispatch without a manifest (JSON pieces of the manifest made from them) */
    json_t *grid, *block, *bufs, *args, *outs;
    strv dump_sel;              /* --output NAMEs given with a manifest: the buffers to dump
                                 * instead of its "outputs" */
    const char *def_args;       /* --default-args: "zero" or "random" */
    uint64_t def_bufsize;
    int64_t def_scalar;
    /* print and exit */
    int list_hz, list_kernels, list_args, tmpl;
    const char *tmpl_out;
    /* the run */
    int all_sizes, strict, hz_effect, hz_llvm, wait_effect;
    uint64_t max_insns;
    unsigned quantum, jobs;     /* jobs: -j, threads for the workgroups (0: one per CPU) */
    /* what it writes */
    const char *dump, *json_out, *trace_json, *plot;
    int dump_inputs, trace, wave_given, group, quiet, progress;
    unsigned twg, twave, maxf;
} cli_opts;

static cli_opts opt = {
    .def_bufsize = 65536, .def_scalar = 1, .hz_effect = GCN_SIM_HZ_REPORT,
    .wait_effect = GCN_SIM_WAIT_STALE, .quantum = 1, .group = 1, .progress = 1, .maxf = 20,
};

/* Standard output (the FIFO trace, --list-hazards) must have been written
 * whole: a full disk or a closed pipe is an output error, exit 2. */
static int finish_stdout(int ex)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gcnsim: cannot write standard output: %s\n", strerror(errno));
        return EX_INPUT;
    }
    return ex;
}

/* ---- findings as JSON (--json, run.json) ---------------------------------- */

static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *jhex(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return json_string(b);
}

static json_t *site_json(const gcn_sim_finding *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(gcn_sim_finding_name(f->kind)));
    json_object_set_new(o, "rule", jstr(f->rule));
    json_object_set_new(o, "pc", jhex(f->pc));
    json_object_set_new(o, "sym", jstr(f->sym));
    json_object_set_new(o, "where", jstr(f->where));
    json_object_set_new(o, "text", jstr(f->text));
    json_object_set_new(o, "detail", jstr(f->detail));
    if (f->prod_text)
        json_object_set_new(o, "producer", json_pack("{s:o,s:o,s:o,s:o}", "pc", jhex(f->prod_pc),
                                                     "sym", jstr(f->prod_sym), "where",
                                                     jstr(f->prod_where), "text", jstr(f->prod_text)));
    else
        json_object_set_new(o, "producer", json_null());
    if (f->fix_vmcnt >= 0 || f->fix_lgkmcnt >= 0) {
        char wt[64];
        gcn_sim_fix_text(f, wt, sizeof wt);
        json_object_set_new(o, "fix", json_pack(
            "{s:s,s:o,s:o,s:{s:o,s:o,s:o,s:o}}", "wait", wt,
            "vmcnt", f->fix_vmcnt >= 0 ? json_integer(f->fix_vmcnt) : json_null(),
            "lgkmcnt", f->fix_lgkmcnt >= 0 ? json_integer(f->fix_lgkmcnt) : json_null(),
            "before", "pc", jhex(f->fix_pc), "sym", jstr(f->fix_sym), "where", jstr(f->fix_where),
            "text", jstr(f->fix_text)));
    } else {
        json_object_set_new(o, "fix", json_null());
    }
    json_object_set_new(o, "lanes", jhex(f->lanes));
    json_object_set_new(o, "workgroup", json_pack("[iii]", f->wg[0], f->wg[1], f->wg[2]));
    json_object_set_new(o, "wave", json_integer(f->wave));
    json_object_set_new(o, "count", json_integer((json_int_t)f->count));
    return o;
}

/* The findings: with groups, one object per rule with its location (the first site), the
 * count, the pcs and every site; else the sites. */
static json_t *findings_json(const gcn_sim_result *r, const gcn_sim_group *g, unsigned ng)
{
    json_t *a = json_array();
    if (!g) {
        for (unsigned i = 0; i < r->nfindings; i++)
            json_array_append_new(a, site_json(&r->findings[i]));
        return a;
    }
    for (unsigned k = 0; k < ng; k++) {
        json_t *o = site_json(&r->findings[g[k].site[0]]);
        json_t *pcs = json_array(), *sites = json_array();
        for (unsigned j = 0; j < g[k].nsites; j++) {
            const gcn_sim_finding *f = &r->findings[g[k].site[j]];
            if (!j || f->pc != r->findings[g[k].site[j - 1]].pc)
                json_array_append_new(pcs, jhex(f->pc));
            json_array_append_new(sites, site_json(f));
        }
        json_object_set_new(o, "count", json_integer((json_int_t)g[k].count));
        json_object_set_new(o, "npcs", json_integer(g[k].npcs));
        json_object_set_new(o, "pcs", pcs);
        json_object_set_new(o, "sites", sites);
        json_array_append_new(a, o);
    }
    return a;
}

/* Whether buffer i is dumped as NAME.bin: it is one of the manifest's "outputs" (every
 * buffer when the manifest has no "outputs"; without a manifest, --output or all), or
 * with a manifest and --output, one of those. */
static int is_output(const gcn_manifest *m, unsigned i)
{
    if (opt.dump_sel.n) {      /* --output with a manifest: those buffers instead */
        for (unsigned k = 0; k < opt.dump_sel.n; k++)
            if (!strcmp(opt.dump_sel.v[k], m->bufs[i].name))
                return 1;
        return 0;
    }
    if (!m->outputs)
        return 1;
    for (unsigned o = 0; o < m->noutputs; o++)
        if (m->outputs[o] == i)
            return 1;
    return 0;
}

/* run.json (gcn_mf_run_json) with "findings" added, and each buffer's "in" / "out" file
 * null where this dump has none (inputs without --dump-inputs, buffers that are not
 * outputs); frees RJ; NULL when out of memory */
static char *with_findings(char *rj, json_t *fj, const gcn_manifest *m, int inputs)
{
    json_t *r = json_loads(rj, 0, NULL);
    free(rj);
    if (!r)
        return NULL;
    json_object_set(r, "findings", fj);
    json_t *jb = json_object_get(r, "buffers");
    for (unsigned i = 0; i < m->nbufs; i++) {
        json_t *b = json_object_get(jb, m->bufs[i].name);
        if (b && !inputs)
            json_object_set_new(b, "in", json_null());
        if (b && !is_output(m, i))
            json_object_set_new(b, "out", json_null());
    }
    char *out = json_dumps(r, JSON_INDENT(2));
    json_decref(r);
    return out;
}

/* What one run did, for --all-sizes' summary lines. */
/* ---- kernels and arguments from the metadata ------------------------------- */

/* The code object of FILE (no manifest), for the target --mcpu names or the
 * one the file states. */
static int load_file_code(const char *file, const char *cpu, gcn_codeobj **co,
                          const char **target, char *err, size_t errlen)
{
    gcn_manifest tmp = {.path = "command line", .code = (char *)file, .cli = 1};
    return gcn_mf_load_code_for(&tmp, cpu, co, target, err, errlen);
}

/* The kernel named (NULL: the only one) in co, as gcn_mf_kernel picks it. */
static int pick_kernel(const gcn_codeobj *co, const char *name, const gcn_kernel **k, char *err,
                       size_t errlen)
{
    gcn_manifest tmp = {.path = "command line", .kernel = (char *)name, .cli = 1};
    return gcn_mf_kernel(&tmp, co, k, err, errlen);
}

/* The "code" path a template written to out (NULL: stdout) names: the path as
 * given, or its absolute form when the template goes to another directory. */
static char *template_code_path(const char *code, const char *out)
{
    const char *slash = out ? strrchr(out, '/') : NULL;
    if (code[0] != '/' && slash) {
        char *abs = realpath(code, NULL);
        if (abs)
            return abs;
    }
    return strdup(code);
}

/* --list-kernels, --list-args, --manifest-template: print and exit. */
static int code_info(const char *file, const char *manifest, const char *kernel, const char *cpu,
                     int list_kernels, int list_args, int tmpl, const char *tmpl_out)
{
    char err[2048];
    gcn_manifest *m = NULL;
    gcn_codeobj *co = NULL;
    const char *target = NULL;
    int ex = EX_OK;
    if (manifest) {
        if (gcn_mf_load(manifest, (const char *const *)opt.sets.v, opt.sets.n, &m, err,
                        sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            return EX_INPUT;
        }
        file = m->code;
        kernel = m->kernel;
    }
    if ((manifest ? gcn_mf_load_code_for(m, cpu, &co, &target, err, sizeof err)
                  : load_file_code(file, cpu, &co, &target, err, sizeof err))) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_mf_free(m);
        return EX_INPUT;
    }
    if (list_kernels)
        for (unsigned i = 0; i < co->nkernels; i++)
            printf("%s\n", co->kernels[i].name);
    if (list_args) {
        for (unsigned i = 0; i < co->nkernels; i++) {
            const gcn_kernel *k = &co->kernels[i];
            if (kernel && strcmp(kernel, k->name))
                continue;
            char *t = NULL;
            if (gcn_kernarg_table(k, "", &t)) {
                fprintf(stderr, "gcnsim: out of memory\n");
                ex = EX_INPUT;
                break;
            }
            fputs(t, stdout);
            free(t);
        }
        if (kernel && !gcn_co_kernel(co, kernel)) {
            const gcn_kernel *k;
            pick_kernel(co, kernel, &k, err, sizeof err);
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
        }
    }
    if (tmpl && ex == EX_OK) {
        const gcn_kernel *k = NULL;
        char *json = NULL, *code = NULL;
        gcn_mf_tmpl o = {.target = target};
        if (pick_kernel(co, kernel, &k, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
        } else if (!(code = template_code_path(file, tmpl_out)) ||
                   gcn_mf_template(k, code, &o, &json, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", code ? err : "out of memory");
            ex = EX_INPUT;
        } else {
            size_t n = strlen(json);
            if (tmpl_out) {
                if (sim_write_atomic(tmpl_out, json, n, err, sizeof err)) {
                    fprintf(stderr, "gcnsim: --manifest-template=%s: %s\n", tmpl_out, err);
                    ex = EX_INPUT;
                }
            } else {
                fwrite(json, 1, n, stdout);
            }
        }
        free(json);
        free(code);
    }
    gcn_co_close(co);
    gcn_mf_free(m);
    return finish_stdout(ex);
}

/* A dispatch whose explicit arguments are not the kernel's: what the kernel
 * takes, and the ways to give it that. */
static void wrong_args(const gcn_manifest *m, const gcn_kernel *k, unsigned nexp)
{
    fprintf(stderr, "gcnsim: %s: kernel %s has %u explicit argument%s, %s gives %u:\n",
            m->cli ? m->code : m->path, k->name, nexp, nexp == 1 ? "" : "s", gcn_mf_source(m),
            m->nargs);
    char *t = NULL;
    if (!gcn_kernarg_table(k, "  ", &t))
        fputs(t, stderr);
    free(t);
    if (m->cli)
        fprintf(stderr, "gcnsim: give them in this order with --arg KIND:VALUE (the --arg column; "
                "a pointer: --buffer NAME:SIZE and --arg buffer:NAME), or run on stated defaults "
                "with --default-args, or write a manifest to edit with --manifest-template=FILE\n");
    else
        fprintf(stderr, "gcnsim: give them in the manifest's \"args\", in this order (gcnsim "
                "--manifest-template=FILE %s writes a manifest from the metadata)\n", m->code);
}

typedef struct run_info {
    uint64_t waves, insns;
    unsigned findings;
    char fault[1024];
} run_info;

/* ---- one run ------------------------------------------------------------------ */

/* What can be checked of a run before its code is loaded: --mcpu against the manifest's
 * targets, where the outputs go, the buffers against this machine's memory, the traced
 * wave, the --output names.  -1 when all is well, else the exit code (said on stderr). */
static int check_run(const gcn_manifest *m)
{
    char err[2048];
    const char *want = NULL;
    /* --mcpu is checked against the manifest's targets before anything else */
    if (gcn_mf_target(m, opt.mcpu, &want, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return EX_INPUT;
    }
    /* where the outputs go, checked before anything runs */
    if ((opt.dump && gcn_dump_check(opt.dump, err, sizeof err)) ||
        (opt.trace_json && gcn_file_check_output(opt.trace_json, err, sizeof err)) ||
        (opt.plot && gcn_file_check_output(opt.plot, err, sizeof err))) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return EX_INPUT;
    }
    /* buffers larger than this machine's memory would end in the OOM killer */
    uint64_t total = 0, phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    for (unsigned i = 0; i < m->nbufs; i++)
        total += m->bufs[i].size;
    if (phys && total > phys) {
        fprintf(stderr, "gcnsim: %s: the buffers need %llu bytes, more than this machine's "
                "%llu bytes of memory\n", m->path, (unsigned long long)total,
                (unsigned long long)phys);
        return EX_INPUT;
    }
    /* the traced wave must exist */
    uint64_t nwg = (uint64_t)m->grid[0] * m->grid[1] * m->grid[2];
    unsigned wpg = (m->block[0] * m->block[1] * m->block[2] + 63) / 64;
    if ((opt.wave_given || opt.trace || opt.trace_json || opt.plot) &&
        (opt.twg >= nwg || opt.twave >= wpg)) {
        fprintf(stderr, "gcnsim: --wave=%u,%u: out of range: the dispatch has %llu workgroup%s "
                "of %u wave%s (valid: WG 0..%llu, W 0..%u)\n", opt.twg, opt.twave,
                (unsigned long long)nwg, nwg == 1 ? "" : "s", wpg, wpg == 1 ? "" : "s",
                (unsigned long long)nwg - 1, wpg - 1);
        return EX_USAGE;
    }
    for (unsigned k = 0; k < opt.dump_sel.n; k++)
        if (gcn_mf_buffer_index(m, opt.dump_sel.v[k]) < 0) {
            fprintf(stderr, "gcnsim: --output %s: %s has no buffer named %s\n",
                    opt.dump_sel.v[k], m->path, opt.dump_sel.v[k]);
            return EX_INPUT;
        }
    return -1;
}

/* The simulator's options for a run on TARGET, from the command line. */
static gcn_sim_opts sim_opts(const char *target)
{
    return (gcn_sim_opts){
        .target = gcn_target_from_name(target), .max_insns = opt.max_insns,
        .strict = opt.strict, .hazard_effect = opt.hz_effect, .hazard_llvm = opt.hz_llvm,
        .wait_effect = opt.wait_effect,
        .trace_fifo = opt.trace, .trace_out = stdout, .trace_wg = opt.twg,
        .trace_wave = opt.twave, .trace_json = opt.trace_json, .plot_svg = opt.plot,
        .progress = opt.progress && !opt.quiet,
        .quantum = opt.quantum, .threads = opt.jobs ? opt.jobs : gcn_sim_cpus(),
    };
}

/* The manifest's buffers in the simulator's memory (addr[i]), each filled as its init
 * says; 0, or -1 said on stderr. */
static int load_buffers(gcn_sim *sim, const gcn_manifest *m, uint64_t *addr)
{
    char err[2048];
    for (unsigned i = 0; i < m->nbufs; i++) {
        if (gcn_sim_alloc(sim, m->bufs[i].size, m->bufs[i].name, &addr[i])) {
            fprintf(stderr, "gcnsim: buffer %s: cannot allocate %llu bytes\n", m->bufs[i].name,
                    (unsigned long long)m->bufs[i].size);
            return -1;
        }
        uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
        if (m->bufs[i].size && gcn_mf_fill(m, i, h, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            return -1;
        }
    }
    return 0;
}

/* The kernarg segment (*ka, *kalen) of k from the manifest's arguments, which must be as
 * many as the kernel's explicit ones when its metadata says; 0, or -1 said on stderr. */
static int build_kernargs(const gcn_manifest *m, const gcn_kernel *k, const uint64_t *addr,
                          uint8_t **ka, size_t *kalen)
{
    char err[2048];
    if (k->has_metadata && k->nargs) {
        unsigned nexp = 0;
        for (unsigned i = 0; i < k->nargs; i++)
            nexp += !gcn_kernarg_is_hidden(&k->args[i]);
        if (nexp != m->nargs) {
            wrong_args(m, k, nexp);
            return -1;
        }
    }
    if (gcn_kernarg_build(m, k, addr, ka, kalen, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s: %s\n", m->path, err);
        return -1;
    }
    return 0;
}

/* The dump is written into a fresh directory beside DIR and put in place at the end
 * (gcn_dump_commit): DIR then holds this run's dump whole -- inputs, outputs and run.json
 * after a run, only the inputs after a kernel fault -- and after any other failure it is
 * left as it was.  This begins it, with the inputs (--dump-inputs); 0, or -1 said. */
static int dump_begin(gcn_dump *dd, gcn_sim *sim, const gcn_manifest *m, const uint64_t *addr)
{
    char err[2048];
    if (gcn_dump_begin(dd, opt.dump, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return -1;
    }
    for (unsigned i = 0; opt.dump_inputs && i < m->nbufs; i++) {
        uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
        if (gcn_dump_write(dd, m->bufs[i].name, ".in.bin", h, m->bufs[i].size, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            return -1;
        }
    }
    return 0;
}

/* The dump's outputs and run.json (with the findings FJ), then the dump put in place;
 * 0, or -1 said on stderr. */
static int dump_finish(gcn_dump *dd, gcn_sim *sim, const gcn_manifest *m, const uint64_t *addr,
                       const char *target, json_t *fj)
{
    char err[2048];
    for (unsigned i = 0; i < m->nbufs; i++) {
        if (!is_output(m, i))
            continue;
        uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
        if (gcn_dump_write(dd, m->bufs[i].name, ".bin", h, m->bufs[i].size, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            return -1;
        }
    }
    char *rj = NULL;
    if (gcn_mf_run_json(m, target, &rj, err, sizeof err) ||
        !(rj = with_findings(rj, fj, m, opt.dump_inputs)) ||
        gcn_dump_write(dd, "run", ".json", rj, strlen(rj), err, sizeof err) ||
        gcn_dump_commit(dd, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", rj ? err : "out of memory");
        free(rj);
        return -1;
    }
    free(rj);
    return 0;
}

/* The findings of a run printed on stderr (grouped unless --no-group; the code named as
 * the user named it) and, for --json or the dump, as JSON (*fj; NULL when neither asks);
 * *nshown: the findings as counted (groups or sites).  0, or -1 (out of memory, said). */
static int report_findings(const gcn_manifest *m, const gcn_sim_result *res, json_t **fj,
                           unsigned *nshown)
{
    gcn_sim_group *groups = NULL;
    unsigned ngroups = 0;
    *fj = NULL;
    if (opt.group && gcn_sim_group_findings(res, &groups, &ngroups)) {
        fprintf(stderr, "gcnsim: out of memory\n");
        return -1;
    }
    /* the code as the user named it: FILE, or the manifest's code (beside the manifest) */
    const char *shown = m->cli && opt.file ? opt.file : m->code;
    if (res->nfindings && opt.group)
        gcn_sim_print_groups_at(stderr, res, groups, ngroups, opt.maxf, shown);
    else if (res->nfindings)
        gcn_sim_print_findings_at(stderr, res, opt.maxf, shown);
    if (opt.json_out || opt.dump)
        *fj = findings_json(res, opt.group ? groups : NULL, ngroups);
    gcn_sim_free_groups(groups, ngroups);
    *nshown = opt.group ? ngroups : res->nfindings;
    return 0;
}

/* --json FILE: the kernel, target, status and findings FJ; 0, or -1 said on stderr. */
static int write_json(const gcn_kernel *k, const char *target, int st,
                      const gcn_sim_result *res, json_t *fj)
{
    char err[2048];
    json_t *doc = json_pack("{s:s,s:s,s:s,s:b,s:O}", "kernel", k->name, "target", target,
                            "status", st == GCN_SIM_FAULT ? "fault" :
                            res->nfindings ? "findings" : "clean", "grouped", opt.group,
                            "findings", fj);
    if (st == GCN_SIM_FAULT)
        json_object_set_new(doc, "fault", json_string(res->msg));
    char *text = json_dumps(doc, JSON_INDENT(1));
    json_decref(doc);
    if (!text || sim_write_atomic(opt.json_out, text, strlen(text), err, sizeof err)) {
        fprintf(stderr, "gcnsim: --json %s: %s\n", opt.json_out, text ? err : "out of memory");
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

/* The summary line of a run (stderr): the dispatch, waves, instructions, times (in
 * microseconds: small runs take milliseconds), findings, and the threads it ran on or why
 * only one. */
static void print_summary(const gcn_manifest *m, const gcn_kernel *k, const char *target,
                          const gcn_sim_result *res, unsigned nfind)
{
    fprintf(stderr, "gcnsim: %s on %s: grid %ux%ux%u, block %ux%ux%u, %llu waves, %llu "
            "wave-instructions, %.6f s (%.6f s CPU), %u finding%s", k->name, target, m->grid[0],
            m->grid[1], m->grid[2], m->block[0], m->block[1], m->block[2],
            (unsigned long long)res->waves, (unsigned long long)res->insns, res->seconds,
            res->cpu_seconds, nfind, nfind == 1 ? "" : "s");
    /* why one thread: when -j asked for more, or the kernel itself is the reason (not
     * the options that follow one run in order, under the default -j) */
    if (res->serial_why[0] && (opt.jobs || !(opt.trace || opt.trace_json || opt.plot || opt.strict)))
        fprintf(stderr, "; one thread: %s\n", res->serial_why);
    else if (res->threads > 1)
        fprintf(stderr, "; %u threads\n", res->threads);
    else
        fprintf(stderr, "\n");
}

/* Run the resolved manifest m once (options from the command line); the exit code. */
static int run_one(gcn_manifest *m, run_info *ri)
{
    char err[2048];
    int ex = check_run(m);
    if (ex >= 0)
        return ex;
    const char *target = NULL;
    gcn_codeobj *co = NULL;
    if (gcn_mf_load_code_for(m, opt.mcpu, &co, &target, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return EX_INPUT;
    }
    const gcn_kernel *k = NULL;
    if (gcn_mf_kernel(m, co, &k, err, sizeof err) ||
        (opt.code_override && gcn_mf_check_args(m, k, m->code, err, sizeof err))) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_co_close(co);
        return EX_INPUT;
    }

    gcn_sim_opts o = sim_opts(target);
    gcn_sim *sim = gcn_sim_new(&o);
    uint64_t *addr = calloc(m->nbufs + 1, sizeof *addr);
    uint8_t *ka = NULL;
    size_t kalen = 0;
    gcn_dump dd = {0};
    json_t *fj = NULL;
    ex = EX_INPUT;
    if (!sim || !addr) {
        fprintf(stderr, "gcnsim: out of memory\n");
        goto done;
    }
    if (load_buffers(sim, m, addr) || build_kernargs(m, k, addr, &ka, &kalen) ||
        (opt.dump && dump_begin(&dd, sim, m, addr)))
        goto done;
    gcn_dispatch d = {.co = co, .kernel = k, .kernarg = ka, .kernarg_size = kalen,
                      .dynamic_lds = m->dynamic_lds};
    memcpy(d.grid, m->grid, sizeof d.grid);
    memcpy(d.block, m->block, sizeof d.block);
    gcn_sim_result res;
    int st = gcn_sim_run(sim, &d, &res);
    if (st == GCN_SIM_EINPUT) {
        fprintf(stderr, "gcnsim: %s: %s\n", m->path, res.msg);
        goto done;
    }
    unsigned nfind = 0;
    if (report_findings(m, &res, &fj, &nfind) ||
        (opt.json_out && write_json(k, target, st, &res, fj)))
        goto done;
    ri->waves = res.waves;
    ri->insns = res.insns;
    ri->findings = nfind;
    if (st == GCN_SIM_FAULT) {
        const char *shown = m->cli && opt.file ? opt.file : m->code;
        gcn_sim_print_fault_at(stderr, &res, shown);
        snprintf(ri->fault, sizeof ri->fault, "%s", res.msg);
        fprintf(stderr, "gcnsim: kernel fault in %s (%s): %s\n", k->name, target, res.msg);
        ex = EX_FAULT;
        if (opt.dump && gcn_dump_commit(&dd, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
        }
        goto done;
    }
    if (!opt.quiet && !opt.all_sizes)
        print_summary(m, k, target, &res, nfind);
    if (opt.dump && dump_finish(&dd, sim, m, addr, target, fj))
        goto done;
    ex = res.nfindings ? EX_FINDINGS : EX_OK;
done:
    json_decref(fj);
    if (dd.tmp)
        gcn_dump_abort(&dd);
    free(ka);
    free(addr);
    gcn_sim_free(sim);
    gcn_co_close(co);
    return ex;
}

/* --code FILE (or the FILE beside --manifest): the manifest's dispatch with another
 * build of its kernel (kernel: --kernel, else the manifest's); run_one checks the
 * kernel's arguments against the manifest's. */
static int override_code(gcn_manifest *m, const char *kernel, char *err, size_t errlen)
{
    char *c = strdup(opt.code_override);
    char *k = kernel ? strdup(kernel) : NULL;
    if (!c || (kernel && !k)) {
        free(c);
        free(k);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    free(m->code);
    m->code = c;
    if (k) {
        free(m->kernel);
        m->kernel = k;
    }
    return 0;
}

/* ---- --all-sizes ------------------------------------------------------------- */

/* The "NAME=VALUE" strings of size I of m0: the --set overrides, then the size's own (the
 * later wins), and the size's label for its summary line.  NULL when out of memory. */
static char **size_sets(const gcn_manifest *m0, unsigned i, unsigned *ns, char *label,
                        size_t labellen)
{
    unsigned nz = m0->nsizes ? m0->sizes[i].nsets : 0;
    *ns = opt.sets.n + nz;
    char **sv = calloc(*ns + 1, sizeof *sv);
    size_t ll = 0;
    int oom = !sv;
    label[0] = 0;
    for (unsigned k = 0; sv && k < opt.sets.n; k++)
        sv[k] = strdup(opt.sets.v[k]);
    for (unsigned k = 0; sv && k < nz; k++) {
        const gcn_mf_param *p = &m0->sizes[i].sets[k];
        if (asprintf(&sv[opt.sets.n + k], "%s=%lld", p->name, (long long)p->value) < 0)
            sv[opt.sets.n + k] = NULL;
        if (ll < labellen)
            ll += (size_t)snprintf(label + ll, labellen - ll, "%s%s=%lld", k ? " " : "",
                                   p->name, (long long)p->value);
    }
    for (unsigned k = 0; sv && k < *ns; k++)
        oom |= !sv[k];
    if (oom && sv) {
        for (unsigned k = 0; k < *ns; k++)
            free(sv[k]);
        free(sv);
        sv = NULL;
    }
    return sv;
}

/* The summary line of size I of N (stdout): the dispatch when it ran, and the outcome. */
static void print_size_line(unsigned i, unsigned n, const char *lab, const gcn_manifest *m,
                            int ex, const run_info *ri)
{
    if (m && (ex == EX_OK || ex == EX_FINDINGS || ex == EX_FAULT))
        printf("size %u/%u (%s): grid %ux%ux%u, block %ux%ux%u, %llu wave%s, %llu "
               "wave-instructions: ", i + 1, n, lab, m->grid[0], m->grid[1], m->grid[2],
               m->block[0], m->block[1], m->block[2], (unsigned long long)ri->waves,
               ri->waves == 1 ? "" : "s", (unsigned long long)ri->insns);
    else
        printf("size %u/%u (%s): ", i + 1, n, lab);
    if (ex == EX_OK) {
        printf("clean (exit 0)\n");
    } else if (ex == EX_FINDINGS) {
        printf("%u finding%s (exit 4)\n", ri->findings, ri->findings == 1 ? "" : "s");
    } else if (ex == EX_FAULT) {
        /* the fault's lines (message, pc, wave) as one */
        printf("kernel fault: ");
        for (const char *q = ri->fault; *q; q++) {
            if (*q != '\n') {
                putchar(*q);
                continue;
            }
            while (q[1] == ' ')
                q++;
            fputs("; ", stdout);
        }
        printf(" (exit 3)\n");
    } else {
        printf("%s (exit %d)\n", ex == EX_USAGE ? "usage error" : "bad input", ex);
    }
    fflush(stdout);
}

/* --all-sizes: the manifest once per entry of its test_sizes (the --set overrides, then
 * the entry's values), a summary line per size on standard output; the exit code is
 * the worst of the runs (bad input 2, then kernel fault 3, then findings 4, then 0). */
static int run_sizes(const char *path, const char *kernel)
{
    char err[2048];
    gcn_manifest *m0 = NULL;
    if (gcn_mf_load(path, (const char *const *)opt.sets.v, opt.sets.n, &m0, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return EX_INPUT;
    }
    unsigned n = m0->nsizes ? m0->nsizes : 1;
    static const int rank[5] = {0, 1, 4, 3, 2};   /* by exit code: 0 < 4 < 3 < 2 */
    int worst = EX_OK;
    unsigned counts[5] = {0};
    for (unsigned i = 0; i < n; i++) {
        char label[512];
        unsigned ns = 0;
        char **sv = size_sets(m0, i, &ns, label, sizeof label);
        const char *lab = !m0->nsizes ? "the manifest's params"
                          : m0->sizes[i].nsets ? label : "no overrides";
        gcn_manifest *m = NULL;
        int ex;
        run_info ri = {0};
        if (!sv) {
            fprintf(stderr, "gcnsim: out of memory\n");
            ex = EX_INPUT;
        } else if (gcn_mf_load(path, (const char *const *)sv, ns, &m, err, sizeof err) ||
                   (opt.code_override && override_code(m, kernel, err, sizeof err))) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
        } else {
            ex = run_one(m, &ri);
        }
        for (unsigned k = 0; sv && k < ns; k++)
            free(sv[k]);
        free(sv);
        print_size_line(i, n, lab, m, ex, &ri);
        gcn_mf_free(m);
        if (ex >= 0 && ex < 5) {
            counts[ex]++;
            if (rank[ex] > rank[worst])
                worst = ex;
        }
    }
    if (!opt.quiet)
        fprintf(stderr, "gcnsim: %u size%s: %u clean, %u with findings, %u kernel fault%s, %u not "
                "run (bad input or usage); exit %d\n", n, n == 1 ? "" : "s", counts[0], counts[4],
                counts[3], counts[3] == 1 ? "" : "s", counts[2] + counts[1], worst);
    gcn_mf_free(m0);
    return worst;
}

/* ---- the command line ---------------------------------------------------------- */

/* A number option's value in [lo, hi]: 0, or -1 with "gcnsim: NAME ARG: expected WHAT". */
static int num_opt(const char *name, const char *arg, uint64_t lo, uint64_t hi, uint64_t *v,
                   const char *what)
{
    if (!parse_num(arg, lo, hi, v))
        return 0;
    fprintf(stderr, "gcnsim: %s %s: expected %s\n", name, arg, what);
    return -1;
}

/* --wave=WG,W: 0, or -1 (said) */
static int parse_wave(const char *arg)
{
    char wg[32] = "";
    const char *comma = strchr(arg, ',');
    uint64_t a = 0, b = 0;
    if (comma && (size_t)(comma - arg) < sizeof wg)
        memcpy(wg, arg, (size_t)(comma - arg));
    if (!comma || parse_num(wg, 0, UINT32_MAX - 1, &a) || parse_num(comma + 1, 0, 15, &b)) {
        fprintf(stderr, "gcnsim: --wave=%s: expected WG,W (flat workgroup index, wave 0..15)\n",
                arg);
        return -1;
    }
    opt.twg = (unsigned)a;
    opt.twave = (unsigned)b;
    opt.wave_given = 1;
    return 0;
}

/* One word of a fixed set (NAMES, NULL-ended; *v = VALUES[i]): 0, or -1 with
 * "gcnsim: OPTION=ARG: expected WHAT". */
static int word_opt(const char *option, const char *arg, const char *const *names,
                    const int *values, int *v, const char *what)
{
    for (unsigned i = 0; names[i]; i++)
        if (!strcmp(arg, names[i])) {
            *v = values[i];
            return 0;
        }
    fprintf(stderr, "gcnsim: %s=%s: expected %s\n", option, arg, what);
    return -1;
}

/* The dispatch options (without a manifest): --grid, --block, --buffer, --arg, --output;
 * 0, or -1 said on stderr. */
static int dispatch_opt(int c, const char *arg)
{
    char err[2048];
    switch (c) {
    case 'g':
    case 'b': {
        json_t **dims = c == 'g' ? &opt.grid : &opt.block;
        json_decref(*dims);
        *dims = NULL;
        if (parse_dims(arg, dims)) {
            fprintf(stderr, "gcnsim: --%s %s: expected X[,Y[,Z]] of positive integers\n",
                    c == 'g' ? "grid" : "block", arg);
            return -1;
        }
        return 0;
    }
    case 'B':
    case 'a':
        if (c == 'B' ? parse_buffer(arg, opt.bufs, err, sizeof err)
                     : parse_arg(arg, opt.args, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            return -1;
        }
        return 0;
    default:   /* 'o' */
        json_array_append_new(opt.outs, json_string(arg));
        strv_add(&opt.dump_sel, (char *)arg);
        return 0;
    }
}

/* The options into opt: -1 to go on, or the exit code (--help, --version, a usage error
 * said on stderr). */
static int parse_options(int argc, char **argv)
{
    static const struct option opts[] = {
        {"manifest", required_argument, 0, 'm'}, {"kernel", required_argument, 0, 'k'},
        {"grid", required_argument, 0, 'g'}, {"block", required_argument, 0, 'b'},
        {"buffer", required_argument, 0, 'B'}, {"arg", required_argument, 0, 'a'},
        {"output", required_argument, 0, 'o'}, {"set", required_argument, 0, 's'},
        {"mcpu", required_argument, 0, 'c'}, {"dump-dir", required_argument, 0, 'd'},
        {"max-insns", required_argument, 0, 'n'}, {"strict", no_argument, 0, 'S'},
        {"trace", required_argument, 0, 't'}, {"wave", required_argument, 0, 'w'},
        {"trace-json", required_argument, 0, 1006}, {"jobs", required_argument, 0, 'j'},
        {"plot", required_argument, 0, 'p'},
        {"max-findings", required_argument, 0, 'F'}, {"quiet", no_argument, 0, 'q'},
        {"no-progress", no_argument, 0, 'P'}, {"quantum", required_argument, 0, 'Q'},
        {"hazard-effect", required_argument, 0, 'H'}, {"list-hazards", no_argument, 0, 'L'},
        {"llvm-conservative", no_argument, 0, 'C'}, {"wait-effect", required_argument, 0, 1007},
        {"no-group", no_argument, 0, 'G'}, {"json", required_argument, 0, 'J'},
        {"code", required_argument, 0, 'K'}, {"all-sizes", no_argument, 0, 'A'},
        {"dump-inputs", no_argument, 0, 'I'},
        {"list-kernels", no_argument, 0, 1000}, {"list-args", no_argument, 0, 1001},
        {"manifest-template", optional_argument, 0, 1002},
        {"default-args", optional_argument, 0, 1003},
        {"default-buffer-size", required_argument, 0, 1004},
        {"default-scalar", required_argument, 0, 1005},
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, {0, 0, 0, 0}};
    static const char *const hz_names[] = {"report", "stale", "off", NULL};
    static const int hz_values[] = {GCN_SIM_HZ_REPORT, GCN_SIM_HZ_STALE, GCN_SIM_HZ_OFF};
    static const char *const wait_names[] = {"stale", "retire", NULL};
    static const int wait_values[] = {GCN_SIM_WAIT_STALE, GCN_SIM_WAIT_RETIRE};
    uint64_t num = 0;
    int c;
    opt.bufs = json_object();
    opt.args = json_array();
    opt.outs = json_array();
    if (gcn_cli_take_mcpu("gcnsim", &argc, argv, &opt.mcpu))
        return EX_USAGE;
    while ((c = getopt_long(argc, argv, "qhj:", opts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'm': opt.manifest = optarg; break;
        case 'k': opt.kernel = optarg; break;
        case 'g': case 'b': case 'B': case 'a': case 'o': bad = dispatch_opt(c, optarg); break;
        case 's': strv_add(&opt.sets, optarg); break;
        case 'c': opt.mcpu = optarg; break;
        case 'd': opt.dump = optarg; break;
        case 'n':
            bad = num_opt("--max-insns", optarg, 1, UINT64_MAX, &opt.max_insns,
                          "a positive integer");
            break;
        case 'S': opt.strict = 1; break;
        case 1007:
            bad = word_opt("--wait-effect", optarg, wait_names, wait_values, &opt.wait_effect,
                           "stale or retire");
            break;
        case 'C': opt.hz_llvm = 1; break;
        case 'H':
            bad = word_opt("--hazard-effect", optarg, hz_names, hz_values, &opt.hz_effect,
                           "report, stale or off");
            break;
        case 't':
            if (strcmp(optarg, "fifo")) {
                fprintf(stderr, "gcnsim: --trace=%s: only --trace=fifo exists\n", optarg);
                return EX_USAGE;
            }
            opt.trace = 1;
            break;
        case 'w': bad = parse_wave(optarg); break;
        case 1006: opt.trace_json = optarg; break;
        case 'j':
            bad = num_opt("-j", optarg, 1, 1024, &num, "a number of threads, 1 to 1024");
            opt.jobs = (unsigned)num;
            break;
        case 'p': opt.plot = optarg; break;
        case 'F':
            bad = num_opt("--max-findings", optarg, 0, UINT32_MAX, &num, "a number, 0 or more");
            opt.maxf = (unsigned)num;
            break;
        case 'q': opt.quiet = 1; break;
        case 'P': opt.progress = 0; break;
        case 'L': opt.list_hz = 1; break;
        case 'G': opt.group = 0; break;
        case 'J': opt.json_out = optarg; break;
        case 'Q':
            bad = num_opt("--quantum", optarg, 1, UINT32_MAX, &num, "a positive integer");
            opt.quantum = (unsigned)num;
            break;
        case 'K': opt.code_opt = optarg; break;
        case 'A': opt.all_sizes = 1; break;
        case 'I': opt.dump_inputs = 1; break;
        case 1000: opt.list_kernels = 1; break;
        case 1001: opt.list_args = 1; break;
        case 1002: opt.tmpl = 1; opt.tmpl_out = optarg; break;
        case 1003:
            opt.def_args = optarg ? optarg : "zero";
            if (strcmp(opt.def_args, "zero") && strcmp(opt.def_args, "random")) {
                fprintf(stderr, "gcnsim: --default-args=%s: expected zero or random\n", optarg);
                return EX_USAGE;
            }
            break;
        case 1004:
            bad = num_opt("--default-buffer-size", optarg, 1, 1ull << 32, &opt.def_bufsize,
                          "1 to 4294967296 bytes");
            break;
        case 1005: {
            char *end;
            errno = 0;
            long long v = strtoll(optarg, &end, 0);
            if (errno || end == optarg || *end) {
                fprintf(stderr, "gcnsim: --default-scalar %s: expected an integer\n", optarg);
                return EX_USAGE;
            }
            opt.def_scalar = v;
            break;
        }
        case 'h': usage(stdout); return EX_OK;
        case 'V': gcn_version_print(stdout, "gcnsim"); return EX_OK;
        default: usage(stderr); return EX_USAGE;
        }
        if (bad)
            return EX_USAGE;
    }
    opt.file = optind < argc ? argv[optind] : NULL;
    opt.nfiles = argc - optind;
    return -1;
}

/* --list-hazards: the wait-state rules (src/analyze/hazards.def) checked on the target. */
static int list_hazards(void)
{
    gcn_target t = gcn_target_from_name(opt.mcpu ? opt.mcpu : "gfx942");
    unsigned bit = t == GCN_TARGET_GFX950 ? 2u : 1u;
    for (unsigned i = 0; i < gcn_hz_rule_count(); i++) {
        const gcn_hz_rule *r = gcn_hz_rule_get(i);
        if (!(r->targets & bit))
            continue;
        char wt[64], src[1024];
        gcn_hz_rule_wait_text(i, wt, sizeof wt);
        gcn_hz_rule_source(i, src, sizeof src);
        printf("%s\t%s\t%s\t%s\t%s [%s: %s]\n", r->name,
               r->passes_dep ? "by-passes" : wt, r->passes_dep ? wt : "",
               r->llvm_only ? "llvm-conservative" : "error", r->desc,
               gcn_hz_src_tag(r->src), src);
    }
    return finish_stdout(EX_OK);
}

/* The input: one code file, or a manifest (with --code FILE or a FILE beside it: another
 * build of its kernel, opt.code_override), and no dispatch options with a manifest.
 * -1 when it is so, else the exit code (said). */
static int check_inputs(void)
{
    if (opt.code_opt && !opt.manifest) {
        fprintf(stderr, "gcnsim: --code %s replaces a manifest's code; without --manifest give "
                "the code file as the argument\n", opt.code_opt);
        return EX_USAGE;
    }
    if (opt.nfiles > 1 || (!opt.file && !opt.manifest) || (opt.file && opt.code_opt)) {
        fprintf(stderr, "gcnsim: give one code file, or --manifest M.json (with a code file or "
                "--code FILE to run another build of its kernel)\n");
        usage(stderr);
        return EX_USAGE;
    }
    if (opt.manifest) {
        opt.code_override = opt.code_opt ? opt.code_opt : opt.file;
        opt.file = NULL;
    }
    if (opt.manifest && (opt.grid || opt.block || json_object_size(opt.bufs) ||
                         json_array_size(opt.args) || (opt.kernel && !opt.code_override) ||
                         opt.def_args)) {
        fprintf(stderr, "gcnsim: --grid/--block/--buffer/--arg/--kernel/--default-args describe a "
                "dispatch without a manifest; with --manifest use --set (--kernel only with "
                "another code file)\n");
        return EX_USAGE;
    }
    return -1;
}

/* The options of a run that do not go together; -1 when none, else EX_USAGE (said). */
static int check_run_options(void)
{
    if (opt.def_args && (json_object_size(opt.bufs) || json_array_size(opt.args))) {
        fprintf(stderr, "gcnsim: --default-args makes the buffers and arguments from the "
                "kernel's metadata; it takes no --buffer or --arg\n");
        return EX_USAGE;
    }
    if (opt.all_sizes && !opt.manifest) {
        fprintf(stderr, "gcnsim: --all-sizes runs the test_sizes of a manifest; give --manifest\n");
        return EX_USAGE;
    }
    if (opt.all_sizes && (opt.dump || opt.json_out || opt.trace || opt.trace_json || opt.plot)) {
        fprintf(stderr, "gcnsim: --all-sizes prints a summary line per size; --dump-dir, --json, "
                "--trace, --trace-json and --plot are for one run (pick a size with --set)\n");
        return EX_USAGE;
    }
    if (opt.dump_inputs && !opt.dump) {
        fprintf(stderr, "gcnsim: --dump-inputs adds the inputs to a dump; give --dump-dir\n");
        return EX_USAGE;
    }
    return -1;
}

/* The manifest of ROOT (a manifest's JSON made from the command line) with the --set
 * overrides; 0, or -1 (err).  ROOT is consumed. */
static int parse_cli_manifest(json_t *root, gcn_manifest **m, char *err, size_t errlen)
{
    char *text = json_dumps(root, 0);
    json_decref(root);
    int rc = gcn_mf_parse("command line", "", text, (const char *const *)opt.sets.v, opt.sets.n,
                          m, err, errlen);
    free(text);
    if (!rc)
        (*m)->cli = 1;
    return rc;
}

/* --default-args: what the run got from the defaults, said on stderr. */
static void announce_defaults(const gcn_kernel *dk, const gcn_manifest *m)
{
    fprintf(stderr, "gcnsim: --default-args: %s runs on stated defaults, not real data: "
            "grid %ux%ux%u, block %ux%ux%u", dk->name, m->grid[0], m->grid[1], m->grid[2],
            m->block[0], m->block[1], m->block[2]);
    for (unsigned i = 0, e = 0; i < dk->nargs; i++) {
        const gcn_kernarg *a = &dk->args[i];
        if (gcn_kernarg_is_hidden(a) || e >= m->nargs)
            continue;
        const gcn_mf_arg *ma = &m->args[e];
        fprintf(stderr, "%s", e ? "; " : "; arguments: ");
        if (a->name)
            fprintf(stderr, "%s = ", a->name);
        else
            fprintf(stderr, "#%u = ", e);
        if (ma->kind == GCN_MF_ARG_BUFFER)
            fprintf(stderr, "buffer %s (%llu bytes, %s)", m->bufs[ma->buf].name,
                    (unsigned long long)m->bufs[ma->buf].size,
                    m->bufs[ma->buf].init == GCN_MF_INIT_RANDOM ? "random" : "zero");
        else if (ma->kind == GCN_MF_ARG_BYTES)
            fprintf(stderr, "%u zero bytes", ma->nbytes);
        else if (ma->kind == GCN_MF_ARG_F32 || ma->kind == GCN_MF_ARG_F64)
            fprintf(stderr, "%g", ma->fval);
        else
            fprintf(stderr, "%lld", (long long)ma->ival);
        e++;
    }
    fprintf(stderr, "\n");
}

/* --default-args: the manifest the kernel's metadata asks for (a buffer per pointer, the
 * scalars), on stated defaults (announced), with --grid/--block/--output; 0, or -1 with
 * the message said. */
static int manifest_from_defaults(gcn_manifest **m)
{
    char err[2048];
    gcn_codeobj *co = NULL;
    const char *target = NULL;
    const gcn_kernel *dk = NULL;
    char *dj = NULL;
    gcn_mf_tmpl to = {.defaults = 1, .init = opt.def_args, .buf_size = opt.def_bufsize,
                      .scalar = opt.def_scalar};
    if (load_file_code(opt.file, opt.mcpu, &co, &target, err, sizeof err) ||
        pick_kernel(co, opt.kernel, &dk, err, sizeof err) ||
        gcn_mf_template(dk, opt.file, &to, &dj, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_co_close(co);
        return -1;
    }
    json_t *root = json_loads(dj, 0, NULL);
    free(dj);
    if (!root) {
        fprintf(stderr, "gcnsim: out of memory\n");
        gcn_co_close(co);
        return -1;
    }
    json_object_del(root, "targets");
    json_object_set_new(root, "kernel", json_string(dk->name));
    if (opt.grid)
        json_object_set_new(root, "grid", opt.grid);
    if (opt.block)
        json_object_set_new(root, "block", opt.block);
    opt.grid = opt.block = NULL;
    if (json_array_size(opt.outs))
        json_object_set(root, "outputs", opt.outs);
    int rc = parse_cli_manifest(root, m, err, sizeof err);
    if (rc)
        fprintf(stderr, "gcnsim: %s\n", err);
    else
        announce_defaults(dk, *m);
    gcn_co_close(co);
    return rc;
}

/* The manifest of a dispatch given by options (FILE, --kernel, --grid, --block, --buffer,
 * --arg, --output: every buffer when none); 0, or -1 with the message said. */
static int manifest_from_options(gcn_manifest **m)
{
    char err[2048];
    json_t *root = json_object();
    json_object_set_new(root, "code", json_string(opt.file));
    if (opt.kernel)
        json_object_set_new(root, "kernel", json_string(opt.kernel));
    json_object_set_new(root, "grid", opt.grid ? opt.grid : json_pack("[i]", 1));
    json_object_set_new(root, "block", opt.block ? opt.block : json_pack("[i]", 64));
    opt.grid = opt.block = NULL;
    json_object_set_new(root, "buffers", opt.bufs);
    json_object_set_new(root, "args", opt.args);
    opt.bufs = opt.args = NULL;
    if (json_array_size(opt.outs)) {
        json_object_set(root, "outputs", opt.outs);
    } else {
        json_t *all = json_array();
        const char *key;
        json_t *val;
        json_object_foreach(json_object_get(root, "buffers"), key, val)
            json_array_append_new(all, json_string(key));
        json_object_set_new(root, "outputs", all);
    }
    if (parse_cli_manifest(root, m, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return -1;
    }
    return 0;
}

/* The manifest of this run: from --default-args, --manifest (then --code) or the dispatch
 * options; 0, or -1 with the message said. */
static int make_manifest(gcn_manifest **m)
{
    char err[2048];
    int rc;
    if (opt.def_args) {
        rc = manifest_from_defaults(m);
    } else if (opt.manifest) {
        rc = gcn_mf_load(opt.manifest, (const char *const *)opt.sets.v, opt.sets.n, m, err,
                         sizeof err);
        if (rc)
            fprintf(stderr, "gcnsim: %s\n", err);
    } else {
        rc = manifest_from_options(m);
    }
    if (!rc && opt.code_override && override_code(*m, opt.kernel, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_mf_free(*m);
        *m = NULL;
        rc = -1;
    }
    return rc;
}

/* The dispatch options' JSON pieces, freed (the manifest has what it needs of them). */
static void free_dispatch_opts(void)
{
    json_decref(opt.bufs);
    json_decref(opt.args);
    json_decref(opt.outs);
    json_decref(opt.grid);
    json_decref(opt.block);
    opt.bufs = opt.args = opt.outs = opt.grid = opt.block = NULL;
}

/* What main read from the command line, freed. */
static void free_opts(void)
{
    free_dispatch_opts();
    free(opt.sets.v);
    opt.sets.v = NULL;
    free(opt.dump_sel.v);
    opt.dump_sel.v = NULL;
    opt.dump_sel.n = 0;
}

/* gcnsim: the options; --list-hazards; the input; --list-kernels/--list-args/
 * --manifest-template; --all-sizes; else one run. */
static int gcnsim_main(int argc, char **argv)
{
    int ex = parse_options(argc, argv);
    if (ex >= 0)
        return ex;
    if (opt.list_hz)
        return list_hazards();
    if ((ex = check_inputs()) >= 0)
        return ex;
    if (opt.list_kernels || opt.list_args || opt.tmpl)
        return code_info(opt.manifest ? opt.code_override : opt.file, opt.manifest, opt.kernel,
                         opt.mcpu, opt.list_kernels, opt.list_args, opt.tmpl, opt.tmpl_out);
    if ((ex = check_run_options()) >= 0)
        return ex;
    if (!opt.manifest) {
        free(opt.dump_sel.v);         /* the dispatch's "outputs" say it */
        opt.dump_sel.v = NULL;
        opt.dump_sel.n = 0;
    }
    if (opt.all_sizes)
        return finish_stdout(run_sizes(opt.manifest, opt.kernel));
    gcn_manifest *m = NULL;
    int rc = make_manifest(&m);
    free_dispatch_opts();
    if (rc)
        return EX_INPUT;
    run_info ri = {0};
    ex = run_one(m, &ri);
    gcn_mf_free(m);
    return finish_stdout(ex);
}

int main(int argc, char **argv)
{
    gcn_file_signals();
    int ex = gcnsim_main(argc, argv);
    free_opts();
    return ex;
}

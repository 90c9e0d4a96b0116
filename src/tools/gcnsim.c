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
#include "sim/gcn_file.h"
#include "tools/gcn_version.h"
#include "sim/trace.h"
#include "analyze/gcn_hazard.h"

enum { EX_OK = 0, EX_USAGE = 1, EX_INPUT = 2, EX_FAULT = 3, EX_FINDINGS = 4 };

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcnsim [options] FILE.hsaco|FILE.s\n"
        "       gcnsim [options] --manifest M.json\n"
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
        "  --output NAME          buffer to dump (repeatable; default all)\n"
        "Common:\n"
        "  --manifest M.json      run manifest (docs/manifest.md)\n"
        "  --set NAME=VALUE       override a manifest param (repeatable)\n"
        "  --mcpu gfx942|gfx950   target (assembly sources, manifests with two targets)\n"
        "  --dump-dir DIR         write NAME.in.bin, NAME.bin and run.json there\n"
        "  --max-insns N          wave-instruction budget (default 2000000000)\n"
        "  --strict               stop at the first finding\n"
        "  --hazard-effect=MODE   hazards (too few wait states, src/analyze/hazards.def):\n"
        "                         report (default), stale (report, and the consumer reads\n"
        "                         the value from before the producer wrote it), off\n"
        "  --llvm-conservative    also the hazard rules only LLVM imposes, beyond the ISA\n"
        "                         guide and rocRoller (off by default; docs/hazards.md)\n"
        "  --list-hazards         list the hazard rules of the target (--mcpu) and exit\n"
        "  --trace=fifo           per-instruction FIFO trace of one wave (stdout)\n"
        "  --wave=WG,W            the wave to trace/plot: flat workgroup index, wave (0,0)\n"
        "  --trace-json FILE      Chrome/Perfetto trace of that wave\n"
        "  --plot FILE.svg        FIFO depth plot of that wave\n"
        "  --max-findings N       findings to print (default 20)\n"
        "  --no-group             one finding per site (kind, pc, producer); by default the\n"
        "                         sites of one rule are one finding with a count and the pcs\n"
        "  --json FILE            the findings as JSON (grouped unless --no-group); with\n"
        "                         --dump-dir they also go into run.json\n"
        "  --quantum N            instructions a wave runs before the next wave of its\n"
        "                         workgroup (default 1: instruction-level round robin)\n"
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

/* Everything main allocates while it reads the command line stays reachable
 * from here, so an early return leaks nothing (LeakSanitizer agrees). */
static strv sets;
static json_t *grid, *block, *bufs, *args, *outs;

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

/* run.json (gcn_mf_run_json) with "findings" added; frees RJ; NULL when out of memory */
static char *with_findings(char *rj, json_t *fj)
{
    json_t *r = json_loads(rj, 0, NULL);
    free(rj);
    if (!r)
        return NULL;
    json_object_set(r, "findings", fj);
    char *out = json_dumps(r, JSON_INDENT(2));
    json_decref(r);
    return out;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"manifest", required_argument, 0, 'm'}, {"kernel", required_argument, 0, 'k'},
        {"grid", required_argument, 0, 'g'}, {"block", required_argument, 0, 'b'},
        {"buffer", required_argument, 0, 'B'}, {"arg", required_argument, 0, 'a'},
        {"output", required_argument, 0, 'o'}, {"set", required_argument, 0, 's'},
        {"mcpu", required_argument, 0, 'c'}, {"dump-dir", required_argument, 0, 'd'},
        {"max-insns", required_argument, 0, 'n'}, {"strict", no_argument, 0, 'S'},
        {"trace", required_argument, 0, 't'}, {"wave", required_argument, 0, 'w'},
        {"trace-json", required_argument, 0, 'j'}, {"plot", required_argument, 0, 'p'},
        {"max-findings", required_argument, 0, 'F'}, {"quiet", no_argument, 0, 'q'},
        {"no-progress", no_argument, 0, 'P'}, {"quantum", required_argument, 0, 'Q'},
        {"hazard-effect", required_argument, 0, 'H'}, {"list-hazards", no_argument, 0, 'L'},
        {"llvm-conservative", no_argument, 0, 'C'},
        {"no-group", no_argument, 0, 'G'}, {"json", required_argument, 0, 'J'},
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, {0, 0, 0, 0}};
    const char *manifest = NULL, *kernel = NULL, *mcpu = NULL, *dump = NULL;
    const char *trace_json = NULL, *plot = NULL, *json_out = NULL;
    int group = 1;
    bufs = json_object();
    args = json_array();
    outs = json_array();
    uint64_t max_insns = 0, num;
    int strict = 0, trace = 0, quiet = 0, progress = 1, hz_effect = GCN_SIM_HZ_REPORT;
    unsigned twg = 0, twave = 0, maxf = 20, quantum = 1;
    int list_hz = 0, hz_llvm = 0;
    char err[2048];
    int c;
    gcn_file_signals();
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'm': manifest = optarg; break;
        case 'k': kernel = optarg; break;
        case 'g':
            json_decref(grid);
            if (parse_dims(optarg, &grid)) {
                fprintf(stderr, "gcnsim: --grid %s: expected X[,Y[,Z]] of positive integers\n", optarg);
                return EX_USAGE;
            }
            break;
        case 'b':
            json_decref(block);
            if (parse_dims(optarg, &block)) {
                fprintf(stderr, "gcnsim: --block %s: expected X[,Y[,Z]] of positive integers\n", optarg);
                return EX_USAGE;
            }
            break;
        case 'B':
            if (parse_buffer(optarg, bufs, err, sizeof err)) {
                fprintf(stderr, "gcnsim: %s\n", err);
                return EX_USAGE;
            }
            break;
        case 'a':
            if (parse_arg(optarg, args, err, sizeof err)) {
                fprintf(stderr, "gcnsim: %s\n", err);
                return EX_USAGE;
            }
            break;
        case 'o': json_array_append_new(outs, json_string(optarg)); break;
        case 's': strv_add(&sets, optarg); break;
        case 'c': mcpu = optarg; break;
        case 'd': dump = optarg; break;
        case 'n': {
            if (parse_num(optarg, 1, UINT64_MAX, &max_insns)) {
                fprintf(stderr, "gcnsim: --max-insns %s: expected a positive integer\n", optarg);
                return EX_USAGE;
            }
            break;
        }
        case 'S': strict = 1; break;
        case 'C': hz_llvm = 1; break;
        case 'H':
            if (!strcmp(optarg, "report")) hz_effect = GCN_SIM_HZ_REPORT;
            else if (!strcmp(optarg, "stale")) hz_effect = GCN_SIM_HZ_STALE;
            else if (!strcmp(optarg, "off")) hz_effect = GCN_SIM_HZ_OFF;
            else {
                fprintf(stderr, "gcnsim: --hazard-effect=%s: expected report, stale or off\n", optarg);
                return EX_USAGE;
            }
            break;
        case 't':
            if (strcmp(optarg, "fifo")) {
                fprintf(stderr, "gcnsim: --trace=%s: only --trace=fifo exists\n", optarg);
                return EX_USAGE;
            }
            trace = 1;
            break;
        case 'w': {
            char wg[32] = "";
            const char *comma = strchr(optarg, ',');
            uint64_t a = 0, b = 0;
            if (comma && (size_t)(comma - optarg) < sizeof wg)
                memcpy(wg, optarg, (size_t)(comma - optarg));
            if (!comma || parse_num(wg, 0, UINT32_MAX - 1, &a) || parse_num(comma + 1, 0, 15, &b)) {
                fprintf(stderr, "gcnsim: --wave=%s: expected WG,W (flat workgroup index, wave 0..15)\n", optarg);
                return EX_USAGE;
            }
            twg = (unsigned)a;
            twave = (unsigned)b;
            break;
        }
        case 'j': trace_json = optarg; break;
        case 'p': plot = optarg; break;
        case 'F':
            if (parse_num(optarg, 0, UINT32_MAX, &num)) {
                fprintf(stderr, "gcnsim: --max-findings %s: expected a number, 0 or more\n", optarg);
                return EX_USAGE;
            }
            maxf = (unsigned)num;
            break;
        case 'q': quiet = 1; break;
        case 'P': progress = 0; break;
        case 'L': list_hz = 1; break;
        case 'G': group = 0; break;
        case 'J': json_out = optarg; break;
        case 'Q':
            if (parse_num(optarg, 1, UINT32_MAX, &num)) {
                fprintf(stderr, "gcnsim: --quantum %s: expected a positive integer\n", optarg);
                return EX_USAGE;
            }
            quantum = (unsigned)num;
            break;
        case 'h': usage(stdout); return EX_OK;
        case 'V': gcn_version_print(stdout, "gcnsim"); return EX_OK;
        default: usage(stderr); return EX_USAGE;
        }
    }
    if (list_hz) {
        /* the wait-state rules (src/analyze/hazards.def) checked on a target */
        gcn_target t = gcn_target_from_name(mcpu ? mcpu : "gfx942");
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
    const char *file = optind < argc ? argv[optind] : NULL;
    if (optind + 1 < argc || (!file && !manifest) || (file && manifest)) {
        fprintf(stderr, "gcnsim: give one code file or --manifest M.json\n");
        usage(stderr);
        return EX_USAGE;
    }
    if (manifest && (grid || block || json_object_size(bufs) || json_array_size(args) || kernel)) {
        fprintf(stderr, "gcnsim: --grid/--block/--buffer/--arg/--kernel describe a dispatch without a "
                "manifest; with --manifest use --set\n");
        return EX_USAGE;
    }

    gcn_manifest *m = NULL;
    int rc;
    if (manifest) {
        rc = gcn_mf_load(manifest, (const char *const *)sets.v, sets.n, &m, err, sizeof err);
    } else {
        json_t *root = json_object();
        json_object_set_new(root, "code", json_string(file));
        if (kernel)
            json_object_set_new(root, "kernel", json_string(kernel));
        json_object_set_new(root, "grid", grid ? grid : json_pack("[i]", 1));
        json_object_set_new(root, "block", block ? block : json_pack("[i]", 64));
        grid = block = NULL;
        json_object_set_new(root, "buffers", bufs);
        json_object_set_new(root, "args", args);
        bufs = args = NULL;
        if (json_array_size(outs)) {
            json_object_set(root, "outputs", outs);
        } else {
            json_t *all = json_array();
            const char *key;
            json_t *val;
            json_object_foreach(json_object_get(root, "buffers"), key, val)
                json_array_append_new(all, json_string(key));
            json_object_set_new(root, "outputs", all);
        }
        char *text = json_dumps(root, 0);
        json_decref(root);
        rc = gcn_mf_parse("command line", ".", text, (const char *const *)sets.v, sets.n, &m, err,
                          sizeof err);
        free(text);
    }
    json_decref(bufs);
    json_decref(args);
    json_decref(outs);
    json_decref(grid);
    json_decref(block);
    bufs = args = outs = grid = block = NULL;
    if (rc) {
        fprintf(stderr, "gcnsim: %s\n", err);
        return EX_INPUT;
    }
    const char *target = NULL;
    if (gcn_mf_target(m, mcpu, &target, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_mf_free(m);
        return EX_INPUT;
    }
    /* where the outputs go, checked before anything runs */
    if ((dump && gcn_dump_check(dump, err, sizeof err)) ||
        (trace_json && gcn_file_check_output(trace_json, err, sizeof err)) ||
        (plot && gcn_file_check_output(plot, err, sizeof err))) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_mf_free(m);
        return EX_INPUT;
    }
    {
        /* buffers larger than this machine's memory would end in the OOM killer */
        uint64_t total = 0, phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
        for (unsigned i = 0; i < m->nbufs; i++)
            total += m->bufs[i].size;
        if (phys && total > phys) {
            fprintf(stderr, "gcnsim: %s: the buffers need %llu bytes, more than this machine's "
                    "%llu bytes of memory\n", m->path, (unsigned long long)total,
                    (unsigned long long)phys);
            gcn_mf_free(m);
            return EX_INPUT;
        }
    }
    {
        /* the traced wave must exist */
        uint64_t nwg = (uint64_t)m->grid[0] * m->grid[1] * m->grid[2];
        unsigned wpg = (m->block[0] * m->block[1] * m->block[2] + 63) / 64;
        if ((trace || trace_json || plot) && (twg >= nwg || twave >= wpg)) {
            fprintf(stderr, "gcnsim: --wave=%u,%u: the dispatch has %llu workgroup%s of %u wave%s\n",
                    twg, twave, (unsigned long long)nwg, nwg == 1 ? "" : "s", wpg,
                    wpg == 1 ? "" : "s");
            gcn_mf_free(m);
            return EX_USAGE;
        }
    }
    gcn_codeobj *co = NULL;
    if (gcn_mf_load_code(m->code, target, &co, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_mf_free(m);
        return EX_INPUT;
    }
    if (!target)
        target = gcn_target_name(co->target);
    const gcn_kernel *k = NULL;
    if (gcn_mf_kernel(m, co, &k, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s\n", err);
        gcn_co_close(co);
        gcn_mf_free(m);
        return EX_INPUT;
    }

    FILE *tout = stdout;
    gcn_sim_opts o = {
        .target = gcn_target_from_name(target), .max_insns = max_insns, .strict = strict,
        .hazard_effect = hz_effect,
        .hazard_llvm = hz_llvm,
        .trace_fifo = trace, .trace_out = tout, .trace_wg = twg, .trace_wave = twave,
        .trace_json = trace_json, .plot_svg = plot, .progress = progress && !quiet,
        .quantum = quantum,
    };
    gcn_sim *sim = gcn_sim_new(&o);
    uint64_t *addr = calloc(m->nbufs + 1, sizeof *addr);
    uint8_t *ka = NULL;
    size_t kalen = 0;
    gcn_dump dd = {0};
    int ex = EX_OK;
    if (!sim || !addr) {
        fprintf(stderr, "gcnsim: out of memory\n");
        ex = EX_INPUT;
        goto done;
    }
    for (unsigned i = 0; i < m->nbufs; i++) {
        if (gcn_sim_alloc(sim, m->bufs[i].size, m->bufs[i].name, &addr[i])) {
            fprintf(stderr, "gcnsim: buffer %s: cannot allocate %llu bytes\n", m->bufs[i].name,
                    (unsigned long long)m->bufs[i].size);
            ex = EX_INPUT;
            goto done;
        }
        uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
        if (m->bufs[i].size && gcn_mf_fill(m, i, h, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
            goto done;
        }
    }
    if (gcn_kernarg_build(m, k, addr, &ka, &kalen, err, sizeof err)) {
        fprintf(stderr, "gcnsim: %s: %s\n", m->path, err);
        ex = EX_INPUT;
        goto done;
    }
    /* The dump is written into a fresh directory beside DIR and put in place
     * at the end (gcn_dump_commit): DIR then holds this run's dump whole --
     * inputs, outputs and run.json after a run, only the inputs after a
     * kernel fault -- and after any other failure it is left as it was. */
    if (dump) {
        if (gcn_dump_begin(&dd, dump, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
            goto done;
        }
        for (unsigned i = 0; i < m->nbufs; i++) {
            uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
            if (gcn_dump_write(&dd, m->bufs[i].name, ".in.bin", h, m->bufs[i].size, err, sizeof err)) {
                fprintf(stderr, "gcnsim: %s\n", err);
                ex = EX_INPUT;
                goto done;
            }
        }
    }
    gcn_dispatch d = {.co = co, .kernel = k, .kernarg = ka, .kernarg_size = kalen,
                      .dynamic_lds = m->dynamic_lds};
    memcpy(d.grid, m->grid, sizeof d.grid);
    memcpy(d.block, m->block, sizeof d.block);
    gcn_sim_result res;
    int st = gcn_sim_run(sim, &d, &res);
    if (st == GCN_SIM_EINPUT) {
        fprintf(stderr, "gcnsim: %s: %s\n", m->path, res.msg);
        ex = EX_INPUT;
        goto done;
    }
    gcn_sim_group *groups = NULL;
    unsigned ngroups = 0;
    if (group && gcn_sim_group_findings(&res, &groups, &ngroups)) {
        fprintf(stderr, "gcnsim: out of memory\n");
        ex = EX_INPUT;
        goto done;
    }
    if (res.nfindings && group)
        gcn_sim_print_groups(stderr, &res, groups, ngroups, maxf);
    else if (res.nfindings)
        gcn_sim_print_findings(stderr, &res, maxf);
    json_t *fj = json_out || dump ? findings_json(&res, group ? groups : NULL, ngroups) : NULL;
    gcn_sim_free_groups(groups, ngroups);
    if (json_out) {
        json_t *doc = json_pack("{s:s,s:s,s:s,s:b,s:O}", "kernel", k->name, "target", target,
                                "status", st == GCN_SIM_FAULT ? "fault" :
                                res.nfindings ? "findings" : "clean", "grouped", group,
                                "findings", fj);
        if (st == GCN_SIM_FAULT)
            json_object_set_new(doc, "fault", json_string(res.msg));
        char *text = json_dumps(doc, JSON_INDENT(1));
        json_decref(doc);
        if (!text || sim_write_atomic(json_out, text, strlen(text), err, sizeof err)) {
            fprintf(stderr, "gcnsim: --json %s: %s\n", json_out, text ? err : "out of memory");
            free(text);
            json_decref(fj);
            ex = EX_INPUT;
            goto done;
        }
        free(text);
    }
    if (st == GCN_SIM_FAULT) {
        fprintf(stderr, "gcnsim: kernel fault in %s (%s): %s\n", k->name, target, res.msg);
        json_decref(fj);
        ex = EX_FAULT;
        if (dump && gcn_dump_commit(&dd, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", err);
            ex = EX_INPUT;
        }
        goto done;
    }
    if (!quiet)
        fprintf(stderr, "gcnsim: %s on %s: grid %ux%ux%u, block %ux%ux%u, %llu waves, %llu "
                "wave-instructions, %.3f s (%.3f s CPU), %u finding%s\n", k->name, target, m->grid[0],
                m->grid[1], m->grid[2], m->block[0], m->block[1], m->block[2],
                (unsigned long long)res.waves, (unsigned long long)res.insns, res.seconds,
                res.cpu_seconds, group ? ngroups : res.nfindings,
                (group ? ngroups : res.nfindings) == 1 ? "" : "s");
    if (dump) {
        for (unsigned i = 0; i < m->nbufs; i++) {
            uint8_t *h = gcn_sim_host(sim, addr[i], m->bufs[i].size);
            if (gcn_dump_write(&dd, m->bufs[i].name, ".bin", h, m->bufs[i].size, err, sizeof err)) {
                fprintf(stderr, "gcnsim: %s\n", err);
                ex = EX_INPUT;
                goto done;
            }
        }
        char *rj = NULL;
        if (gcn_mf_run_json(m, target, &rj, err, sizeof err) || !(rj = with_findings(rj, fj)) ||
            gcn_dump_write(&dd, "run", ".json", rj, strlen(rj), err, sizeof err) ||
            gcn_dump_commit(&dd, err, sizeof err)) {
            fprintf(stderr, "gcnsim: %s\n", rj ? err : "out of memory");
            free(rj);
            json_decref(fj);
            ex = EX_INPUT;
            goto done;
        }
        free(rj);
    }
    json_decref(fj);
    ex = res.nfindings ? EX_FINDINGS : EX_OK;
done:
    if (dd.tmp)
        gcn_dump_abort(&dd);
    free(ka);
    free(addr);
    gcn_sim_free(sim);
    gcn_co_close(co);
    gcn_mf_free(m);
    free(sets.v);
    sets.v = NULL;
    return finish_stdout(ex);
}

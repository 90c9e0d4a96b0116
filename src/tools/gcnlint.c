/*
 * gcnlint.c -- command-line front end of the static analyzer (src/analyze):
 * reads .hsaco files, clang offload bundles or assembly sources (assembled
 * with clang-22 -g so findings point at source lines), runs the CFG, the
 * pending-operation dataflow, the hazard rules and optionally the wait
 * suggestions on every kernel, and prints gcc-style, JSON or SARIF output.
 * docs/gcnlint.md describes options, checks and exit codes.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "config.h"
#include "tools/gcn_version.h"
#include "gcn_codeobj.h"
#include "lint.h"
#include "paths.h"
#include "gcn_file.h"
#include "cli.h"

#ifndef GCN_CLANG
#define GCN_CLANG "clang-22"
#endif

extern char **environ;

enum { EXIT_CLEAN = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_FINDINGS = 4 };
enum { FMT_TEXT, FMT_JSON, FMT_SARIF };

typedef struct options {
    const char *mcpu;
    const char *offload_arch;
    const char *kernel;
    int format;
    bool suggest, explain, werror, summary, no_group, all_paths;
    bool w_lds_unproven;   /* -Wlds-unproven: report LDS checks that could not be proven */
    bool llvm_conservative;   /* -Wllvm-conservative: also what only LLVM's hazard
                               * recognizer requires (warnings) */
    unsigned jobs, max_states;
    unsigned wg[3];        /* --workgroup-size X,Y,Z (0: from the metadata) */
    char **wno;            /* disabled checks (names or prefixes ending in '*') */
    unsigned nwno;
} options;

/* Result of one input file. */
typedef struct fileres {
    const char *path;
    gcn_diags diags;
    char *error;           /* input error message, or NULL */
    unsigned nkernels;
} fileres;

/* ---- small helpers ------------------------------------------------------ */

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static bool is_asm(const char *path)
{
    return has_suffix(path, ".s") || has_suffix(path, ".S") || has_suffix(path, ".asm");
}

static char *xstrdup_printf(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, fmt, a, b);
    return s;
}

static bool check_disabled(const options *o, const char *name)
{
    for (unsigned i = 0; i < o->nwno; i++) {
        const char *w = o->wno[i];
        size_t n = strlen(w);
        if (!strcmp(w, name))
            return true;
        if (!strcmp(w, "hazard") && !strncmp(name, "hazard", 6))
            return true;
        if (n && w[n - 1] == '*' && !strncmp(w, name, n - 1))
            return true;
    }
    return false;
}

/* ---- source lines (for suppression comments) ----------------------------- */

typedef struct srcfile {
    char *path;
    char *text;
    char **line;
    unsigned nlines;
} srcfile;

typedef struct srccache {
    srcfile *f;
    unsigned n;
} srccache;

static const srcfile *src_get(srccache *c, const char *path)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->f[i].path, path))
            return &c->f[i];
    srcfile *nf = realloc(c->f, sizeof *nf * (c->n + 1));
    if (!nf)
        return NULL;
    c->f = nf;
    srcfile *s = &c->f[c->n++];
    memset(s, 0, sizeof *s);
    s->path = strdup(path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return s;
    size_t cap = 0, len = 0;
    char buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, fp)) > 0) {
        char *t = realloc(s->text, len + r + 1);
        if (!t)
            break;
        s->text = t;
        memcpy(s->text + len, buf, r);
        len += r;
        cap = len;
    }
    fclose(fp);
    (void)cap;
    if (!s->text)
        return s;
    s->text[len] = 0;
    unsigned n = 1;
    for (size_t i = 0; i < len; i++)
        n += s->text[i] == '\n';
    s->line = malloc(sizeof *s->line * (n + 1));
    if (!s->line)
        return s;
    s->line[0] = NULL;                 /* lines are 1-based */
    unsigned k = 1;
    s->line[k++] = s->text;
    for (size_t i = 0; i < len; i++)
        if (s->text[i] == '\n') {
            s->text[i] = 0;
            if (k <= n)
                s->line[k++] = s->text + i + 1;
        }
    s->nlines = k - 1;
    return s;
}

static void src_free(srccache *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        free(c->f[i].path);
        free(c->f[i].text);
        free(c->f[i].line);
    }
    free(c->f);
}

/* Does the source line carry "gcnlint: allow(name[, name...])" for this check? */
static bool suppressed(srccache *c, const char *file, unsigned line, const char *check)
{
    if (!file || !line)
        return false;
    const srcfile *s = src_get(c, file);
    if (!s || line > s->nlines || !s->line)
        return false;
    const char *p = strstr(s->line[line], "gcnlint: allow(");
    while (p) {
        p += strlen("gcnlint: allow(");
        const char *end = strchr(p, ')');
        if (!end)
            return false;
        while (p < end) {
            while (p < end && (*p == ' ' || *p == ','))
                p++;
            const char *q = p;
            while (q < end && *q != ',' && *q != ' ')
                q++;
            size_t n = (size_t)(q - p);
            if (n && ((n == strlen(check) && !strncmp(p, check, n)) ||
                      (n == 3 && !strncmp(p, "all", 3)) ||
                      (n == 6 && !strncmp(p, "hazard", 6) && !strncmp(check, "hazard", 6))))
                return true;
            p = q;
        }
        p = strstr(end, "gcnlint: allow(");
    }
    return false;
}

/* ---- assembling .s input ------------------------------------------------ */

/* Assemble src with clang; the object comes back through a pipe (-o -), so
 * no temporary file exists to be left behind by a kill. */
static int run_clang(const char *mcpu, const char *src, uint8_t **obj, size_t *objlen, char **emsg)
{
    const char *clang = getenv("GCNLINT_CLANG");
    if (!clang || !*clang)
        clang = GCN_CLANG;
    char *msg = NULL, err[512];
    int st;
    int rc = gcn_file_assemble(clang, mcpu, src, obj, objlen, &msg, &st, err, sizeof err);
    if (rc) {
        if (!strncmp(err, "cannot run ", 11))   /* no assembler: say what is needed */
            *emsg = xstrdup_printf("assembling failed: %s: an assembly source needs %s (LLVM 22; "
                                   "apt-get install clang-22) on PATH, or GCNLINT_CLANG naming it",
                                   err, "clang-22");
        else
            *emsg = xstrdup_printf("assembling failed (%s): %s", clang, err);
        free(msg);
        return -1;
    }
    if (st == 0) {
        free(msg);
        return 0;
    }
    free(*obj);
    *obj = NULL;
    /* clang's messages already name the file and line */
    size_t n = msg ? strlen(msg) : 0;
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = 0;
    *emsg = xstrdup_printf("assembling failed (%s):\n%s", clang,
                           n ? msg : st < 0 ? "(killed by a signal)" : "(no message)");
    free(msg);
    return -1;
}

/* ---- analysis of one code object ---------------------------------------- */

/* The functions of a code object's .text (kernels and other STT_FUNC
 * symbols), sorted, for naming a location symbol+0xOFFSET; an address in
 * none is .text+0xOFFSET. */
typedef struct frange {
    uint64_t lo, hi;
    const char *name;
} frange;

typedef struct ftab {
    frange *r;
    unsigned n;
    uint64_t text_addr, text_end;
} ftab;

static int cmp_frange(const void *x, const void *y)
{
    const frange *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int ftab_build(const gcn_codeobj *co, ftab *t)
{
    memset(t, 0, sizeof *t);
    t->text_addr = co->text_addr;
    t->text_end = co->text_addr + co->text_size;
    t->r = malloc(sizeof *t->r * (co->nkernels + co->nsyms + 1));
    if (!t->r)
        return -1;
    /* kernels first: at an address with several symbols the kernel's name wins */
    for (unsigned i = 0; i < co->nkernels; i++) {
        const gcn_kernel *k = &co->kernels[i];
        t->r[t->n++] = (frange){k->entry_addr, k->code_size ? k->entry_addr + k->code_size : 0,
                                k->name};
    }
    for (unsigned i = 0; i < co->nsyms; i++) {
        const gcn_symbol *y = &co->syms[i];
        if (y->type != STT_FUNC || y->shndx != co->text_index || !y->name[0])
            continue;
        t->r[t->n++] = (frange){y->value, y->size ? y->value + y->size : 0, y->name};
    }
    /* stable: insertion sort keeps the kernels before symbols of one address */
    for (unsigned a = 1; a < t->n; a++) {
        frange v = t->r[a];
        unsigned b = a;
        while (b > 0 && cmp_frange(&t->r[b - 1], &v) > 0) {
            t->r[b] = t->r[b - 1];
            b--;
        }
        t->r[b] = v;
    }
    unsigned w = 0;
    for (unsigned a = 0; a < t->n; a++)
        if (!w || t->r[w - 1].lo != t->r[a].lo)
            t->r[w++] = t->r[a];
        else if (!t->r[w - 1].hi)
            t->r[w - 1].hi = t->r[a].hi;
    t->n = w;
    /* a size unknown: up to the next function or the end of .text */
    for (unsigned a = 0; a < t->n; a++)
        if (!t->r[a].hi)
            t->r[a].hi = a + 1 < t->n ? t->r[a + 1].lo : t->text_end;
    return 0;
}

/* The function containing addr (NULL: none; *off from .text then). */
static const frange *ftab_find(const ftab *t, uint64_t addr, uint64_t *off)
{
    unsigned lo = 0, hi = t->n;
    while (lo < hi) {                   /* first range starting after addr */
        unsigned mid = (lo + hi) / 2;
        if (t->r[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (unsigned k = lo; k-- > 0;)     /* the innermost one that contains it */
        if (addr < t->r[k].hi) {
            *off = addr - t->r[k].lo;
            return &t->r[k];
        }
    *off = addr - t->text_addr;
    return NULL;
}

typedef struct locctx {
    const gcn_codeobj *co;
    const char *main_file;     /* source file of the kernel entry, or NULL */
    const ftab *ft;
    const frange *kr;          /* the kernel's range */
} locctx;

/* symbol of addr seen from the kernel kr: NULL inside it, else the
 * function containing it or ".text"; *off counts from that symbol */
static const char *where(const ftab *ft, const frange *kr, uint64_t addr, uint64_t *off)
{
    if (kr && addr >= kr->lo && addr < kr->hi) {
        *off = addr - kr->lo;
        return NULL;
    }
    const frange *f = ftab_find(ft, addr, off);
    return f ? f->name : ".text";
}

/* Locations inside messages: a line, "+0xOFF" in the kernel, "sym+0xOFF"
 * or ".text+0xOFF" outside it. */
static void loc_fn(void *ctx, uint64_t addr, gcn_strbuf *sb)
{
    const locctx *l = ctx;
    const gcn_line *ln = gcn_co_line(l->co, addr);
    if (ln) {
        if (l->main_file && !strcmp(ln->file, l->main_file))
            gcn_sb_printf(sb, "line %u", ln->line);
        else
            gcn_sb_printf(sb, "%s:%u", ln->file, ln->line);
        return;
    }
    uint64_t off;
    const char *sym = where(l->ft, l->kr, addr, &off);
    gcn_sb_printf(sb, "%s+0x%llx", sym ? sym : "", (unsigned long long)off);
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* File, line, symbol and offset of an address; the line table's
 * (absolute) name of the input source is printed as the user wrote it. */
static void place(const gcn_codeobj *co, const char *input, const locctx *lc, uint64_t addr,
                  char **file, unsigned *line, char **symbol, uint64_t *off)
{
    const gcn_line *ln = gcn_co_line(co, addr);
    if (ln) {
        *file = (char *)ln->file;
        if (strcmp(ln->file, input) && is_asm(input) && same_file(ln->file, input))
            *file = (char *)input;
        *line = ln->line;
    } else {
        *file = (char *)input;
        *line = 0;
    }
    *symbol = (char *)where(lc->ft, lc->kr, addr, off);
}

static int lint_kernel(const options *o, const gcn_codeobj *co, const ftab *ft,
                       const gcn_kernel *k, const char *input, srccache *sc, gcn_diags *out)
{
    gcn_cfg cfg;
    char err[256];
    uint64_t text_size = co->text_size;
    uint64_t koff;
    const frange *kr = ftab_find(ft, k->entry_addr, &koff);
    if (kr && kr->lo != k->entry_addr)
        kr = NULL;
    if (gcn_cfg_build(&cfg, co->target, co->text, co->text_addr, text_size, k->entry_addr, err,
                      sizeof err) < 0) {
        gcn_diag d = {.input = (char *)input, .kernel = k->name, .file = (char *)input,
                      .check = GCN_CHK_CFG_INVALID, .severity = GCN_SEV_ERROR,
                      .check_name = (char *)gcn_check_name(GCN_CHK_CFG_INVALID), .msg = err,
                      .rel_offset = -1, .wait_offset = -1, .addr = k->entry_addr};
        gcn_diags_add(out, &d);
        return 0;
    }
    const gcn_line *entry_line = gcn_co_line(co, k->entry_addr);
    locctx lc = {co, entry_line ? entry_line->file : NULL, ft, kr};
    gcn_lint_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.explain = o->explain;
    lo.max_states = o->max_states;
    lo.all_paths = o->all_paths;
    lo.loc = loc_fn;
    lo.loc_ctx = &lc;
    lo.hz_xnack_off = co->xnack_mode == GCN_CO_FEAT_OFF;
    /* waves per work-group: the launch the user gives (--workgroup-size),
     * else the metadata's bound (1024 work-items when absent) */
    unsigned wgsize = k->md_max_flat_workgroup_size ? k->md_max_flat_workgroup_size : 1024;
    bool flat = k->kd.enable_vgpr_workitem_id == 0;
    if (o->wg[0]) {
        wgsize = o->wg[0] * o->wg[1] * o->wg[2];
        flat = flat || (o->wg[1] == 1 && o->wg[2] == 1);   /* y = z = 0: v0 is the flat id */
    }
    unsigned nwaves = (wgsize + 63) / 64;
    /* the waves that reach each block follow the edges the static path
     * facts allow (NULL with --all-paths, or when they cannot be built) */
    gcn_paths *paths = o->all_paths ? NULL : gcn_paths_build(&cfg);
    gcn_entry_info ei = {.v0_is_x = flat, .nwaves = nwaves, .packed_xyz = !flat, .paths = paths};
    lo.hz_llvm = o->llvm_conservative;
    gcn_values vals;
    gcn_findings fs = {0};
    int rc = 0;
    lo.paths = paths;                  /* the checks share them */
    if (gcn_values_run(&cfg, &ei, &vals) < 0) {
        gcn_paths_free(paths);
        gcn_cfg_free(&cfg);
        return -1;
    }
    gcn_lint_cfg_findings(&cfg, &lo, &fs);
    lo.nwaves = nwaves;
    lo.declared_wg = !o->wg[0] && k->md_max_flat_workgroup_size ? k->md_max_flat_workgroup_size : 0;
    lo.lds_unproven = o->w_lds_unproven;
    if (gcn_lint_waits(&cfg, &vals, &lo, &fs) < 0 || gcn_lint_hazards(&cfg, &lo, &fs) < 0 ||
        gcn_lint_xwave(&cfg, &vals, nwaves, &lo, &fs) < 0)
        rc = -1;
    if (rc == 0 && o->suggest && gcn_lint_suggest(&cfg, &vals, &lo, &fs) < 0)
        rc = -1;
    gcn_findings_sort(&fs);
    const unsigned first = out->n;
    for (unsigned i = 0; i < fs.n && rc == 0; i++) {
        const gcn_finding *f = &fs.f[i];
        char namebuf[128];
        const char *name = gcn_check_name(f->check);
        if (f->check == GCN_CHK_HAZARD && f->rule) {
            snprintf(namebuf, sizeof namebuf, "hazard-%s", f->rule);
            for (char *p = namebuf; *p; p++)
                if (*p == '_')
                    *p = '-';
            name = namebuf;
        }
        if (check_disabled(o, name))
            continue;
        if (f->check == GCN_CHK_LDS_UNPROVEN && !o->w_lds_unproven)
            continue;
        gcn_diag d;
        memset(&d, 0, sizeof d);
        d.input = (char *)input;
        d.kernel = k->name;
        place(co, input, &lc, f->addr, &d.file, &d.line, &d.symbol, &d.offset);
        d.addr = f->addr;
        if (suppressed(sc, d.line ? d.file : NULL, d.line, name))
            continue;
        d.check = f->check;
        d.severity = f->severity;
        if (o->werror && d.severity == GCN_SEV_WARNING)
            d.severity = GCN_SEV_ERROR;
        d.check_name = (char *)name;
        d.msg = f->msg;
        d.explain = f->explain;
        d.rel_offset = -1;
        d.wait_offset = -1;
        if (f->wait >= 0 && f->check != GCN_CHK_WAIT_SUGGEST && f->check != GCN_CHK_WAIT_STRONGER) {
            uint64_t off;
            place(co, input, &lc, (uint64_t)f->wait, &d.wait_file, &d.wait_line, &d.wait_symbol,
                  &off);
            d.wait_offset = (int64_t)off;
            d.wait_addr = (uint64_t)f->wait;
            d.fix = f->fix_ctr ? f->fix : -1;
            d.fix_ctr = f->fix_ctr;
        }
        if (f->producer >= 0) {
            uint64_t off;
            place(co, input, &lc, (uint64_t)f->producer, &d.rel_file, &d.rel_line, &d.rel_symbol,
                  &off);
            d.rel_offset = (int64_t)off;
            d.rel_addr = (uint64_t)f->producer;
        }
        if (gcn_diags_add(out, &d) < 0)
            rc = -1;
    }
    if (rc == 0 && !o->no_group && gcn_diags_group(out, first, GCN_GROUP_MIN_SITES) < 0)
        rc = -1;
    gcn_findings_free(&fs);
    gcn_values_free(&vals);
    gcn_paths_free(paths);
    gcn_cfg_free(&cfg);
    return rc;
}

static void lint_file(const options *o, fileres *res)
{
    const char *path = res->path;
    gcn_co_err err;
    gcn_codeobj *co = NULL;
    memset(&err, 0, sizeof err);
    if (is_asm(path)) {
        /* a directory, an empty file or one over the limit never reaches clang */
        char cerr[1024];
        if (gcn_file_check_input(path, GCN_FILE_MAX_ASM, "assembly source", cerr, sizeof cerr)) {
            res->error = strdup(cerr);
            return;
        }
        char *emsg = NULL;
        uint8_t *obj = NULL;
        size_t objlen = 0;
        /* the target the source states (.amdgcn_target) wins over the default;
         * an --mcpu that contradicts it is an input error */
        char tid[64];
        int has = gcn_file_asm_target(path, tid, sizeof tid, cerr, sizeof cerr);
        if (has < 0) {
            res->error = strdup(cerr);
            return;
        }
        const char *cpu = o->mcpu ? o->mcpu : "gfx942";
        if (has) {
            char proc[64];
            snprintf(proc, sizeof proc, "%.*s", (int)strcspn(tid, ":"), tid);
            gcn_target pt = gcn_target_from_name(proc);
            if (pt != GCN_TARGET_GFX942 && pt != GCN_TARGET_GFX950) {
                res->error = xstrdup_printf("%s: .amdgcn_target %s: unsupported target (gcnlint "
                                            "knows gfx942 and gfx950)", path, tid);
                return;
            }
            if (o->mcpu && gcn_target_from_name(o->mcpu) != pt) {
                snprintf(cerr, sizeof cerr, "%s: the source is for %s (.amdgcn_target), not "
                         "--mcpu=%s", path, proc, o->mcpu);
                res->error = strdup(cerr);
                return;
            }
            cpu = tid;
        }
        if (run_clang(cpu, path, &obj, &objlen, &emsg) < 0) {
            res->error = emsg;
            goto out;
        }
        int orc = gcn_co_open_mem(path, obj, objlen, &co, &err);
        free(obj);
        if (orc < 0) {
            res->error = xstrdup_printf("%s: %s", path, err.msg);
            goto out;
        }
    } else if (gcn_co_open_arch(path, o->offload_arch, &co, &err) < 0) {
        res->error = strdup(err.msg);
        goto out;
    }
    if (co->target != GCN_TARGET_GFX942 && co->target != GCN_TARGET_GFX950) {
        res->error = xstrdup_printf("%s: unsupported target %s (gcnlint knows gfx942 and gfx950)",
                                    path, gcn_target_name(co->target));
        goto out;
    }
    srccache sc = {0};
    ftab ft;
    bool found = false;
    if (ftab_build(co, &ft) < 0) {
        res->error = xstrdup_printf("%s: %s", path, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < co->nkernels; i++) {
        const gcn_kernel *k = &co->kernels[i];
        if (o->kernel && strcmp(o->kernel, k->name))
            continue;
        found = true;
        res->nkernels++;
        if (lint_kernel(o, co, &ft, k, path, &sc, &res->diags) < 0) {
            res->error = xstrdup_printf("%s: out of memory analysing %s", path, k->name);
            break;
        }
    }
    src_free(&sc);
    free(ft.r);
    if (o->kernel && !found && !res->error)
        res->error = xstrdup_printf("%s: no kernel named %s", path, o->kernel);
    else if (!co->nkernels && !res->error)
        res->error = xstrdup_printf("%s: has no kernel, so nothing was checked%s", path, "");
out:
    if (co)
        gcn_co_close(co);
}

/* ---- parallel driver ---------------------------------------------------- */

typedef struct pool {
    const options *o;
    fileres *res;
    unsigned n, next;
    pthread_mutex_t mu;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        unsigned i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            return NULL;
        lint_file(p->o, &p->res[i]);
    }
}

static void usage(FILE *f)
{
    fputs("usage: gcnlint [options] FILE...\n"
          "  FILE: a code object (.hsaco / .o), a clang offload bundle, or assembly (.s, .S,\n"
          "        assembled with clang-22 -g so findings point at source lines)\n"
          "options:\n"
          "  --mcpu=CPU          target for assembly input without an .amdgcn_target line:\n"
          "                      gfx942 (default) or gfx950 (also --mcpu CPU, -mcpu=CPU);\n"
          "                      one that contradicts the line is an input error\n"
          "  --offload-arch=A    bundle entry to use (default: the first gfx942/gfx950 one)\n"
          "  --kernel=NAME       check only this kernel\n"
          "  --format=FMT        text (default, gcc style), json or sarif (SARIF 2.1.0)\n"
          "  --suggest           notes with the loosest safe value of every s_waitcnt\n"
          "  --explain           explain each finding: path, queue contents, arithmetic\n"
          "  -Wno-CHECK          disable a check (-Wno-hazard: all hazard rules)\n"
          "  -Wlds-unproven      also warn where an LDS check could not be proven either way\n"
          "                      (an LDS address the value analysis does not know)\n"
          "  -Wllvm-conservative also the hazard rules only LLVM imposes, beyond the ISA\n"
          "                      guide and rocRoller (warnings; off by default; the same:\n"
          "                      --llvm-conservative; docs/hazards.md)\n"
          "  --werror            report warnings as errors\n"
          "  --max-states=N      distinct counter states per block before merging (256)\n"
          "  --all-paths         follow both edges of every branch (no path facts: a loop\n"
          "                      exit does not fix which tail variant runs)\n"
          "  -j N                check N files in parallel\n"
          "  --workgroup-size=X[,Y[,Z]]  the launch's work-group size: the cross-wave\n"
          "                      LDS checks assume that many waves (default: the\n"
          "                      metadata's max_flat_workgroup_size, 1024 when absent)\n"
          "  --no-group          one finding per site (default: a rule broken at 8 or more\n"
          "                      sites of a kernel is one finding naming the sites)\n"
          "  --summary           print a one-line summary (default with several files)\n"
          "  --list-checks       list the checks and exit\n"
          "  -h, --help          this text; --version\n"
          "exit status: 0 clean, 1 usage, 2 input error, 4 findings (errors or warnings)\n",
          f);
}

/* "X[,Y[,Z]]" -> wg[3]; each >= 1, at most 1024 work-items in all. */
static int parse_wgsize(const char *v, unsigned wg[3])
{
    unsigned n = 0;
    wg[0] = wg[1] = wg[2] = 1;
    while (n < 3) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(v, &end, 10);
        if (end == v || errno || x < 1 || x > 1024 || (*end && *end != ','))
            return -1;
        wg[n++] = (unsigned)x;
        if (!*end)
            break;
        if (n == 3)
            return -1;              /* a fourth value */
        v = end + 1;
    }
    return (unsigned long)wg[0] * wg[1] * wg[2] <= 1024 ? 0 : -1;
}

/* Standard output must have been written whole: exit 2 when it was not. */
static int finish_stdout(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gcnlint: cannot write standard output: %s\n", strerror(errno));
        return EXIT_INPUT;
    }
    return rc;
}

static int parse_uint(const char *s, unsigned *v)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (errno || !(*s >= '0' && *s <= '9') || *end || x > 1000000)
        return -1;
    *v = (unsigned)x;
    return 0;
}

/* The command line: the options, the files, and the "--OPTION=VALUE" strings made of
 * "--OPTION VALUE" pairs (the options point into them). */
typedef struct cmdline {
    options o;
    const char **files;
    unsigned nfiles;
    char **joined;
    unsigned njoined;
} cmdline;

/* A target named by --mcpu: 0, or -1 (said, with the option's spelling OPT). */
static int check_mcpu(const char *opt, const char *mcpu)
{
    gcn_target t = gcn_target_from_name(mcpu);
    if (t == GCN_TARGET_GFX942 || t == GCN_TARGET_GFX950)
        return 0;
    fprintf(stderr, "gcnlint: unsupported %s=%s (gfx942 or gfx950)\n", opt, mcpu);
    return -1;
}

/* --list-checks: the checks and the hazard rules. */
static int list_checks(void)
{
    for (int c = 0; c < GCN_CHK_COUNT; c++)
        printf("%-20s %s\n", gcn_check_name(c), gcn_check_desc(c));
    unsigned n;
    const gcn_hazard_rule *r = gcn_hazard_rules(&n);
    for (unsigned k = 0; k < n; k++)
        printf("hazard-%-13s %s\n", r[k].name, r[k].why ? r[k].why : "");
    return finish_stdout(EXIT_CLEAN);
}

/* "--OPTION VALUE" of an option that takes a value, as "--OPTION=VALUE" (as getopt_long and
 * LLVM's tools read it): *a replaced by the joined string (kept in cl->joined), *i past the
 * value.  0, or an exit code. */
static int join_value(cmdline *cl, int argc, char **argv, int *i, const char **a)
{
    static const char *const valopts[] = {"--mcpu", "--offload-arch", "--kernel", "--format",
                                          "--max-states", NULL};
    for (int v = 0; valopts[v]; v++) {
        if (strcmp(*a, valopts[v]))
            continue;
        if (*i + 1 >= argc) {
            fprintf(stderr, "gcnlint: %s needs a value\n", *a);
            return EXIT_USAGE;
        }
        /* the options keep pointers into it: it lives until exit */
        size_t n = strlen(*a) + strlen(argv[*i + 1]) + 2;
        char *j = malloc(n);
        if (!j)
            return EXIT_INPUT;
        snprintf(j, n, "%s=%s", *a, argv[++*i]);
        cl->joined[cl->njoined++] = j;
        *a = j;
        break;
    }
    return 0;
}

/* One option A (its value may be the next argument: *i moves past it) into cl->o: -1 when
 * read, else the exit code (--help, --version, --list-checks, or a usage error, said). */
static int take_option(cmdline *cl, int argc, char **argv, int *i, const char *a)
{
    options *o = &cl->o;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        usage(stdout);
        return finish_stdout(EXIT_CLEAN);
    } else if (!strcmp(a, "--version")) {
        gcn_version_print(stdout, "gcnlint");
        return finish_stdout(EXIT_CLEAN);
    } else if (!strcmp(a, "--list-checks")) {
        return list_checks();
    } else if (!strncmp(a, "--mcpu=", 7)) {
        o->mcpu = a + 7;
        if (check_mcpu("--mcpu", o->mcpu))
            return EXIT_USAGE;
    } else if (!strncmp(a, "--offload-arch=", 15)) {
        o->offload_arch = a + 15;
    } else if (!strncmp(a, "--kernel=", 9)) {
        o->kernel = a + 9;
    } else if (!strncmp(a, "--format=", 9)) {
        const char *f = a + 9;
        if (!strcmp(f, "text")) o->format = FMT_TEXT;
        else if (!strcmp(f, "json")) o->format = FMT_JSON;
        else if (!strcmp(f, "sarif")) o->format = FMT_SARIF;
        else {
            fprintf(stderr, "gcnlint: unknown format '%s' (text, json, sarif)\n", f);
            return EXIT_USAGE;
        }
    } else if (!strcmp(a, "--suggest")) {
        o->suggest = true;
    } else if (!strcmp(a, "--explain")) {
        o->explain = true;
    } else if (!strcmp(a, "--werror") || !strcmp(a, "-Werror")) {
        o->werror = true;
    } else if (!strcmp(a, "--summary")) {
        o->summary = true;
    } else if (!strcmp(a, "-Wlds-unproven")) {
        o->w_lds_unproven = true;
    } else if (!strcmp(a, "-Wllvm-conservative") || !strcmp(a, "--llvm-conservative")) {
        o->llvm_conservative = true;
    } else if (!strcmp(a, "-Wno-llvm-conservative")) {
        o->llvm_conservative = false;
    } else if (!strcmp(a, "--no-group")) {
        o->no_group = true;
    } else if (!strncmp(a, "--workgroup-size=", 17) || !strcmp(a, "--workgroup-size")) {
        const char *v = a[16] == '=' ? a + 17 : (*i + 1 < argc ? argv[++*i] : "");
        if (parse_wgsize(v, o->wg) < 0) {
            fprintf(stderr, "gcnlint: bad --workgroup-size '%s' (X[,Y[,Z]], 1 to 1024 "
                            "work-items in all)\n", v);
            return EXIT_USAGE;
        }
    } else if (!strncmp(a, "-Wno-", 5)) {
        const char *name = a + 5;
        size_t n = strlen(name);
        bool ok = gcn_check_from_name(name) >= 0 || !strncmp(name, "hazard", 6) ||
                  (n && name[n - 1] == '*');
        if (!ok) {
            fprintf(stderr, "gcnlint: unknown check '%s' (see --list-checks)\n", name);
            return EXIT_USAGE;
        }
        o->wno[o->nwno++] = (char *)name;
    } else if (!strcmp(a, "--all-paths")) {
        o->all_paths = true;
    } else if (!strncmp(a, "--max-states=", 13)) {
        if (parse_uint(a + 13, &o->max_states) < 0 || !o->max_states) {
            fprintf(stderr, "gcnlint: bad --max-states\n");
            return EXIT_USAGE;
        }
    } else if (!strcmp(a, "-j") || !strncmp(a, "-j", 2)) {
        const char *v = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : "");
        if (parse_uint(v, &o->jobs) < 0 || !o->jobs) {
            fprintf(stderr, "gcnlint: bad -j value\n");
            return EXIT_USAGE;
        }
    } else {
        fprintf(stderr, "gcnlint: unknown option '%s'\n", a);
        usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* The command line into cl: -1 to go on (at least one file), else the exit code. */
static int parse_args(cmdline *cl, int argc, char **argv)
{
    options *o = &cl->o;
    memset(cl, 0, sizeof *cl);
    o->format = FMT_TEXT;
    o->jobs = 1;
    cl->files = calloc((size_t)argc, sizeof *cl->files);
    cl->joined = calloc((size_t)argc, sizeof *cl->joined);
    o->wno = calloc((size_t)argc, sizeof *o->wno);
    if (!cl->files || !o->wno || !cl->joined)
        return EXIT_INPUT;
    if (gcn_cli_take_mcpu("gcnlint", &argc, argv, &o->mcpu))
        return EXIT_USAGE;
    if (o->mcpu && check_mcpu("-mcpu", o->mcpu))
        return EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int ex = join_value(cl, argc, argv, &i, &a);
        if (ex)
            return ex;
        if (!strcmp(a, "--")) {
            while (++i < argc)
                cl->files[cl->nfiles++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            if ((ex = take_option(cl, argc, argv, &i, a)) >= 0)
                return ex;
        } else {
            cl->files[cl->nfiles++] = a;
        }
    }
    if (!cl->nfiles) {
        usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* Lint the files on o->jobs threads (at most one per file); res[i] gets file i's. */
static void lint_files(const options *o, fileres *res, unsigned nfiles)
{
    pool p = {o, res, nfiles, 0, PTHREAD_MUTEX_INITIALIZER};
    unsigned nt = o->jobs < nfiles ? o->jobs : nfiles;
    if (nt <= 1) {
        worker(&p);
        return;
    }
    pthread_t *th = calloc(nt, sizeof *th);
    unsigned started = 0;
    for (unsigned t = 0; th && t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, &p) == 0)
            started++;
    if (!started)
        worker(&p);
    for (unsigned t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
}

/* What was reported: findings as printed (a group is one) and the sites they stand for, by
 * severity; input errors; kernels checked. */
typedef struct tally {
    unsigned nsev[3], nsite[3], ninput, nkern;
} tally;

/* The report on stdout in input order (text per file; JSON and SARIF of all files), the
 * input errors on stderr; *t counts them. */
static void report(const options *o, const fileres *res, const char **files, unsigned nfiles,
                   tally *t)
{
    gcn_diags all = {0};
    memset(t, 0, sizeof *t);
    for (unsigned i = 0; i < nfiles; i++) {
        const fileres *r = &res[i];
        t->nkern += r->nkernels;
        if (r->error) {
            t->ninput++;
            fprintf(stderr, "%s: error: %s\n", r->path, r->error);
        }
        for (unsigned k = 0; k < r->diags.n; k++) {
            int s = r->diags.d[k].severity;
            if (s >= GCN_SEV_NOTE && s <= GCN_SEV_ERROR) {
                t->nsev[s]++;
                t->nsite[s] += r->diags.d[k].nsites > 1 ? r->diags.d[k].nsites : 1;
            }
            if (o->format != FMT_TEXT)
                gcn_diags_add(&all, &r->diags.d[k]);
        }
        if (o->format == FMT_TEXT)
            gcn_report_text(stdout, &r->diags, o->explain);
    }
    if (o->format == FMT_JSON)
        gcn_report_json(stdout, &all, files, nfiles);
    else if (o->format == FMT_SARIF)
        gcn_report_sarif(stdout, &all, files, nfiles);
    gcn_diags_free(&all);
}

/* The summary line (stderr). */
static void print_summary(const tally *t, unsigned nfiles)
{
    static const char *const sname[3] = {"note", "warning", "error"};
    fprintf(stderr, "gcnlint: %u file%s, %u kernel%s:", nfiles, nfiles == 1 ? "" : "s", t->nkern,
            t->nkern == 1 ? "" : "s");
    for (int s = GCN_SEV_ERROR; s >= GCN_SEV_NOTE; s--) {
        fprintf(stderr, " %u %s%s", t->nsev[s], sname[s], t->nsev[s] == 1 ? "" : "s");
        if (t->nsite[s] != t->nsev[s])
            fprintf(stderr, " (%u sites)", t->nsite[s]);
        fputs(",", stderr);
    }
    fprintf(stderr, " %u input error%s\n", t->ninput, t->ninput == 1 ? "" : "s");
}

static void free_cmdline(cmdline *cl)
{
    free(cl->files);
    free(cl->o.wno);
    for (unsigned i = 0; i < cl->njoined; i++)
        free(cl->joined[i]);
    free(cl->joined);
    memset(cl, 0, sizeof *cl);
}

/* gcnlint: the command line, the files linted, the report, the summary; the exit code. */
static int gcnlint_main(cmdline *cl, int argc, char **argv)
{
    int ex = parse_args(cl, argc, argv);
    if (ex >= 0)
        return ex;
    unsigned nfiles = cl->nfiles;
    fileres *res = calloc(nfiles, sizeof *res);
    if (!res)
        return EXIT_INPUT;
    for (unsigned i = 0; i < nfiles; i++)
        res[i].path = cl->files[i];
    lint_files(&cl->o, res, nfiles);
    tally t;
    report(&cl->o, res, cl->files, nfiles, &t);
    /* a report that could not be written whole (a full disk, a closed pipe)
     * is an error, not "clean" */
    int out_ok = finish_stdout(0) == 0;
    if (cl->o.summary || nfiles > 1)
        print_summary(&t, nfiles);
    for (unsigned i = 0; i < nfiles; i++) {
        gcn_diags_free(&res[i].diags);
        free(res[i].error);
    }
    free(res);
    if (t.ninput || !out_ok)
        return EXIT_INPUT;
    return t.nsev[GCN_SEV_ERROR] || t.nsev[GCN_SEV_WARNING] ? EXIT_FINDINGS : EXIT_CLEAN;
}

int main(int argc, char **argv)
{
    /* static: what an early return leaves allocated stays reachable (no leak) */
    static cmdline cl;
    gcn_file_signals();
    int ex = gcnlint_main(&cl, argc, argv);
    free_cmdline(&cl);
    return ex;
}

/*
 * manifest.c -- loading and resolving run manifests (docs/manifest.md), the
 * initial bytes of their buffers, and run.json.  Shared by gcnsim and gcnrun.
 *
 * Expressions: integers, param names, + - * / % (C semantics on int64;
 * an overflow, INT64_MIN / -1 included, is an error), unary minus and
 * parentheses, nested at most 64 levels deep (docs/reliability.md).  Params are resolved in manifest order, each
 * may use the ones before it; --set NAME=VALUE replaces a param's value (the
 * VALUE is itself an expression).
 *
 * Random buffers: one xorshift64* generator per buffer (Vigna 2016: state ^=
 * state >> 12; state ^= state << 25; state ^= state >> 27; output = state *
 * 0x2545F4914F6CDD1D), seeded with "seed" (0 is replaced by
 * 0x9E3779B97F4A7C15), one output r per element:
 *   f32: ((r >> 40) * 2^-23) - 1      (uniform in [-1, 1), exact in f32)
 *   f16: ((r >> 53) * 2^-10) - 1      bf16: ((r >> 56) * 2^-7) - 1
 *   u32 / i32: r >> 32                u8: r >> 56
 * A trailing partial element gets the low bytes of one more element.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gcn_decode.h"
#include "manifest.h"
#include "gcn_file.h"
#include "fp.h"


/* ---- expressions -------------------------------------------------------------- */
/* Nesting (parentheses, unary signs) deeper than this is refused: the
 * evaluator recurses once per level, and no real size needs more. */
#define EX_MAX_DEPTH 64

typedef struct ex {
    const char *s, *p;
    const gcn_mf_param *params;
    unsigned nparams;
    char *err;
    size_t errlen;
    int bad;
    unsigned depth;
} ex;

static void ex_skip(ex *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}
static void ex_fail(ex *e, const char *what)
{
    if (!e->bad)
        gcn_seterr(e->err, e->errlen, "expression \"%.200s\": %s", e->s, what);
    e->bad = 1;
}
static int64_t ex_sum(ex *e);
static int64_t ex_atom(ex *e)
{
    ex_skip(e);
    if (e->bad)
        return 0;
    if (++e->depth > EX_MAX_DEPTH) {
        ex_fail(e, "nested more than 64 levels deep");
        return 0;
    }
    int64_t v = 0;
    if (*e->p == '(') {
        e->p++;
        v = ex_sum(e);
        ex_skip(e);
        if (*e->p != ')')
            ex_fail(e, "missing ')'");
        else
            e->p++;
    } else if (*e->p == '-') {
        e->p++;
        int64_t r = ex_atom(e);
        if (!e->bad && __builtin_sub_overflow((int64_t)0, r, &v))
            ex_fail(e, "integer overflow (the values are 64-bit signed)");
    } else if (*e->p == '+') {
        e->p++;
        v = ex_atom(e);
    } else if (isdigit((unsigned char)*e->p)) {
        char *end;
        errno = 0;
        long long n = strtoll(e->p, &end, 0);
        if (errno)
            ex_fail(e, "number out of range (the values are 64-bit signed)");
        else {
            e->p = end;
            v = n;
        }
    } else if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        const char *b = e->p;
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        size_t n = (size_t)(e->p - b);
        unsigned i;
        for (i = 0; i < e->nparams; i++)
            if (strlen(e->params[i].name) == n && !strncmp(e->params[i].name, b, n))
                break;
        if (i < e->nparams)
            v = e->params[i].value;
        else if (!e->bad) {
            gcn_seterr(e->err, e->errlen, "expression \"%.200s\": unknown name '%.*s'", e->s,
                   n > 100 ? 100 : (int)n, b);
            e->bad = 1;
        }
    } else if (!e->bad) {
        gcn_seterr(e->err, e->errlen, "expression \"%.200s\": unexpected '%.40s'", e->s,
               *e->p ? e->p : "end of expression");
        e->bad = 1;
    }
    e->depth--;
    return e->bad ? 0 : v;
}
/* C semantics on int64, except that an overflow (INT64_MIN / -1 and
 * INT64_MIN % -1 included) is an error rather than undefined. */
static int64_t ex_prod(ex *e)
{
    int64_t v = ex_atom(e);
    for (;;) {
        ex_skip(e);
        char op = *e->p;
        if (e->bad || (op != '*' && op != '/' && op != '%'))
            return e->bad ? 0 : v;
        e->p++;
        int64_t r = ex_atom(e);
        if (e->bad)
            return 0;
        if (op == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                ex_fail(e, "integer overflow (the values are 64-bit signed)");
        } else if (r == 0) {
            ex_fail(e, "division by zero");
        } else if (v == INT64_MIN && r == -1) {
            ex_fail(e, "integer overflow (the values are 64-bit signed)");
        } else if (op == '/') {
            v /= r;
        } else {
            v %= r;
        }
        if (e->bad)
            return 0;
    }
}
static int64_t ex_sum(ex *e)
{
    int64_t v = ex_prod(e);
    for (;;) {
        ex_skip(e);
        char op = *e->p;
        if (e->bad || (op != '+' && op != '-'))
            return e->bad ? 0 : v;
        e->p++;
        int64_t r = ex_prod(e);
        if (e->bad)
            return 0;
        if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v)) {
            ex_fail(e, "integer overflow (the values are 64-bit signed)");
            return 0;
        }
    }
}
static int eval_with(const gcn_mf_param *params, unsigned n, const char *s, int64_t *val,
                     char *err, size_t errlen)
{
    ex e = {s, s, params, n, err, errlen, 0, 0};
    int64_t v = ex_sum(&e);
    ex_skip(&e);
    if (!e.bad && *e.p) {
        gcn_seterr(err, errlen, "expression \"%.200s\": unexpected '%.40s'", s, e.p);
        e.bad = 1;
    }
    if (e.bad)
        return -1;
    *val = v;
    return 0;
}

int gcn_mf_eval(const gcn_manifest *m, const char *expr, int64_t *val, char *err, size_t errlen)
{
    return eval_with(m->params, m->nparams, expr, val, err, errlen);
}

/* A JSON value that is an integer or an expression string.  A JSON real is
 * taken when it is a whole number in int64 range (converting any other is
 * undefined in C). */
static int json_int(const gcn_manifest *m, json_t *v, int64_t *out, const char *what, char *err,
                    size_t errlen)
{
    char sub[400];
    if (json_is_integer(v)) {
        *out = json_integer_value(v);
        return 0;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d >= -0x1p63 && d < 0x1p63 && d == (double)(int64_t)d) {
            *out = (int64_t)d;
            return 0;
        }
        gcn_seterr(err, errlen, "%s: %s = %g is not a whole number in the 64-bit signed range",
               m->path, what, d);
        return -1;
    }
    if (json_is_string(v)) {
        if (eval_with(m->params, m->nparams, json_string_value(v), out, sub, sizeof sub)) {
            gcn_seterr(err, errlen, "%s: %s: %s", m->path, what, sub);
            return -1;
        }
        return 0;
    }
    gcn_seterr(err, errlen, "%s: %s must be an integer or an expression string", m->path, what);
    return -1;
}

/* ---- parsing ------------------------------------------------------------------- */
static char *join_path(const char *dir, const char *p)
{
    if (!p)
        return NULL;
    if (p[0] == '/' || !dir || !dir[0])
        return strdup(p);
    size_t n = strlen(dir) + strlen(p) + 2;
    char *r = malloc(n);
    if (r)
        snprintf(r, n, "%s/%s", dir, p);
    return r;
}

void gcn_mf_free(gcn_manifest *m)
{
    if (!m)
        return;
    free(m->path);
    free(m->dir);
    free(m->code);
    free(m->kernel);
    for (unsigned i = 0; i < m->ntargets; i++)
        free(m->targets[i]);
    free(m->targets);
    for (unsigned i = 0; i < m->nparams; i++)
        free(m->params[i].name);
    free(m->params);
    for (unsigned i = 0; i < m->nbufs; i++) {
        free(m->bufs[i].name);
        free(m->bufs[i].file);
    }
    free(m->bufs);
    for (unsigned i = 0; m->args && i < m->nargs; i++)
        free(m->args[i].bytes);
    free(m->args);
    free(m->outputs);
    free(m->reference);
    for (unsigned i = 0; i < m->nsizes; i++) {
        for (unsigned k = 0; k < m->sizes[i].nsets; k++)
            free(m->sizes[i].sets[k].name);
        free(m->sizes[i].sets);
    }
    free(m->sizes);
    free(m);
}

const char *gcn_mf_source(const gcn_manifest *m)
{
    return m && m->cli ? "the command line (--arg)" : "the manifest";
}

int gcn_mf_buffer_index(const gcn_manifest *m, const char *name)
{
    for (unsigned i = 0; i < m->nbufs; i++)
        if (!strcmp(m->bufs[i].name, name))
            return (int)i;
    return -1;
}

static int parse_dims(gcn_manifest *m, json_t *root, const char *key, uint32_t d[3], int required,
                      char *err, size_t errlen)
{
    json_t *v = json_object_get(root, key);
    d[0] = d[1] = d[2] = 1;
    if (!v) {
        if (required) {
            gcn_seterr(err, errlen, "%s: missing \"%s\"", m->path, key);
            return -1;
        }
        return 0;
    }
    json_t *arr = v;
    if (!json_is_array(v)) {
        arr = json_array();
        json_array_append(arr, v);
    }
    size_t n = json_array_size(arr);
    int rc = 0;
    if (n < 1 || n > 3) {
        gcn_seterr(err, errlen, "%s: \"%s\" must have 1 to 3 dimensions", m->path, key);
        rc = -1;
    }
    for (size_t i = 0; i < n && i < 3 && rc == 0; i++) {
        int64_t x;
        char what[32];
        snprintf(what, sizeof what, "%s[%zu]", key, i);
        if (json_int(m, json_array_get(arr, i), &x, what, err, errlen)) {
            rc = -1;
            break;
        }
        if (x < 1 || x > 0x7fffffff) {
            gcn_seterr(err, errlen, "%s: %s = %lld is out of range (1 .. 2147483647)", m->path, what,
                   (long long)x);
            rc = -1;
            break;
        }
        d[i] = (uint32_t)x;
    }
    if (arr != v)
        json_decref(arr);
    return rc;
}

static int parse_sets(const char *const *sets, unsigned n, gcn_mf_param **out, char *err,
                      size_t errlen, const char *name)
{
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i]) {
            gcn_seterr(err, errlen, "--set %s: expected NAME=VALUE", sets[i]);
            return -1;
        }
        (*out)[i].name = strndup(sets[i], (size_t)(eq - sets[i]));
        (void)name;
    }
    return 0;
}

/* ---- the manifest's sections -------------------------------------------------- */
/* Each reads one part of ROOT (a JSON object) into m: 0, or -1 with the message in err
 * ("NAME: ...").  gcn_mf_parse calls them in the order of docs/manifest.md. */

/* Unknown keys are refused: typos must not be silently ignored. */
static int check_keys(json_t *root, const char *name, char *err, size_t errlen)
{
    static const char *const known[] = {"code", "kernel", "targets", "params", "grid", "block",
                                        "buffers", "args", "outputs", "reference",
                                        "test_sizes", "dynamic_lds", "description", "source",
                                        NULL};
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            if (!strcmp(known[i], key))
                ok = 1;
        if (!ok) {
            gcn_seterr(err, errlen, "%s: unknown key \"%s\"", name, key);
            return -1;
        }
    }
    return 0;
}

/* "code", "kernel", "targets" */
static int parse_code(gcn_manifest *m, json_t *root, const char *name, char *err, size_t errlen)
{
    json_t *v = json_object_get(root, "code");
    if (!json_is_string(v)) {
        gcn_seterr(err, errlen, "%s: missing \"code\" (the .s, .hsaco or bundle to run)", name);
        return -1;
    }
    m->code = join_path(m->dir, json_string_value(v));
    v = json_object_get(root, "kernel");
    if (v && !json_is_string(v)) {
        gcn_seterr(err, errlen, "%s: \"kernel\" must be a string", name);
        return -1;
    }
    if (v)
        m->kernel = strdup(json_string_value(v));
    v = json_object_get(root, "targets");
    if (!v)
        return 0;
    if (!json_is_array(v)) {
        gcn_seterr(err, errlen, "%s: \"targets\" must be an array of strings", name);
        return -1;
    }
    m->ntargets = (unsigned)json_array_size(v);
    m->targets = calloc(m->ntargets + 1, sizeof *m->targets);
    for (unsigned i = 0; i < m->ntargets; i++) {
        json_t *t = json_array_get(v, i);
        if (!json_is_string(t)) {
            gcn_seterr(err, errlen, "%s: \"targets\" must be an array of strings", name);
            return -1;
        }
        m->targets[i] = strdup(json_string_value(t));
        if (gcn_target_from_name(m->targets[i]) != GCN_TARGET_GFX942 &&
            gcn_target_from_name(m->targets[i]) != GCN_TARGET_GFX950) {
            gcn_seterr(err, errlen, "%s: target \"%s\" is not gfx942 or gfx950", name, m->targets[i]);
            return -1;
        }
    }
    return 0;
}

/* "params", in manifest order (each may use the ones before it), with the --set overrides
 * SETS (NAME=VALUE; SETV their parsed names), each of which must name a param. */
static int parse_params(gcn_manifest *m, json_t *root, const char *const *sets,
                        const gcn_mf_param *setv, unsigned nsets, const char *name, char *err,
                        size_t errlen)
{
    json_t *v = json_object_get(root, "params");
    if (v && !json_is_object(v)) {
        gcn_seterr(err, errlen, "%s: \"params\" must be an object", name);
        return -1;
    }
    size_t np = v ? json_object_size(v) : 0;
    m->params = calloc(np + 1, sizeof *m->params);
    const char *key;
    json_t *val;
    if (v) {
        json_object_foreach(v, key, val) {
            gcn_mf_param *p = &m->params[m->nparams];
            p->name = strdup(key);
            const char *over = NULL;
            for (unsigned i = 0; i < nsets; i++)
                if (!strcmp(setv[i].name, key))
                    over = strchr(sets[i], '=') + 1;
            char what[300];
            snprintf(what, sizeof what, "param %s", key);
            /* earlier params are visible; p itself is not yet */
            int bad = 0;
            if (over) {
                char sub[400];
                if (eval_with(m->params, m->nparams, over, &p->value, sub, sizeof sub)) {
                    gcn_seterr(err, errlen, "--set %s=%s: %s", key, over, sub);
                    bad = 1;
                }
            } else if (json_int(m, val, &p->value, what, err, errlen)) {
                bad = 1;
            }
            m->nparams++;
            if (bad)
                return -1;
        }
    }
    for (unsigned i = 0; i < nsets; i++) {
        int found = 0;
        for (unsigned k = 0; k < m->nparams; k++)
            if (!strcmp(m->params[k].name, setv[i].name))
                found = 1;
        if (!found) {
            gcn_seterr(err, errlen, "--set %s: %s has no param \"%s\"", sets[i], name, setv[i].name);
            return -1;
        }
    }
    return 0;
}

/* "grid", "block" (within what a dispatch can have), "dynamic_lds" */
static int parse_dispatch(gcn_manifest *m, json_t *root, const char *name, char *err,
                          size_t errlen)
{
    if (parse_dims(m, root, "grid", m->grid, 1, err, errlen) ||
        parse_dims(m, root, "block", m->block, 1, err, errlen))
        return -1;
    if ((uint64_t)m->block[0] * m->block[1] * m->block[2] > 1024) {
        gcn_seterr(err, errlen, "%s: block %ux%ux%u is a workgroup of %llu work-items, larger than 1024 "
               "(the most a workgroup can have)", name, m->block[0], m->block[1], m->block[2],
               (unsigned long long)m->block[0] * m->block[1] * m->block[2]);
        return -1;
    }
    /* the dispatch packet's grid size is in work-items, 32 bits per dimension
     * (HSA runtime spec, hsa_kernel_dispatch_packet_t.grid_size_x/y/z) */
    for (int i = 0; i < 3; i++)
        if ((uint64_t)m->grid[i] * m->block[i] > 0xffffffffull) {
            gcn_seterr(err, errlen, "%s: grid[%d] * block[%d] = %llu work-items; a dispatch has at most "
                   "4294967295 per dimension", name, i, i,
                   (unsigned long long)m->grid[i] * m->block[i]);
            return -1;
        }
    json_t *v = json_object_get(root, "dynamic_lds");
    if (v) {
        int64_t d;
        if (json_int(m, v, &d, "dynamic_lds", err, errlen))
            return -1;
        if (d < 0 || d > 1 << 20) {
            gcn_seterr(err, errlen, "%s: dynamic_lds = %lld out of range", name, (long long)d);
            return -1;
        }
        m->dynamic_lds = (uint32_t)d;
    }
    return 0;
}

/* A buffer's {"file": PATH, "offset": N, "bytes": N, "prefix": B} init (IN): a slice of the
 * file, "offset" and "bytes" expressions, or "prefix": true. */
static int parse_file_init(gcn_manifest *m, gcn_mf_buffer *bf, const char *key, json_t *in,
                           const char *name, char *err, size_t errlen)
{
    json_t *fv = json_object_get(in, "file");
    if (!json_is_string(fv)) {
        gcn_seterr(err, errlen, "%s: buffer %s: file must be a path string", name, key);
        return -1;
    }
    bf->init = GCN_MF_INIT_FILE;
    bf->file = join_path(m->dir, json_string_value(fv));
    const char *fk;
    json_t *fx;
    json_object_foreach(in, fk, fx) {
        if (strcmp(fk, "file") && strcmp(fk, "offset") && strcmp(fk, "bytes") &&
            strcmp(fk, "prefix")) {
            gcn_seterr(err, errlen, "%s: buffer %s: unknown key \"%s\" in a file init "
                   "(file, offset, bytes, prefix)", name, key, fk);
            return -1;
        }
    }
    int64_t fo = 0, fb = 0;
    json_t *ov = json_object_get(in, "offset"), *byv = json_object_get(in, "bytes"),
           *pv = json_object_get(in, "prefix");
    if (ov && json_int(m, ov, &fo, "offset", err, errlen))
        return -1;
    if (byv && json_int(m, byv, &fb, "bytes", err, errlen))
        return -1;
    if (fo < 0 || fb < 0) {
        gcn_seterr(err, errlen, "%s: buffer %s: file %s %lld is negative", name, key,
               fo < 0 ? "offset" : "bytes", (long long)(fo < 0 ? fo : fb));
        return -1;
    }
    if (pv && !json_is_boolean(pv)) {
        gcn_seterr(err, errlen, "%s: buffer %s: prefix must be true or false", name, key);
        return -1;
    }
    if (byv && (uint64_t)fb > bf->size) {
        gcn_seterr(err, errlen, "%s: buffer %s: bytes %lld is more than the buffer's %llu "
               "bytes", name, key, (long long)fb, (unsigned long long)bf->size);
        return -1;
    }
    bf->file_offset = (uint64_t)fo;
    bf->file_bytes = (uint64_t)fb;
    bf->file_has_bytes = byv != NULL;
    bf->file_prefix = pv && json_is_true(pv);
    return 0;
}

/* A buffer's "init" (IN, NULL when absent): "zero", {"fill": B}, {"file": ...} or
 * {"random": TYPE, "seed": N}. */
static int parse_init(gcn_manifest *m, gcn_mf_buffer *bf, const char *key, json_t *in,
                      const char *name, char *err, size_t errlen)
{
    if (!in || (json_is_string(in) && !strcmp(json_string_value(in), "zero"))) {
        bf->init = GCN_MF_INIT_ZERO;
    } else if (json_is_object(in) && json_object_get(in, "fill")) {
        int64_t f;
        if (json_int(m, json_object_get(in, "fill"), &f, "fill", err, errlen))
            return -1;
        if (f < 0 || f > 255) {
            gcn_seterr(err, errlen, "%s: buffer %s: fill must be a byte (0..255)", name, key);
            return -1;
        }
        bf->init = GCN_MF_INIT_FILL;
        bf->fill = (unsigned)f;
    } else if (json_is_object(in) && json_object_get(in, "file")) {
        return parse_file_init(m, bf, key, in, name, err, errlen);
    } else if (json_is_object(in) && json_object_get(in, "random")) {
        json_t *rv = json_object_get(in, "random");
        static const char *const rt[] = {"f32", "f16", "bf16", "u32", "i32", "u8"};
        int k = -1;
        for (int i = 0; i < 6 && json_is_string(rv); i++)
            if (!strcmp(rt[i], json_string_value(rv)))
                k = i;
        if (k < 0) {
            gcn_seterr(err, errlen, "%s: buffer %s: random must be one of f32 f16 bf16 u32 i32 u8",
                   name, key);
            return -1;
        }
        bf->init = GCN_MF_INIT_RANDOM;
        bf->rtype = (gcn_mf_rtype)k;
        int64_t seed = 0;
        json_t *sd = json_object_get(in, "seed");
        if (sd && json_int(m, sd, &seed, "seed", err, errlen))
            return -1;
        bf->seed = (uint64_t)seed;
    } else {
        gcn_seterr(err, errlen, "%s: buffer %s: init must be \"zero\", {\"fill\": B}, {\"file\": "
               "PATH} or {\"random\": TYPE, \"seed\": N}", name, key);
        return -1;
    }
    return 0;
}

/* "buffers": {NAME: {"size": EXPR, "init": ...}, ...} */
static int parse_buffers(gcn_manifest *m, json_t *root, const char *name, char *err,
                         size_t errlen)
{
    json_t *v = json_object_get(root, "buffers");
    if (v && !json_is_object(v)) {
        gcn_seterr(err, errlen, "%s: \"buffers\" must be an object", name);
        return -1;
    }
    if (!v)
        return 0;
    m->bufs = calloc(json_object_size(v) + 1, sizeof *m->bufs);
    const char *key;
    json_t *b;
    json_object_foreach(v, key, b) {
        gcn_mf_buffer *bf = &m->bufs[m->nbufs++];
        bf->name = strdup(key);
        char why[128];
        /* a buffer's name names its dump files (NAME.in.bin, NAME.bin) */
        if (gcn_file_name_check(key, why, sizeof why)) {
            gcn_seterr(err, errlen, "%s: buffer name \"%.200s\" cannot name a dump file: %s", name,
                   key, why);
            return -1;
        }
        if (!json_is_object(b)) {
            gcn_seterr(err, errlen, "%s: buffer %s must be an object {\"size\": ..., \"init\": ...}",
                   name, key);
            return -1;
        }
        char what[300];
        snprintf(what, sizeof what, "buffer %s size", key);
        int64_t sz;
        json_t *sv = json_object_get(b, "size");
        if (!sv) {
            gcn_seterr(err, errlen, "%s: buffer %s has no \"size\"", name, key);
            return -1;
        }
        if (json_int(m, sv, &sz, what, err, errlen))
            return -1;
        if (sz < 0 || sz > (int64_t)1 << 34) {
            gcn_seterr(err, errlen, "%s: buffer %s size %lld is out of range (0 .. 16 GiB)", name,
                   key, (long long)sz);
            return -1;
        }
        bf->size = (uint64_t)sz;
        const char *bk;
        json_t *bv;
        json_object_foreach(b, bk, bv) {
            if (strcmp(bk, "size") && strcmp(bk, "init")) {
                gcn_seterr(err, errlen, "%s: buffer %s: unknown key \"%s\"", name, key, bk);
                return -1;
            }
        }
        if (parse_init(m, bf, key, json_object_get(b, "init"), name, err, errlen))
            return -1;
    }
    return 0;
}

/* args[I], {KIND: VAL}: a buffer name, a float, a by-value struct's bytes, an integer. */
static int parse_arg(gcn_manifest *m, gcn_mf_arg *ar, unsigned i, const char *kind, json_t *val,
                     const char *name, char *err, size_t errlen)
{
    char what[64];
    snprintf(what, sizeof what, "args[%u]", i);
    if (!strcmp(kind, "buffer")) {
        if (!json_is_string(val) || gcn_mf_buffer_index(m, json_string_value(val)) < 0) {
            gcn_seterr(err, errlen, "%s: args[%u]: no buffer named %s", name, i,
                   json_is_string(val) ? json_string_value(val) : "(not a string)");
            return -1;
        }
        ar->kind = GCN_MF_ARG_BUFFER;
        ar->buf = (unsigned)gcn_mf_buffer_index(m, json_string_value(val));
    } else if (!strcmp(kind, "f32") || !strcmp(kind, "f64")) {
        ar->kind = kind[1] == '3' ? GCN_MF_ARG_F32 : GCN_MF_ARG_F64;
        if (json_is_number(val))
            ar->fval = json_number_value(val);
        else {
            int64_t iv;
            if (json_int(m, val, &iv, what, err, errlen))
                return -1;
            ar->fval = (double)iv;
        }
        if (ar->kind == GCN_MF_ARG_F32 && (ar->fval > FLT_MAX || ar->fval < -FLT_MAX)) {
            gcn_seterr(err, errlen, "%s: args[%u] = %g does not fit f32", name, i, ar->fval);
            return -1;
        }
    } else if (!strcmp(kind, "bytes")) {
        /* a by-value struct: its bytes in memory order, as many as the argument's size */
        size_t nb = json_is_array(val) ? json_array_size(val) : 0;
        if (!nb || nb > 4096) {
            gcn_seterr(err, errlen, "%s: args[%u]: bytes must be a list of 1 to 4096 byte values",
                   name, i);
            return -1;
        }
        ar->kind = GCN_MF_ARG_BYTES;
        ar->bytes = calloc(nb, 1);
        if (!ar->bytes) {
            gcn_seterr(err, errlen, "out of memory");
            return -1;
        }
        ar->nbytes = (unsigned)nb;
        for (size_t q = 0; q < nb; q++) {
            int64_t b;
            snprintf(what, sizeof what, "args[%u].bytes[%zu]", i, q);
            if (json_int(m, json_array_get(val, q), &b, what, err, errlen))
                return -1;
            if (b < 0 || b > 255) {
                gcn_seterr(err, errlen, "%s: args[%u].bytes[%zu] = %lld is not a byte (0 to 255)",
                       name, i, q, (long long)b);
                return -1;
            }
            ar->bytes[q] = (uint8_t)b;
        }
    } else {
        static const char *const ik[] = {"u32", "i32", "u64", "i64"};
        static const gcn_mf_argkind kk[] = {GCN_MF_ARG_U32, GCN_MF_ARG_I32, GCN_MF_ARG_U64,
                                            GCN_MF_ARG_I64};
        int k = -1;
        for (int q = 0; q < 4; q++)
            if (!strcmp(kind, ik[q]))
                k = q;
        if (k < 0) {
            gcn_seterr(err, errlen, "%s: args[%u]: unknown kind \"%s\"", name, i, kind);
            return -1;
        }
        ar->kind = kk[k];
        if (json_int(m, val, &ar->ival, what, err, errlen))
            return -1;
        if ((ar->kind == GCN_MF_ARG_U32 && (ar->ival < 0 || ar->ival > 0xffffffffll)) ||
            (ar->kind == GCN_MF_ARG_I32 && (ar->ival < INT32_MIN || ar->ival > INT32_MAX))) {
            gcn_seterr(err, errlen, "%s: args[%u] = %lld does not fit %s", name, i,
                   (long long)ar->ival, kind);
            return -1;
        }
    }
    return 0;
}

/* "args": [{KIND: VALUE}, ...], in kernel-argument order */
static int parse_args(gcn_manifest *m, json_t *root, const char *name, char *err, size_t errlen)
{
    json_t *v = json_object_get(root, "args");
    if (v && !json_is_array(v)) {
        gcn_seterr(err, errlen, "%s: \"args\" must be an array", name);
        return -1;
    }
    if (!v)
        return 0;
    m->nargs = (unsigned)json_array_size(v);
    m->args = calloc(m->nargs + 1, sizeof *m->args);
    for (unsigned i = 0; i < m->nargs; i++) {
        json_t *a = json_array_get(v, i);
        if (!json_is_object(a) || json_object_size(a) != 1) {
            gcn_seterr(err, errlen, "%s: args[%u] must be an object with one key (buffer, u32, i32, "
                   "u64, i64, f32, f64, bytes)", name, i);
            return -1;
        }
        if (parse_arg(m, &m->args[i], i, json_object_iter_key(json_object_iter(a)),
                      json_object_iter_value(json_object_iter(a)), name, err, errlen))
            return -1;
    }
    return 0;
}

/* "outputs" (buffer names) and "reference" */
static int parse_outputs(gcn_manifest *m, json_t *root, const char *name, char *err,
                         size_t errlen)
{
    json_t *v = json_object_get(root, "outputs");
    if (v) {
        if (!json_is_array(v)) {
            gcn_seterr(err, errlen, "%s: \"outputs\" must be an array of buffer names", name);
            return -1;
        }
        m->noutputs = (unsigned)json_array_size(v);
        m->outputs = calloc(m->noutputs + 1, sizeof *m->outputs);
        for (unsigned i = 0; i < m->noutputs; i++) {
            json_t *o = json_array_get(v, i);
            int k = json_is_string(o) ? gcn_mf_buffer_index(m, json_string_value(o)) : -1;
            if (k < 0) {
                gcn_seterr(err, errlen, "%s: outputs[%u]: no buffer named %s", name, i,
                       json_is_string(o) ? json_string_value(o) : "(not a string)");
                return -1;
            }
            m->outputs[i] = (unsigned)k;
        }
    }
    v = json_object_get(root, "reference");
    if (v) {
        if (!json_is_string(v)) {
            gcn_seterr(err, errlen, "%s: \"reference\" must be a string", name);
            return -1;
        }
        m->reference = strdup(json_string_value(v));
    }
    return 0;
}

/* "test_sizes": [{"N": 1000}, {"N": 17, "WG": 1}], integers for params the manifest has */
static int parse_test_sizes(gcn_manifest *m, json_t *root, const char *name, char *err,
                            size_t errlen)
{
    json_t *v = json_object_get(root, "test_sizes");
    if (!v)
        return 0;
    if (!json_is_array(v)) {
        gcn_seterr(err, errlen, "%s: \"test_sizes\" must be an array of objects", name);
        return -1;
    }
    m->nsizes = (unsigned)json_array_size(v);
    m->sizes = calloc(m->nsizes + 1, sizeof *m->sizes);
    for (unsigned i = 0; i < m->nsizes; i++) {
        json_t *o = json_array_get(v, i);
        if (!json_is_object(o)) {
            gcn_seterr(err, errlen, "%s: test_sizes[%u] must be an object of param values", name, i);
            return -1;
        }
        m->sizes[i].sets = calloc(json_object_size(o) + 1, sizeof(gcn_mf_param));
        const char *key;
        json_t *val;
        json_object_foreach(o, key, val) {
            gcn_mf_param *p = &m->sizes[i].sets[m->sizes[i].nsets++];
            p->name = strdup(key);
            if (!json_is_integer(val)) {
                gcn_seterr(err, errlen, "%s: test_sizes[%u].%s must be an integer", name, i, key);
                return -1;
            }
            p->value = json_integer_value(val);
            int found = 0;
            for (unsigned k = 0; k < m->nparams; k++)
                if (!strcmp(m->params[k].name, key))
                    found = 1;
            if (!found) {
                gcn_seterr(err, errlen, "%s: test_sizes[%u]: no param \"%s\"", name, i, key);
                return -1;
            }
        }
    }
    return 0;
}

int gcn_mf_parse(const char *name, const char *dir, const char *text, const char *const *sets,
                 unsigned nsets, gcn_manifest **out, char *err, size_t errlen)
{
    *out = NULL;
    json_error_t je;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        gcn_seterr(err, errlen, "%s:%d:%d: invalid JSON: %s", name, je.line, je.column, je.text);
        return -1;
    }
    gcn_manifest *m = calloc(1, sizeof *m);
    gcn_mf_param *setv = NULL;
    int rc = -1;
    if (!m)
        goto out;
    m->path = strdup(name);
    m->dir = strdup(dir ? dir : ".");
    if (!json_is_object(root)) {
        gcn_seterr(err, errlen, "%s: a manifest must be a JSON object", name);
        goto out;
    }
    if (check_keys(root, name, err, errlen) || parse_code(m, root, name, err, errlen) ||
        parse_sets(sets, nsets, &setv, err, errlen, name) ||
        parse_params(m, root, sets, setv, nsets, name, err, errlen) ||
        parse_dispatch(m, root, name, err, errlen) || parse_buffers(m, root, name, err, errlen) ||
        parse_args(m, root, name, err, errlen) || parse_outputs(m, root, name, err, errlen) ||
        parse_test_sizes(m, root, name, err, errlen))
        goto out;
    rc = 0;
out:
    if (setv) {
        for (unsigned i = 0; i < nsets; i++)
            free(setv[i].name);
        free(setv);
    }
    json_decref(root);
    if (rc) {
        gcn_mf_free(m);
        return -1;
    }
    *out = m;
    return 0;
}

int gcn_mf_load(const char *path, const char *const *sets, unsigned nsets, gcn_manifest **out,
                char *err, size_t errlen)
{
    *out = NULL;
    char *buf;
    size_t n;
    if (gcn_file_read(path, GCN_FILE_MAX_MANIFEST, "a manifest", &buf, &n, err, errlen))
        return -1;
    if (strlen(buf) != n) {
        gcn_seterr(err, errlen, "%s: holds a NUL byte; a manifest is JSON text", path);
        free(buf);
        return -1;
    }
    char *dir = strdup(path);
    if (!dir) {
        free(buf);
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        strcpy(dir, ".");
    int rc = gcn_mf_parse(path, dir, buf, sets, nsets, out, err, errlen);
    free(dir);
    free(buf);
    return rc;
}

/* ---- buffers --------------------------------------------------------------------- */
uint64_t gcn_mf_rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

int gcn_mf_fill(const gcn_manifest *m, unsigned i, uint8_t *dst, char *err, size_t errlen)
{
    const gcn_mf_buffer *b = &m->bufs[i];
    switch (b->init) {
    case GCN_MF_INIT_ZERO:
        memset(dst, 0, b->size);
        return 0;
    case GCN_MF_INIT_FILL:
        memset(dst, (int)b->fill, b->size);
        return 0;
    case GCN_MF_INIT_FILE: {
        /* the file's bytes, zeros after them; a directory or a read error is
         * an error, not a zero buffer */
        FILE *f = fopen(b->file, "rb");
        struct stat st;
        if (!f || fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s: %s", m->path, b->name, b->file,
                   f && S_ISDIR(st.st_mode) ? "is a directory, not a file of initial bytes"
                                            : strerror(errno));
            if (f)
                fclose(f);
            return -1;
        }
        /* the bytes [offset, offset + n) of the file, n = "bytes", else the rest of
         * the file (or, with "prefix", as much of it as the buffer holds) */
        uint64_t fsize = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        if (b->file_offset && (!S_ISREG(st.st_mode) || b->file_offset > fsize)) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s: offset %llu is beyond the file's %llu bytes",
                   m->path, b->name, b->file, (unsigned long long)b->file_offset,
                   (unsigned long long)fsize);
            fclose(f);
            return -1;
        }
        if (b->file_offset && fseeko(f, (off_t)b->file_offset, SEEK_SET) != 0) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s: cannot seek to offset %llu", m->path, b->name,
                   b->file, (unsigned long long)b->file_offset);
            fclose(f);
            return -1;
        }
        uint64_t want = b->file_has_bytes ? b->file_bytes : b->size;
        memset(dst, 0, b->size);
        size_t r = fread(dst, 1, want, f);
        int extra = !b->file_has_bytes && !b->file_prefix && r == b->size && fgetc(f) != EOF;
        int bad = ferror(f);
        fclose(f);
        if (bad) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s: read error", m->path, b->name, b->file);
            return -1;
        }
        if (b->file_has_bytes && r < want) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s: the slice of %llu bytes at offset %llu ends "
                   "beyond the file's %llu bytes", m->path, b->name, b->file,
                   (unsigned long long)want, (unsigned long long)b->file_offset,
                   (unsigned long long)(b->file_offset + r));
            return -1;
        }
        if (extra) {
            gcn_seterr(err, errlen, "%s: buffer %s: %s is larger than the buffer's %llu bytes (\"prefix\": "
                   "true takes its first bytes; \"offset\"/\"bytes\" a slice)", m->path, b->name,
                   b->file, (unsigned long long)b->size);
            return -1;
        }
        return 0;
    }
    case GCN_MF_INIT_RANDOM: {
        uint64_t st = b->seed ? b->seed : 0x9E3779B97F4A7C15ull;
        static const unsigned esz[] = {4, 2, 2, 4, 4, 1};
        unsigned es = esz[b->rtype];
        uint64_t whole = b->size / es * es;
        /* the common types in loops of their own (the same values: every one is exact in
         * its type, so the f32 / bf16 conversions below round nothing) */
        if (b->rtype == GCN_MF_R_BF16) {
            for (uint64_t off = 0; off < whole; off += 2) {
                uint64_t r = gcn_mf_rng_next(&st);
                uint16_t v = (uint16_t)(fp_f2u((float)((int)(r >> 56) - 128) * 0x1p-7f) >> 16);
                memcpy(dst + off, &v, 2);
            }
        } else if (b->rtype == GCN_MF_R_F32) {
            for (uint64_t off = 0; off < whole; off += 4) {
                uint64_t r = gcn_mf_rng_next(&st);
                uint32_t v = fp_f2u((float)((int32_t)(r >> 40) - (1 << 23)) * 0x1p-23f);
                memcpy(dst + off, &v, 4);
            }
        } else {
            whole = 0;
        }
        for (uint64_t off = whole; off < b->size; off += es) {
            uint64_t r = gcn_mf_rng_next(&st);
            uint32_t v;
            switch (b->rtype) {
            case GCN_MF_R_F32: v = fp_f2u((float)((double)(r >> 40) * 0x1p-23 - 1.0)); break;
            case GCN_MF_R_F16: v = fp_f2h((float)((double)(r >> 53) * 0x1p-10 - 1.0), RM_NE); break;
            case GCN_MF_R_BF16: v = fp_f2bf((float)((double)(r >> 56) * 0x1p-7 - 1.0), RM_NE); break;
            case GCN_MF_R_U8: v = (uint32_t)(r >> 56); break;
            default: v = (uint32_t)(r >> 32); break;
            }
            uint64_t n = b->size - off < es ? b->size - off : es;
            memcpy(dst + off, &v, n);
        }
        return 0;
    }
    }
    gcn_seterr(err, errlen, "%s: buffer %s: bad init", m->path, b->name);
    return -1;
}

int gcn_mf_target(const gcn_manifest *m, const char *mcpu, const char **target, char *err,
                  size_t errlen)
{
    if (mcpu) {
        gcn_target t = gcn_target_from_name(mcpu);
        if (t != GCN_TARGET_GFX942 && t != GCN_TARGET_GFX950) {
            gcn_seterr(err, errlen, "--mcpu %s: only gfx942 and gfx950 are simulated", mcpu);
            return -1;
        }
        if (m && m->ntargets) {
            int ok = 0;
            for (unsigned i = 0; i < m->ntargets; i++)
                if (!strcmp(m->targets[i], mcpu))
                    ok = 1;
            if (!ok) {
                gcn_seterr(err, errlen, "%s: target %s is not among the manifest's targets", m->path, mcpu);
                return -1;
            }
        }
        *target = gcn_target_name(t);
        return 0;
    }
    *target = m && m->ntargets ? m->targets[0] : NULL;
    return 0;
}

/* ", a, b, c" -- the kernels' names (the first 16, then how many more) */
static void kernel_names(const gcn_codeobj *co, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < co->nkernels && l < n; i++) {
        if (i == 16) {
            snprintf(buf + l, n - l, ", ... (%u more; gcnsim --list-kernels lists them)",
                     co->nkernels - 16);
            return;
        }
        int w = snprintf(buf + l, n - l, "%s%s", i ? ", " : "", co->kernels[i].name);
        l += w > 0 ? (size_t)w : 0;
    }
}

int gcn_mf_kernel(const gcn_manifest *m, const gcn_codeobj *co, const gcn_kernel **k, char *err,
                  size_t errlen)
{
    char names[1024];
    kernel_names(co, names, sizeof names);
    const char *how = m->cli ? "--kernel NAME" : "\"kernel\" in the manifest";
    if (m->kernel) {
        *k = gcn_co_kernel(co, m->kernel);
        if (!*k) {
            gcn_seterr(err, errlen, "%s: no kernel named %s; it has %u kernel%s%s%s", co->path,
                   m->kernel, co->nkernels, co->nkernels == 1 ? "" : "s", co->nkernels ? ": " : "",
                   names);
            return -1;
        }
        return gcn_mf_check_block(m, *k, err, errlen);
    }
    if (co->nkernels != 1) {
        if (co->nkernels)
            gcn_seterr(err, errlen, "%s has %u kernels: %s; pick one with %s", co->path, co->nkernels,
                   names, how);
        else
            gcn_seterr(err, errlen, "%s has no kernels (no kernel descriptor symbol NAME.kd)", co->path);
        return -1;
    }
    *k = &co->kernels[0];
    return gcn_mf_check_block(m, *k, err, errlen);
}

int gcn_mf_check_block(const gcn_manifest *m, const gcn_kernel *k, char *err, size_t errlen)
{
    /* The HIP runtime refuses a launch whose workgroup is larger than the
     * kernel's launch bounds, i.e. the metadata's .max_flat_workgroup_size
     * (ROCm clr, hipamd/src/hip_module.cpp: "Launch params ... are larger
     * than launch bounds"); so does gcnsim, rather than run a dispatch no GPU
     * runs. */
    uint64_t n = (uint64_t)m->block[0] * m->block[1] * m->block[2];
    if (k->has_metadata && k->md_max_flat_workgroup_size && n > k->md_max_flat_workgroup_size) {
        gcn_seterr(err, errlen, "%s: a workgroup of %llu work-items (block %ux%ux%u) is larger than "
               "kernel %s's maximum flat workgroup size, %u (.max_flat_workgroup_size, the launch "
               "bounds); HIP refuses such a launch", m->path, (unsigned long long)n, m->block[0],
               m->block[1], m->block[2], k->name, k->md_max_flat_workgroup_size);
        return -1;
    }
    return 0;
}

/* ---- run.json ------------------------------------------------------------------------ */
int gcn_mf_run_json(const gcn_manifest *m, const char *target, char **out, char *err, size_t errlen)
{
    json_t *r = json_object();
    json_object_set_new(r, "manifest", json_string(m->path));
    if (m->kernel)
        json_object_set_new(r, "kernel", json_string(m->kernel));
    json_object_set_new(r, "target", json_string(target ? target : ""));
    json_object_set_new(r, "code", json_string(m->code ? m->code : ""));
    json_t *p = json_object();
    for (unsigned i = 0; i < m->nparams; i++)
        json_object_set_new(p, m->params[i].name, json_integer(m->params[i].value));
    json_object_set_new(r, "params", p);
    json_object_set_new(r, "grid", json_pack("[iii]", m->grid[0], m->grid[1], m->grid[2]));
    json_object_set_new(r, "block", json_pack("[iii]", m->block[0], m->block[1], m->block[2]));
    json_t *bufs = json_object();
    for (unsigned i = 0; i < m->nbufs; i++) {
        char in[512], outn[512];
        snprintf(in, sizeof in, "%s.in.bin", m->bufs[i].name);
        snprintf(outn, sizeof outn, "%s.bin", m->bufs[i].name);
        json_object_set_new(bufs, m->bufs[i].name,
                            json_pack("{s:I,s:s,s:s}", "size", (json_int_t)m->bufs[i].size,
                                      "in", in, "out", outn));
    }
    json_object_set_new(r, "buffers", bufs);
    json_t *args = json_array();
    static const char *const kn[] = {"buffer", "u32", "i32", "u64", "i64", "f32", "f64"};
    for (unsigned i = 0; i < m->nargs; i++) {
        const gcn_mf_arg *a = &m->args[i];
        json_t *o;
        if (a->kind == GCN_MF_ARG_BUFFER)
            o = json_pack("{s:s,s:s}", "kind", "buffer", "buffer", m->bufs[a->buf].name);
        else if (a->kind == GCN_MF_ARG_BYTES) {
            json_t *b = json_array();
            for (unsigned q = 0; q < a->nbytes; q++)
                json_array_append_new(b, json_integer(a->bytes[q]));
            o = json_pack("{s:s,s:o}", "kind", "bytes", "value", b);
        }
        else if (a->kind == GCN_MF_ARG_F32 || a->kind == GCN_MF_ARG_F64)
            o = json_pack("{s:s,s:f}", "kind", kn[a->kind], "value", a->fval);
        else
            o = json_pack("{s:s,s:I}", "kind", kn[a->kind], "value", (json_int_t)a->ival);
        json_array_append_new(args, o);
    }
    json_object_set_new(r, "args", args);
    json_t *outs = json_array();
    for (unsigned i = 0; i < m->noutputs; i++)
        json_array_append_new(outs, json_string(m->bufs[m->outputs[i]].name));
    json_object_set_new(r, "outputs", outs);
    *out = json_dumps(r, JSON_INDENT(2));
    json_decref(r);
    if (!*out) {
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

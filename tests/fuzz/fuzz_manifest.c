/*
 * fuzz_manifest.c -- libFuzzer target for run manifests (docs/manifest.md):
 * the JSON parser with its checks, the --set overrides and the expression
 * language, run.json, and the initial bytes of every buffer.
 *
 * Input: TEXT [\0 SET]...  TEXT starting with '{' (after blanks) is a
 * manifest, parsed with the SETs as --set NAME=VALUE overrides; any other
 * TEXT is an expression, evaluated over params N=64, M=-3, BIG=INT64_MAX
 * and compared with an independent evaluator in 128-bit arithmetic (the
 * oracle: both accept with the same value, or both refuse).  An accepted
 * manifest must keep the documented invariants (grid and block ranges,
 * buffer names that can name dump files, argument kinds and ranges, output
 * indices); its run.json must be JSON that names every buffer; every buffer
 * of at most 64 KiB that is not read from a file is filled.
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <ctype.h>
#include <float.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/manifest.h"
#include "gcn_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

/* ---- the oracle: the grammar of docs/manifest.md in __int128 ------------------ */
typedef struct ref {
    const char *p;
    int bad;
    unsigned depth;
} ref;
static const struct { const char *name; int64_t v; } ref_params[] = {
    {"N", 64}, {"M", -3}, {"BIG", INT64_MAX}};

static void ref_blank(ref *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}
static __int128 ref_fit(ref *r, __int128 v)
{
    if (v > INT64_MAX || v < INT64_MIN)
        r->bad = 1;
    return v;
}
static __int128 ref_sum(ref *r);
static __int128 ref_atom(ref *r)
{
    ref_blank(r);
    if (r->bad || ++r->depth > 64) {
        r->bad = 1;
        return 0;
    }
    __int128 v = 0;
    char c = *r->p;
    if (c == '(') {
        r->p++;
        v = ref_sum(r);
        ref_blank(r);
        if (*r->p == ')')
            r->p++;
        else
            r->bad = 1;
    } else if (c == '-') {
        r->p++;
        v = ref_fit(r, -ref_atom(r));
    } else if (c == '+') {
        r->p++;
        v = ref_atom(r);
    } else if (isdigit((unsigned char)c)) {
        /* strtoll(..., 0): decimal, 0x hex, 0 octal */
        int base = 10;
        if (c == '0' && (r->p[1] == 'x' || r->p[1] == 'X') && isxdigit((unsigned char)r->p[2])) {
            base = 16;
            r->p += 2;
        } else if (c == '0') {
            base = 8;
        }
        for (;;) {
            int d = isdigit((unsigned char)*r->p) ? *r->p - '0'
                    : isxdigit((unsigned char)*r->p) ? (tolower((unsigned char)*r->p) - 'a' + 10)
                                                     : 99;
            if (d >= base)
                break;
            v = v * base + d;
            if (v > INT64_MAX)
                r->bad = 1, v = 0;
            r->p++;
        }
    } else if (isalpha((unsigned char)c) || c == '_') {
        const char *b = r->p;
        while (isalnum((unsigned char)*r->p) || *r->p == '_')
            r->p++;
        size_t n = (size_t)(r->p - b);
        unsigned i;
        for (i = 0; i < 3; i++)
            if (strlen(ref_params[i].name) == n && !strncmp(ref_params[i].name, b, n))
                break;
        if (i < 3)
            v = ref_params[i].v;
        else
            r->bad = 1;
    } else {
        r->bad = 1;
    }
    r->depth--;
    return r->bad ? 0 : v;
}
static __int128 ref_prod(ref *r)
{
    __int128 v = ref_atom(r);
    for (;;) {
        ref_blank(r);
        char op = *r->p;
        if (r->bad || (op != '*' && op != '/' && op != '%'))
            return v;
        r->p++;
        __int128 w = ref_atom(r);
        if (r->bad)
            return 0;
        if (op == '*')
            v = ref_fit(r, v * w);
        else if (w == 0)
            r->bad = 1;
        else if (v / w > INT64_MAX)
            r->bad = 1;          /* INT64_MIN / -1, and so INT64_MIN % -1 */
        else
            v = op == '/' ? v / w : v % w;
        if (r->bad)
            return 0;
    }
}
static __int128 ref_sum(ref *r)
{
    __int128 v = ref_prod(r);
    for (;;) {
        ref_blank(r);
        char op = *r->p;
        if (r->bad || (op != '+' && op != '-'))
            return v;
        r->p++;
        __int128 w = ref_prod(r);
        if (r->bad)
            return 0;
        v = ref_fit(r, op == '+' ? v + w : v - w);
    }
}

static void check_expression(const char *s)
{
    static gcn_manifest *m;
    char err[1024];
    if (!m && gcn_mf_parse("fuzz", "/nonexistent", "{\"code\": \"k.s\", \"params\": {\"N\": 64, "
                           "\"M\": -3, \"BIG\": 9223372036854775807}, \"grid\": [1], "
                           "\"block\": [64]}", NULL, 0, &m, err, sizeof err))
        abort();
    int64_t v = 0;
    int rc = gcn_mf_eval(m, s, &v, err, sizeof err);
    ref r = {s, 0, 0};
    __int128 want = ref_sum(&r);
    ref_blank(&r);
    int ref_ok = !r.bad && !*r.p;
    if (rc == 0)
        CHECK(strlen(err) < sizeof err);
    if ((rc == 0) != ref_ok || (ref_ok && v != (int64_t)want)) {
        fprintf(stderr, "expression \"%s\": gcn_mf_eval rc %d value %lld (%s), oracle %s %lld\n",
                s, rc, (long long)v, rc ? err : "", ref_ok ? "accepts" : "refuses",
                (long long)want);
        abort();
    }
}

/* ---- manifests ----------------------------------------------------------------- */
static void check_manifest(const gcn_manifest *m)
{
    uint64_t wg = 1;
    for (int i = 0; i < 3; i++) {
        CHECK(m->grid[i] >= 1 && m->grid[i] <= 0x7fffffffu);
        CHECK(m->block[i] >= 1);
        CHECK((uint64_t)m->grid[i] * m->block[i] <= 0xffffffffull);
        wg *= m->block[i];
    }
    CHECK(wg <= 1024);
    CHECK(m->dynamic_lds <= 1u << 20);
    for (unsigned i = 0; i < m->nbufs; i++) {
        char why[128];
        CHECK(gcn_file_name_check(m->bufs[i].name, why, sizeof why) == 0);
        CHECK(m->bufs[i].size <= 1ull << 34);
        CHECK(m->bufs[i].init != GCN_MF_INIT_FILL || m->bufs[i].fill <= 255);
        CHECK(gcn_mf_buffer_index(m, m->bufs[i].name) == (int)i);
    }
    for (unsigned i = 0; i < m->nargs; i++) {
        const gcn_mf_arg *a = &m->args[i];
        CHECK(a->kind <= GCN_MF_ARG_F64);
        if (a->kind == GCN_MF_ARG_BUFFER)
            CHECK(a->buf < m->nbufs);
        if (a->kind == GCN_MF_ARG_U32)
            CHECK(a->ival >= 0 && a->ival <= 0xffffffffll);
        if (a->kind == GCN_MF_ARG_I32)
            CHECK(a->ival >= INT32_MIN && a->ival <= INT32_MAX);
        if (a->kind == GCN_MF_ARG_F32)
            CHECK(a->fval >= -FLT_MAX && a->fval <= FLT_MAX);
    }
    for (unsigned i = 0; i < m->noutputs; i++)
        CHECK(m->outputs[i] < m->nbufs);
    for (unsigned i = 0; i < m->nsizes; i++)
        for (unsigned k = 0; k < m->sizes[i].nsets; k++)
            CHECK(m->sizes[i].sets[k].name != NULL);

    char err[1024], *rj = NULL;
    CHECK(gcn_mf_run_json(m, "gfx942", &rj, err, sizeof err) == 0);
    json_error_t je;
    json_t *r = json_loads(rj, 0, &je);
    CHECK(r != NULL);
    json_t *bufs = json_object_get(r, "buffers");
    CHECK(json_object_size(bufs) == m->nbufs);
    for (unsigned i = 0; i < m->nbufs; i++)
        CHECK(json_object_get(bufs, m->bufs[i].name) != NULL);
    json_decref(r);
    free(rj);

    for (unsigned i = 0; i < m->nbufs; i++) {
        const gcn_mf_buffer *b = &m->bufs[i];
        if (b->init == GCN_MF_INIT_FILE || b->size > 65536)
            continue;
        uint8_t *dst = malloc(b->size + 1);
        CHECK(dst != NULL);
        CHECK(gcn_mf_fill(m, i, dst, err, sizeof err) == 0);
        if (b->init == GCN_MF_INIT_ZERO)
            for (uint64_t k = 0; k < b->size; k++)
                CHECK(dst[k] == 0);
        free(dst);
    }

    /* the kernarg segment of a kernel without metadata: the natural layout */
    gcn_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "fuzz";
    uint64_t addr[64];
    for (unsigned i = 0; i < 64; i++)
        addr[i] = 0x100000000ull * (i + 1);
    if (m->nbufs <= 64) {
        uint8_t *ka = NULL;
        size_t kalen = 0;
        if (gcn_kernarg_build(m, &k, addr, &ka, &kalen, err, sizeof err) == 0)
            CHECK(kalen <= 8 * (size_t)m->nargs + 8);
        free(ka);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    const char *sets[8];
    unsigned nsets = 0;
    for (size_t i = 0; i < size && nsets < 8; i++)
        if (!buf[i])
            sets[nsets++] = buf + i + 1;
    const char *t = buf;
    while (isspace((unsigned char)*t))
        t++;
    if (*t != '{') {
        check_expression(buf);
        free(buf);
        return 0;
    }
    gcn_manifest *m = NULL;
    char err[2048];
    err[0] = 0;
    if (gcn_mf_parse("fuzz.json", "/nonexistent-fuzz-dir", buf, sets, nsets, &m, err,
                     sizeof err) == 0) {
        CHECK(m != NULL);
        check_manifest(m);
        /* a checked manifest is still checked after a round trip through its sizes */
        for (unsigned i = 0; i < m->nsizes && i < 4; i++) {
            const char *ov[8];
            char text[8][128];
            unsigned n = 0;
            for (unsigned k = 0; k < m->sizes[i].nsets && n < 8; k++) {
                snprintf(text[n], sizeof text[n], "%.60s=%lld", m->sizes[i].sets[k].name,
                         (long long)m->sizes[i].sets[k].value);
                ov[n] = text[n];
                n++;
            }
            gcn_manifest *m2 = NULL;
            if (gcn_mf_parse("fuzz.json", "/nonexistent-fuzz-dir", buf, ov, n, &m2, err,
                             sizeof err) == 0)
                check_manifest(m2);
            gcn_mf_free(m2);
        }
    } else {
        CHECK(m == NULL);
        CHECK(err[0] != 0);
    }
    gcn_mf_free(m);
    free(buf);
    return 0;
}

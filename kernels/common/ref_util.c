/* ref_util.c -- shared helpers for the C reference programs of kernels/: command line,
 * run.json (jansson), dumped buffers, bit-exact comparison with a first-difference report.
 * See ref_util.h and docs/manifest.md. */
#include "ref_util.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--write-expected] DIR\n"
                    "  compares the outputs dumped in DIR (docs/manifest.md) with the C reference;\n"
                    "  exit 0 equal, 1 different, 2 bad input\n", prog);
}

int gcn_ref_open(gcn_ref *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--write-expected") == 0)
            r->write_expected = 1;
        else if (argv[i][0] == '-' || r->dir) {
            usage(argv[0]);
            return r->status = GCN_REF_BAD;
        } else
            r->dir = argv[i];
    }
    if (!r->dir) {
        usage(argv[0]);
        return r->status = GCN_REF_BAD;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/run.json", r->dir);
    json_error_t err;
    json_t *run = json_load_file(path, 0, &err);
    if (!run || !json_is_object(run)) {
        fprintf(stderr, "ref: %s: %s (line %d)\n", path, run ? "not a JSON object" : err.text,
                err.line);
        json_decref(run);
        return r->status = GCN_REF_BAD;
    }
    r->run = run;
    return 0;
}

void gcn_ref_close(gcn_ref *r)
{
    json_decref((json_t *)r->run);
    r->run = NULL;
}

static json_t *lookup_param(gcn_ref *r, const char *name)
{
    json_t *run = r->run;
    json_t *params = json_object_get(run, "params");
    json_t *v = json_is_object(params) ? json_object_get(params, name) : NULL;
    return v ? v : json_object_get(run, name);
}

int gcn_ref_param(gcn_ref *r, const char *name, long long *out)
{
    json_t *v = lookup_param(r, name);
    if (!json_is_integer(v)) {
        fprintf(stderr, "ref: %s/run.json: no integer parameter \"%s\"\n", r->dir, name);
        r->status = GCN_REF_BAD;
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

long long gcn_ref_param_or(gcn_ref *r, const char *name, long long default_value)
{
    json_t *v = lookup_param(r, name);
    return json_is_integer(v) ? json_integer_value(v) : default_value;
}

static void *read_file(gcn_ref *r, const char *file, size_t min_bytes, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", r->dir, file);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        size_t fl = strlen(file);
        /* a dump holds the inputs only when asked for (gcnsim --dump-inputs) */
        fprintf(stderr, "ref: %s: %s%s\n", path, strerror(e),
                e == ENOENT && fl > 7 && !strcmp(file + fl - 7, ".in.bin")
                    ? " (the dump has no inputs: run gcnsim with --dump-inputs)" : "");
        r->status = GCN_REF_BAD;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "ref: out of memory reading %s\n", path);
            fclose(f);
            r->status = GCN_REF_BAD;
            return NULL;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        unsigned char *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || len < min_bytes) {
        if (bad)
            fprintf(stderr, "ref: %s: read error\n", path);
        else
            fprintf(stderr, "ref: %s: %zu bytes, expected at least %zu\n", path, len, min_bytes);
        free(buf);
        r->status = GCN_REF_BAD;
        return NULL;
    }
    if (size)
        *size = len;
    return buf;
}

void *gcn_ref_input(gcn_ref *r, const char *name, size_t min_bytes, size_t *size)
{
    char file[512];
    snprintf(file, sizeof file, "%s.in.bin", name);
    return read_file(r, file, min_bytes, size);
}

void *gcn_ref_output(gcn_ref *r, const char *name, size_t min_bytes, size_t *size)
{
    char file[512];
    snprintf(file, sizeof file, "%s.bin", name);
    return read_file(r, file, min_bytes, size);
}

float gcn_ref_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint32_t gcn_ref_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t elem(const void *p, gcn_ref_kind kind, size_t i)
{
    if (kind == GCN_REF_U8)
        return ((const unsigned char *)p)[i];
    uint32_t v;
    memcpy(&v, (const unsigned char *)p + 4 * i, 4);
    return v;
}

static void print_elem(gcn_ref_kind kind, uint32_t v)
{
    switch (kind) {
    case GCN_REF_F32:
        printf("%.9g (0x%08" PRIx32 ")", (double)gcn_ref_f32(v), v);
        break;
    case GCN_REF_I32:
        printf("%" PRId32 " (0x%08" PRIx32 ")", (int32_t)v, v);
        break;
    case GCN_REF_U8:
        printf("%" PRIu32 " (0x%02" PRIx32 ")", v, v);
        break;
    default:
        printf("%" PRIu32 " (0x%08" PRIx32 ")", v, v);
        break;
    }
}

static int worse(gcn_ref *r, int st)
{
    if (st > r->status)
        r->status = st;
    return st;
}

int gcn_ref_expect(gcn_ref *r, const char *name, gcn_ref_kind kind, const void *expected,
                   size_t n)
{
    size_t esz = kind == GCN_REF_U8 ? 1 : 4;
    if (r->write_expected) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", r->dir, name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(expected, esz, n, f) != n || fclose(f) != 0) {
            fprintf(stderr, "ref: cannot write %s\n", path);
            return worse(r, GCN_REF_BAD);
        }
        printf("%s: wrote %zu expected elements\n", name, n);
        return GCN_REF_SAME;
    }
    size_t size;
    void *got = gcn_ref_output(r, name, n * esz, &size);
    if (!got)
        return GCN_REF_BAD;
    size_t ndiff = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (elem(expected, kind, i) != elem(got, kind, i) && ndiff++ == 0)
            first = i;
    if (ndiff) {
        printf("%s[%zu]: expected ", name, first);
        print_elem(kind, elem(expected, kind, first));
        printf(", got ");
        print_elem(kind, elem(got, kind, first));
        printf("  (%zu of %zu elements differ)\n", ndiff, n);
    } else
        printf("%s: %zu elements equal\n", name, n);
    free(got);
    return worse(r, ndiff ? GCN_REF_DIFF : GCN_REF_SAME);
}

int gcn_ref_unchanged(gcn_ref *r, const char *name)
{
    if (r->write_expected)
        return GCN_REF_SAME;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", r->dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return GCN_REF_SAME;
    fclose(f);
    size_t nin, nout;
    unsigned char *in = gcn_ref_input(r, name, 0, &nin);
    unsigned char *out = in ? gcn_ref_output(r, name, 0, &nout) : NULL;
    int st = GCN_REF_BAD;
    if (in && out) {
        size_t i = 0;
        while (i < nin && i < nout && in[i] == out[i])
            i++;
        if (i == nin && nin == nout)
            st = GCN_REF_SAME;
        else {
            printf("%s: input buffer changed at byte %zu (sizes %zu -> %zu)\n", name, i, nin, nout);
            st = GCN_REF_DIFF;
        }
    }
    free(in);
    free(out);
    return worse(r, st);
}

int gcn_ref_finish(gcn_ref *r)
{
    static const char *const what[] = {"equal", "DIFFERENT", "BAD INPUT"};
    printf("ref %s: %s\n", r->dir ? r->dir : "?", what[r->status]);
    gcn_ref_close(r);
    return r->status;
}

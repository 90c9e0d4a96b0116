/*
 * fuzz_sim.c -- libFuzzer target for the simulator on random code: the input's
 * instruction words replace the 512 s_nop words of a template kernel
 * (tests/fuzz/sim_template.s, assembled by tests/fuzz/build.sh for gfx942 and
 * gfx950 into fuzz_sim_gfx942.hsaco / fuzz_sim_gfx950.hsaco beside this
 * program), which then runs as one work-group under a small instruction
 * budget, with a 64 KiB buffer as its argument.  The header (2 bytes) picks
 * the target, the work-group size (64 or 128), the hazard mode, strict mode,
 * the scheduling quantum, and whether the FIFO trace, the Chrome trace JSON
 * and the SVG plot of wave 0 are written (the trace writers: the JSON must
 * parse, with every span closed).  Invariants: every run ends OK or FAULT
 * (a kernel fault is a legal outcome) with a message, within the budget;
 * findings name a pc inside the code object's .text.  One device serves
 * every input, made as new for each (gcn_sim_reset), so a run does not set
 * up its register files and predecoded blocks afresh; the trace is read by a
 * strict JSON reader that keeps no tree (jansson reads it too on one trace
 * in 32 by its size, and both must agree).
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gcn_codeobj.h"
#include "sim/gcn_sim.h"
#include "fuzz_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

#define NWORDS 512
#define NOP 0xbf800000u           /* s_nop 0 */
#define BUDGET 4096

static uint8_t *tmpl[2];          /* the template code objects, gfx942 and gfx950 */
static size_t tmpl_len[2], slot[2];  /* ... and the offset of their 512 s_nop words */
static char json_path[PATH_MAX], svg_path[PATH_MAX];

static uint32_t word_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void load_template(unsigned t, const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/fuzz_sim_%s.hsaco", dir, t ? "gfx950" : "gfx942");
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_sim: cannot open %s (tests/fuzz/build.sh puts it there)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    tmpl[t] = malloc((size_t)n);
    CHECK(tmpl[t] && fread(tmpl[t], 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    tmpl_len[t] = (size_t)n;
    /* the first run of NWORDS s_nop words, 4-byte aligned */
    for (size_t off = 0; off + 4 * NWORDS <= tmpl_len[t]; off += 4) {
        size_t k = 0;
        while (k < NWORDS && word_at(tmpl[t] + off + 4 * k) == NOP)
            k++;
        if (k == NWORDS) {
            slot[t] = off;
            return;
        }
    }
    fprintf(stderr, "fuzz_sim: %s has no run of %d s_nop words\n", path, NWORDS);
    exit(1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(n > 0);
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    CHECK(slash);
    *slash = 0;
    load_template(0, exe);
    load_template(1, exe);
    /* the trace files in memory (tmpfs) where there is one */
    const char *dir = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(json_path, sizeof json_path, "%s/fuzz_sim.%d.json", dir, (int)getpid());
    snprintf(svg_path, sizeof svg_path, "%s/fuzz_sim.%d.svg", dir, (int)getpid());
    return 0;
}

/* ---- the trace, read without a tree --------------------------------------
 * A strict JSON reader that keeps no tree (parsing the trace into jansson's
 * tree, even from an arena, was a fifth of a run): it reads what jansson's
 * json_loadb with no flags accepts -- an object or array at the top and
 * nothing after it, UTF-8 without overlong forms or surrogates, no control
 * characters or \u0000 in strings, \u surrogates in pairs, numbers as RFC
 * 8259 writes them, integers that fit 64 bits, reals that do not overflow,
 * at most 2048 levels -- and on the way takes each event's "ph" (the
 * elements of the top array, or of the top object's "traceEvents"). On one
 * trace in 32 (by the input's size) jansson reads it too, and the two
 * must agree. */
/* The reader is the harness's, not code under test: no coverage or comparison tracing (its
 * comparisons of every byte of a trace filled libFuzzer's tables with the trace's text). */
#define JR_FN static __attribute__((no_sanitize("coverage")))

typedef struct jr {
    const char *p, *e;
    int depth;
    long nev, begin_depth, async;   /* events; open "B" spans (never < 0); open "b" spans */
} jr;

enum { J_ANY, J_ROOT, J_EVENTS, J_EVENT };

JR_FN int jr_value(jr *r, int role);

JR_FN void jr_ws(jr *r)
{
    while (r->p < r->e && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

JR_FN int jr_hex4(jr *r, unsigned *u)
{
    if (r->e - r->p < 4)
        return -1;
    *u = 0;
    for (int i = 0; i < 4; i++) {
        char c = *r->p++;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
                     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
                     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d > 15)
            return -1;
        *u = *u << 4 | d;
    }
    return 0;
}

/* A string (at its opening quote); its first bytes, escapes undone, into out (cap bytes
 * with the NUL; *len the whole length, so a longer string never equals a short name). */
JR_FN int jr_string(jr *r, char *out, size_t cap, size_t *len)
{
    size_t n = 0;
    r->p++;
    for (;;) {
        if (r->p >= r->e)
            return -1;
        unsigned char c = (unsigned char)*r->p;
        unsigned cp;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (++r->p >= r->e)
                return -1;
            switch (*r->p++) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                if (jr_hex4(r, &cp))
                    return -1;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return -1;                          /* a low surrogate alone */
                if (cp >= 0xd800 && cp <= 0xdbff) {      /* a high one: its low one next */
                    unsigned lo;
                    if (r->e - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                        return -1;
                    r->p += 2;
                    if (jr_hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff)
                        return -1;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                if (cp == 0)
                    return -1;
                break;
            default:
                return -1;
            }
        } else if (c < 0x80) {
            cp = c;
            r->p++;
        } else {                                        /* UTF-8: 2 to 4 bytes */
            unsigned k = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 :
                         c >= 0xf0 && c <= 0xf4 ? 3 : 0;
            if (!k || r->e - r->p < (ptrdiff_t)k + 1)
                return -1;
            cp = c & (0x3fu >> k);
            for (unsigned i = 1; i <= k; i++) {
                unsigned char t = (unsigned char)r->p[i];
                if ((t & 0xc0) != 0x80)
                    return -1;
                cp = cp << 6 | (t & 0x3f);
            }
            if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
                (cp >= 0xd800 && cp <= 0xdfff))
                return -1;                              /* overlong, too large, surrogate */
            r->p += k + 1;
        }
        if (n + 1 < cap)
            out[n] = cp < 0x80 ? (char)cp : '?';
        n++;
    }
    if (cap)
        out[n < cap ? n : cap - 1] = 0;
    *len = n;
    return 0;
}

JR_FN int jr_number(jr *r)
{
    const char *s = r->p;
    int real = 0;
    if (r->p < r->e && *r->p == '-')
        r->p++;
    if (r->p >= r->e)
        return -1;
    if (*r->p == '0') {
        r->p++;
    } else if (*r->p >= '1' && *r->p <= '9') {
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    } else {
        return -1;
    }
    if (r->p < r->e && *r->p == '.') {
        real = 1;
        r->p++;
        if (r->p >= r->e || *r->p < '0' || *r->p > '9')
            return -1;
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    if (r->p < r->e && (*r->p == 'e' || *r->p == 'E')) {
        real = 1;
        r->p++;
        if (r->p < r->e && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->e || *r->p < '0' || *r->p > '9')
            return -1;
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    /* jansson: an integer must fit json_int_t (long long), a real must not overflow */
    char buf[512];
    size_t n = (size_t)(r->p - s);
    if (n >= sizeof buf)
        return real ? 0 : -1;       /* (no 64-bit integer has that many digits) */
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    if (real) {
        double d = strtod(buf, NULL);
        return (d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE ? -1 : 0;
    }
    (void)strtoll(buf, NULL, 10);
    return errno == ERANGE ? -1 : 0;
}

/* An event's "ph": the spans it opens and closes. */
JR_FN int jr_phase(jr *r, const char *ph, size_t len)
{
    if (len != 1)
        return 0;
    if (ph[0] == 'B')
        r->begin_depth++;
    if (ph[0] == 'E' && --r->begin_depth < 0)
        return -1;
    if (ph[0] == 'b')
        r->async++;
    if (ph[0] == 'e')
        r->async--;
    return 0;
}

JR_FN int jr_object(jr *r, int role)
{
    int has_ph = 0, has_ev = 0;
    char ph[8] = "", key[16];
    size_t phlen = 0, klen;
    r->p++;
    jr_ws(r);
    if (r->p < r->e && *r->p == '}') {
        r->p++;
    } else {
        for (;;) {
            jr_ws(r);
            if (r->p >= r->e || *r->p != '"' || jr_string(r, key, sizeof key, &klen))
                return -1;
            jr_ws(r);
            if (r->p >= r->e || *r->p++ != ':')
                return -1;
            jr_ws(r);
            int kph = role == J_EVENT && klen == 2 && !strcmp(key, "ph");
            int kev = role == J_ROOT && klen == 11 && !strcmp(key, "traceEvents");
            if (kph) {
                /* (a second "ph" or "traceEvents" is refused: jansson would take the
                 * last, and the writer writes each once) */
                if (has_ph++ || r->p >= r->e || *r->p != '"' || jr_string(r, ph, sizeof ph, &phlen))
                    return -1;
            } else if (kev) {
                if (has_ev++ || r->p >= r->e || *r->p != '[' || jr_value(r, J_EVENTS))
                    return -1;
            } else if (jr_value(r, J_ANY)) {
                return -1;
            }
            jr_ws(r);
            if (r->p < r->e && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p < r->e && *r->p == '}') {
                r->p++;
                break;
            }
            return -1;
        }
    }
    if (role == J_EVENT)
        return has_ph ? jr_phase(r, ph, phlen) : -1;
    if (role == J_ROOT)
        return has_ev ? 0 : -1;
    return 0;
}

JR_FN int jr_array(jr *r, int role)
{
    r->p++;
    jr_ws(r);
    if (r->p < r->e && *r->p == ']') {
        r->p++;
        return 0;
    }
    for (;;) {
        jr_ws(r);
        if (role == J_EVENTS) {
            if (r->p >= r->e || *r->p != '{' || jr_value(r, J_EVENT))
                return -1;
            r->nev++;
        } else if (jr_value(r, J_ANY)) {
            return -1;
        }
        jr_ws(r);
        if (r->p < r->e && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->e && *r->p == ']') {
            r->p++;
            return 0;
        }
        return -1;
    }
}

JR_FN int jr_value(jr *r, int role)
{
    if (r->p >= r->e)
        return -1;
    char c = *r->p;
    if (c == '{' || c == '[') {
        if (++r->depth > 2048)
            return -1;
        int st = c == '{' ? jr_object(r, role) : jr_array(r, role == J_ROOT ? J_EVENTS : role);
        r->depth--;
        return st;
    }
    if (role != J_ANY)
        return -1;
    char tmp[1];
    size_t len;
    if (c == '"')
        return jr_string(r, tmp, 0, &len);
    if (c == '-' || (c >= '0' && c <= '9'))
        return jr_number(r);
    static const char *const lit[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(lit[i]);
        if ((size_t)(r->e - r->p) >= n && !memcmp(r->p, lit[i], n)) {
            r->p += n;
            return 0;
        }
    }
    return -1;
}

/* jansson's reading of the same text: the number of events, and the checks of the
 * reader above (-1: no JSON or not a trace). */
static long jansson_events(const char *text, size_t n, long *begin_depth, long *async)
{
    json_error_t e;
    json_t *root = fuzz_json_loadb(text, n, &e);
    long nev = -1;
    *begin_depth = *async = 0;
    json_t *ev = !root ? NULL : json_is_array(root) ? root : json_object_get(root, "traceEvents");
    if (json_is_array(ev)) {
        size_t i;
        json_t *x;
        nev = 0;
        json_array_foreach(ev, i, x) {
            const char *ph = json_string_value(json_object_get(x, "ph"));
            if (!ph) {
                nev = -1;
                break;
            }
            nev++;
            if (!strcmp(ph, "B")) (*begin_depth)++;
            if (!strcmp(ph, "E") && --*begin_depth < 0) {
                nev = -1;
                break;
            }
            if (!strcmp(ph, "b")) (*async)++;
            if (!strcmp(ph, "e")) (*async)--;
        }
    }
    fuzz_json_drop();
    return nev;
}

/* The trace is JSON, and every begin event ("B"/"b") has its end, matched as the Trace
 * Event Format says (B/E nested per pid/tid, b/e by cat, id and name). */
static void check_trace(int cross)
{
    static char *text;
    static size_t cap;
    /* read whole into a buffer kept from input to input, then read from memory */
    FILE *f = fopen(json_path, "rb");
    CHECK(f);
    CHECK(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    CHECK(n > 0 && fseek(f, 0, SEEK_SET) == 0);
    if ((size_t)n > cap) {
        free(text);
        cap = (size_t)n * 2;
        text = malloc(cap);
        CHECK(text);
    }
    CHECK(fread(text, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    jr r = {.p = text, .e = text + n};
    jr_ws(&r);
    CHECK(r.p < r.e && (*r.p == '{' || *r.p == '['));
    int st = jr_value(&r, J_ROOT);
    jr_ws(&r);
    if (st || r.p != r.e) {
        fprintf(stderr, "the trace is no JSON or no trace, at byte %ld\n", (long)(r.p - text));
        abort();
    }
    CHECK(r.begin_depth == 0 && r.async == 0);
    if (cross) {
        long bd, as, nev = jansson_events(text, (size_t)n, &bd, &as);
        CHECK(nev == r.nev && bd == 0 && as == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned t = data[0] & 1, traces = (data[0] >> 1) & 7;
    unsigned block = 64u * (1u + (data[1] & 1));
    size_t nw = (size - 2) / 4;
    if (nw > NWORDS)
        nw = NWORDS;
    uint8_t *img = malloc(tmpl_len[t]);
    CHECK(img);
    memcpy(img, tmpl[t], tmpl_len[t]);
    memcpy(img + slot[t], data + 2, 4 * nw);

    gcn_codeobj *co = NULL;
    gcn_co_err err;
    CHECK(gcn_co_open_mem("fuzz_sim.hsaco", img, tmpl_len[t], &co, &err) == 0);
    const gcn_kernel *k = gcn_co_kernel(co, "fz");
    CHECK(k);
    static FILE *devnull;
    if (!devnull)
        CHECK((devnull = fopen("/dev/null", "w")) != NULL);
    gcn_sim_opts o = {
        .target = t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942,
        .max_insns = BUDGET,
        .strict = (data[1] >> 2) & 1,
        .hazard_effect = ((data[1] >> 3) & 3) % 3,
        .hazard_llvm = (data[1] >> 5) & 1,
        .quantum = 1u + ((data[1] >> 6) & 3) * 7,
        .trace_fifo = traces & 1,
        .trace_out = devnull,
        .trace_json = (traces & 2) ? json_path : NULL,
        .plot_svg = (traces & 4) ? svg_path : NULL,
    };
    /* one device for the process, made again as new for each input (gcn_sim_reset: no
     * allocations or findings, these options) with the memory of the earlier runs kept:
     * allocating, clearing and unmapping the register files and predecoded blocks of
     * every run was most of what remained of a run's set-up */
    static gcn_sim *s;
    if (!s)
        CHECK((s = gcn_sim_new(&o)) != NULL);
    else
        gcn_sim_reset(s, &o);
    uint64_t buf;
    CHECK(gcn_sim_alloc(s, 65536, "buf", &buf) == 0);
    uint8_t ka[8];
    for (int b = 0; b < 8; b++)
        ka[b] = (uint8_t)(buf >> (8 * b));
    gcn_dispatch d = {.co = co, .kernel = k, .grid = {1, 1, 1}, .block = {block, 1, 1},
                      .kernarg = ka, .kernarg_size = sizeof ka};
    gcn_sim_result r;
    int st = gcn_sim_run(s, &d, &r);
    CHECK(st == GCN_SIM_OK || st == GCN_SIM_FAULT);
    CHECK(r.status == st);
    if (st == GCN_SIM_FAULT)
        CHECK(r.msg[0]);
    CHECK(r.insns <= (uint64_t)BUDGET + 4 * 64);     /* the budget, give or take a round */
    uint64_t lo = co->text_addr, hi = co->text_addr + co->text_size;
    for (unsigned i = 0; i < r.nfindings; i++)
        CHECK(r.findings[i].pc >= lo && r.findings[i].pc < hi);
    if (st == GCN_SIM_OK && (traces & 2))
        check_trace(((uint32_t)size * 2654435761u) >> 27 == 0);
    remove(json_path);
    remove(svg_path);
    /* what the run allocated freed now (the findings, the buffer): libFuzzer runs an input
     * again under LeakSanitizer when it leaves more allocations than it found */
    gcn_sim_reset(s, &o);
    gcn_co_close(co);
    free(img);
    return 0;
}

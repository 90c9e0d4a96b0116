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
 * strict JSON reader that keeps no tree (fuzz_jr.h; jansson reads it too on
 * one trace in 32 by its size, and both must agree).
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
#include "fuzz_jr.h"

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
    jr r;
    if (jr_read(&r, text, (size_t)n, JR_TRACE)) {
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
    /* (only what this run was asked to write: the others do not exist) */
    if (traces & 2)
        remove(json_path);
    if (traces & 4)
        remove(svg_path);
    /* what the run allocated freed now (the findings, the buffer): libFuzzer runs an input
     * again under LeakSanitizer when it leaves more allocations than it found */
    gcn_sim_reset(s, &o);
    gcn_co_close(co);
    free(img);
    return 0;
}

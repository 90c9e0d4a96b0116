/*
 * fuzz_lint.c -- libFuzzer target for gcnlint's analyses on random code:
 * the input is a kernel's .text (after a 4-byte header: target, options,
 * entry offset, waves per workgroup), and gcnlint's whole per-kernel
 * pipeline runs on it as in src/tools/gcnlint.c: the CFG, the value and LDS
 * range analysis, the pending-operation dataflow, the hazard rules, the
 * cross-wave LDS races and the wait suggestions (with and without
 * explanations), then (on inputs whose header asks) the text, JSON and
 * SARIF reports.  Invariants: every
 * finding's addresses lie in the text, the CFG's blocks partition its
 * instructions with consistent edges, and the JSON and SARIF outputs parse
 * as JSON with one result per finding (a strict reader without a tree,
 * fuzz_jr.h, on every report; jansson too on one input in 16).
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/lint.h"
#include "analyze/paths.h"
#include "fuzz_json.h"
#include "fuzz_jr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

#define TEXT_ADDR 0x1000u

static void loc(void *ctx, uint64_t addr, gcn_strbuf *sb)
{
    (void)ctx;
    gcn_sb_printf(sb, "+0x%llx", (unsigned long long)(addr - TEXT_ADDR));
}

static void check_cfg(const gcn_cfg *cfg, uint64_t size)
{
    for (unsigned i = 0; i < cfg->ninsn; i++) {
        CHECK(cfg->insn[i].addr >= TEXT_ADDR && cfg->insn[i].addr < TEXT_ADDR + size);
        if (i)
            CHECK(cfg->insn[i].addr > cfg->insn[i - 1].addr);
        CHECK(cfg->block_of[i] < cfg->nblocks);
    }
    for (unsigned b = 0; b < cfg->nblocks; b++) {
        const gcn_block *bl = &cfg->blocks[b];
        CHECK(bl->first <= bl->last && bl->last < cfg->ninsn);
        for (unsigned i = bl->first; i <= bl->last; i++)
            CHECK(cfg->block_of[i] == b);
        for (unsigned s = 0; s < bl->nsucc; s++) {
            unsigned t = bl->succ[s];
            CHECK(t < cfg->nblocks);
            int back = 0;
            for (unsigned p = 0; p < cfg->blocks[t].npred; p++)
                back |= cfg->blocks[t].pred[p] == b;
            CHECK(back);
        }
    }
}

/* The report `json` (key "json" or "sarif") is JSON with one result per finding: read by
 * the strict reader without a tree (fuzz_jr.h) on every report, and by jansson too when
 * cross is set, the two agreeing.  The count of results, or abort. */
static unsigned count_findings(const char *json, const char *key, int cross)
{
    bool sarif = !strcmp(key, "sarif");
    size_t len = strlen(json);
    /* the writer is done: its tree, if it was in the arena, goes with the arena below */
    json_set_alloc_funcs(malloc, free);
    jr r;
    if (jr_read(&r, json, len, sarif ? JR_SARIF : JR_REPORT)) {
        fprintf(stderr, "the %s report is no JSON or lacks its results, at byte %ld\n", key,
                (long)(r.p - json));
        abort();
    }
    if (sarif)
        CHECK(r.nruns == 1);
    long n = sarif ? r.nresults : r.nfind;
    if (cross) {
        json_error_t je;
        json_t *root = fuzz_json_loadb(json, len, &je);
        if (!root) {
            fprintf(stderr, "the %s report is no JSON to jansson: %s\n", key, je.text);
            abort();
        }
        long m;
        if (sarif) {
            json_t *runs = json_object_get(root, "runs");
            CHECK(json_array_size(runs) == 1);
            m = (long)json_array_size(json_object_get(json_array_get(runs, 0), "results"));
        } else {
            m = (long)json_array_size(json_object_get(root, "findings"));
        }
        CHECK(m == n);
    }
    fuzz_json_drop();
    return (unsigned)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || size > (1 << 16))
        return 0;
    gcn_target t = (data[0] & 1) ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
    bool explain = data[0] & 2, suggest = data[0] & 4, xnack_off = data[0] & 8;
    unsigned max_states = (data[0] & 16) ? 4 : 0;
    unsigned nwaves = 1 + (data[1] & 15);
    /* the reports (SARIF carries the whole rule catalogue) cost ten times the
     * analyses: on one input in two, by the header */
    bool reports = data[1] & 0x80;
    uint64_t text_size = (size - 4) & ~(uint64_t)3;
    uint64_t entry = TEXT_ADDR + ((((uint64_t)data[2] | (uint64_t)data[3] << 8) * 4) %
                                  (text_size ? text_size : 4));
    const uint8_t *text = data + 4;

    gcn_cfg cfg;
    char err[256];
    if (gcn_cfg_build(&cfg, t, text, TEXT_ADDR, text_size, entry, err, sizeof err) < 0)
        return 0;
    check_cfg(&cfg, text_size);
    gcn_lint_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.explain = explain;
    lo.max_states = max_states;
    lo.loc = (data[0] & 32) ? loc : NULL;
    lo.hz_xnack_off = xnack_off;
    gcn_entry_info ei = {(data[0] & 64) != 0};
    /* the path facts, shared by the value analysis and the checks as gcnlint does */
    gcn_paths *paths = gcn_paths_build(&cfg);
    CHECK(paths != NULL);
    ei.paths = paths;
    lo.paths = paths;
    gcn_values vals;
    CHECK(gcn_values_run(&cfg, &ei, &vals) == 0);
    gcn_findings fs = {0};
    gcn_lint_cfg_findings(&cfg, &lo, &fs);
    CHECK(gcn_lint_waits(&cfg, &vals, &lo, &fs) >= 0);
    CHECK(gcn_lint_hazards(&cfg, &lo, &fs) >= 0);
    CHECK(gcn_lint_xwave(&cfg, &vals, nwaves, &lo, &fs) >= 0);
    if (suggest)
        CHECK(gcn_lint_suggest(&cfg, &vals, &lo, &fs) >= 0);
    gcn_findings_sort(&fs);

    gcn_diags ds = {0};
    for (unsigned i = 0; i < fs.n; i++) {
        const gcn_finding *f = &fs.f[i];
        CHECK(f->msg != NULL);
        CHECK(f->check >= 0 && f->check < GCN_CHK_COUNT);
        /* CFG issues may point where a path leaves the text; the rest are instructions */
        if (f->check != GCN_CHK_CFG_INVALID && f->check != GCN_CHK_CFG_INDIRECT)
            CHECK(f->addr >= TEXT_ADDR && f->addr < TEXT_ADDR + text_size);
        if (f->producer >= 0)
            CHECK((uint64_t)f->producer >= TEXT_ADDR && (uint64_t)f->producer < TEXT_ADDR + text_size);
        gcn_diag d;
        memset(&d, 0, sizeof d);
        d.input = "fuzz.hsaco";
        d.kernel = "fuzz";
        d.file = "fuzz.s";
        d.line = (unsigned)(f->addr & 0xff);
        d.offset = f->addr - TEXT_ADDR;
        d.check = f->check;
        d.severity = f->severity;
        d.check_name = (char *)gcn_check_name(f->check);
        d.msg = f->msg;
        d.explain = f->explain;
        d.rel_offset = f->producer >= 0 ? f->producer - TEXT_ADDR : -1;
        d.rel_file = f->producer >= 0 ? "fuzz.s" : NULL;
        d.wait_offset = f->wait >= 0 ? f->wait - TEXT_ADDR : -1;
        d.wait_file = f->wait >= 0 ? "fuzz.s" : NULL;
        CHECK(gcn_diags_add(&ds, &d) == 0);
    }
    const char *inputs[] = {"fuzz.hsaco"};
    char *buf = NULL;
    if (!reports)
        goto done;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    CHECK(m != NULL);
    gcn_report_text(m, &ds, explain);
    fclose(m);
    free(buf);
    buf = NULL;
    /* the JSON and SARIF writers build their reports as jansson trees (SARIF: the whole
     * rule catalogue, most of a run's allocations); on seven inputs in eight (by the
     * size) jansson takes its memory from the arena, dropped once the report is parsed
     * again, and on the eighth from malloc, so that AddressSanitizer still watches the
     * writers' use of the trees */
    bool arena = ((uint32_t)size * 2654435761u) >> 29 != 0;
    /* both reports are read by the strict reader without a tree (fuzz_jr.h: parsing them
     * into jansson's tree was a third of the harness); on one input in 16, by the entry
     * offset and size (apart from the arena's pick), jansson reads them too */
    int cross = (((uint32_t)size ^ (uint32_t)data[2] << 11 ^ (uint32_t)data[3] << 19) *
                 0x85ebca6bu) >> 28 == 0;
    if (arena)
        json_set_alloc_funcs(fuzz_arena_alloc, fuzz_arena_free);
    m = open_memstream(&buf, &len);
    CHECK(m != NULL && gcn_report_json(m, &ds, inputs, 1) == 0);
    fclose(m);
    CHECK(count_findings(buf, "json", cross) == ds.n);
    free(buf);
    buf = NULL;
    if (arena)
        json_set_alloc_funcs(fuzz_arena_alloc, fuzz_arena_free);
    m = open_memstream(&buf, &len);
    CHECK(m != NULL && gcn_report_sarif(m, &ds, inputs, 1) == 0);
    fclose(m);
    CHECK(count_findings(buf, "sarif", cross) == ds.n);
    free(buf);
done:
    gcn_diags_free(&ds);
    gcn_findings_free(&fs);
    gcn_values_free(&vals);
    gcn_paths_free(paths);
    gcn_cfg_free(&cfg);
    return 0;
}

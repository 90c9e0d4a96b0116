/*
 * test_sarif.c -- structural validation of gcnlint's SARIF 2.1.0 and JSON
 * output with jansson: the log/run/tool/rules/results shape, rule ids and
 * indexes, levels, messages and physical locations (region or address).
 * Without arguments it checks reports built from hand-made diagnostics; with
 * FILE it validates that SARIF log (used by test_gcnlint.sh on real output).
 */
#include <CUnit/Basic.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lint.h"

static char why[256];

#define REQ(c, ...) do { if (!(c)) { snprintf(why, sizeof why, __VA_ARGS__); return false; } } while (0)

static bool is_str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) && json_string_length(v) > 0;
}

static bool check_phys(json_t *pl)
{
    REQ(json_is_object(pl), "physicalLocation is not an object");
    json_t *al = json_object_get(pl, "artifactLocation");
    json_t *ad = json_object_get(pl, "address");
    REQ(al || ad, "physicalLocation without artifactLocation or address");
    if (al)
        REQ(json_is_object(al) && is_str(al, "uri"), "artifactLocation.uri missing");
    json_t *rg = json_object_get(pl, "region");
    if (rg) {
        json_t *sl = json_object_get(rg, "startLine");
        REQ(json_is_integer(sl) && json_integer_value(sl) >= 1, "region.startLine < 1");
    }
    if (ad) {
        json_t *aa = json_object_get(ad, "absoluteAddress");
        REQ(json_is_integer(aa) && json_integer_value(aa) >= 0, "address.absoluteAddress");
    }
    return true;
}

static bool validate_sarif(json_t *root, unsigned *nresults)
{
    REQ(json_is_object(root), "log is not an object");
    json_t *v = json_object_get(root, "version");
    REQ(json_is_string(v) && !strcmp(json_string_value(v), "2.1.0"), "version is not 2.1.0");
    json_t *sc = json_object_get(root, "$schema");
    REQ(json_is_string(sc) && strstr(json_string_value(sc), "sarif-2.1.0"), "$schema");
    json_t *runs = json_object_get(root, "runs");
    REQ(json_is_array(runs) && json_array_size(runs) >= 1, "runs");
    *nresults = 0;
    size_t ri;
    json_t *run;
    json_array_foreach(runs, ri, run) {
        json_t *drv = json_object_get(json_object_get(run, "tool"), "driver");
        REQ(json_is_object(drv) && is_str(drv, "name"), "tool.driver.name");
        json_t *rules = json_object_get(drv, "rules");
        REQ(json_is_array(rules), "tool.driver.rules");
        size_t k, j;
        json_t *r, *r2;
        json_array_foreach(rules, k, r) {
            REQ(is_str(r, "id"), "rule without id");
            REQ(is_str(json_object_get(r, "shortDescription"), "text"), "rule shortDescription");
            json_array_foreach(rules, j, r2)
                REQ(j == k || strcmp(json_string_value(json_object_get(r, "id")),
                                     json_string_value(json_object_get(r2, "id"))),
                    "duplicate rule id");
        }
        json_t *arts = json_object_get(run, "artifacts");
        if (arts) {
            json_t *a;
            json_array_foreach(arts, k, a)
                REQ(is_str(json_object_get(a, "location"), "uri"), "artifact uri");
        }
        json_t *results = json_object_get(run, "results");
        REQ(json_is_array(results), "results");
        json_t *res;
        json_array_foreach(results, k, res) {
            (*nresults)++;
            REQ(is_str(res, "ruleId"), "result.ruleId");
            const char *id = json_string_value(json_object_get(res, "ruleId"));
            bool known = false;
            json_array_foreach(rules, j, r)
                known |= !strcmp(json_string_value(json_object_get(r, "id")), id);
            REQ(known, "ruleId %s not among the rules", id);
            json_t *idx = json_object_get(res, "ruleIndex");
            if (idx) {
                REQ(json_is_integer(idx) && json_integer_value(idx) >= 0 &&
                    (size_t)json_integer_value(idx) < json_array_size(rules), "ruleIndex range");
                json_t *rr = json_array_get(rules, (size_t)json_integer_value(idx));
                REQ(!strcmp(json_string_value(json_object_get(rr, "id")), id), "ruleIndex/ruleId");
            }
            json_t *lv = json_object_get(res, "level");
            REQ(json_is_string(lv), "level");
            const char *l = json_string_value(lv);
            REQ(!strcmp(l, "error") || !strcmp(l, "warning") || !strcmp(l, "note") ||
                !strcmp(l, "none"), "level %s", l);
            REQ(is_str(json_object_get(res, "message"), "text"), "message.text");
            json_t *locs = json_object_get(res, "locations");
            REQ(json_is_array(locs) && json_array_size(locs) >= 1, "locations");
            json_t *loc;
            size_t m;
            json_array_foreach(locs, m, loc) {
                if (!check_phys(json_object_get(loc, "physicalLocation")))
                    return false;
                json_t *ll = json_object_get(loc, "logicalLocations"), *l1;
                size_t q;
                if (ll)
                    json_array_foreach(ll, q, l1)
                        REQ(is_str(l1, "name"), "logicalLocation.name");
            }
            json_t *rel = json_object_get(res, "relatedLocations");
            if (rel) {
                json_array_foreach(rel, m, loc)
                    if (!check_phys(json_object_get(loc, "physicalLocation")))
                        return false;
            }
        }
    }
    return true;
}

static void fill(gcn_diags *ds)
{
    gcn_diag d;
    memset(&d, 0, sizeof d);
    d.input = "k.s";
    d.kernel = "k";
    d.file = "k.s";
    d.line = 12;
    d.offset = 0x40;
    d.check = GCN_CHK_PENDING_READ;
    d.severity = GCN_SEV_ERROR;
    d.check_name = "pending-read";
    d.msg = "v_add_f32 reads v1 while ...";
    d.explain = "  path: line 1\n";
    d.rel_file = "k.s";
    d.rel_line = 10;
    d.rel_offset = 0x30;
    d.wait_offset = -1;
    gcn_diags_add(ds, &d);
    d.line = 0;                       /* no line information */
    d.file = "k.hsaco";
    d.check = GCN_CHK_CFG_INDIRECT;
    d.severity = GCN_SEV_WARNING;
    d.check_name = "cfg-indirect";
    d.rel_offset = -1;
    d.explain = NULL;
    gcn_diags_add(ds, &d);
    d.check = GCN_CHK_HAZARD;          /* a rule name the fixed table lacks */
    d.check_name = "hazard-m0-lds-dma";
    d.severity = GCN_SEV_ERROR;
    gcn_diags_add(ds, &d);
    d.check = GCN_CHK_WAIT_SUGGEST;
    d.check_name = "waitcnt-suggest";
    d.severity = GCN_SEV_NOTE;
    d.line = 3;
    d.file = "k.s";
    gcn_diags_add(ds, &d);
}

static json_t *render(int sarif, const gcn_diags *ds)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *inputs[] = {"k.s", "k.hsaco"};
    if (sarif)
        gcn_report_sarif(f, ds, inputs, 2);
    else
        gcn_report_json(f, ds, inputs, 2);
    fclose(f);
    json_error_t err;
    json_t *root = json_loads(buf, 0, &err);
    free(buf);
    return root;
}

static void test_sarif_shape(void)
{
    gcn_diags ds = {0};
    fill(&ds);
    json_t *root = render(1, &ds);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    unsigned n = 0;
    bool ok = validate_sarif(root, &n);
    if (!ok)
        fprintf(stderr, "invalid SARIF: %s\n", why);
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(n, 4);
    json_t *res = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "results");
    json_t *r0 = json_array_get(res, 0);
    json_t *pl = json_object_get(json_array_get(json_object_get(r0, "locations"), 0),
                                 "physicalLocation");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(pl, "region"), "startLine")), 12);
    CU_ASSERT_PTR_NOT_NULL(json_object_get(r0, "relatedLocations"));
    json_t *r1 = json_array_get(res, 1);
    pl = json_object_get(json_array_get(json_object_get(r1, "locations"), 0), "physicalLocation");
    CU_ASSERT_PTR_NULL(json_object_get(pl, "region"));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(pl, "address"),
                                                       "absoluteAddress")), 0x40);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(res, 3), "level")), "note");
    /* a broken log is rejected (the validator can fail) */
    json_object_set_new(root, "version", json_string("2.0.0"));
    CU_ASSERT(!validate_sarif(root, &n));
    json_decref(root);
    gcn_diags_free(&ds);
}

static void test_json_shape(void)
{
    gcn_diags ds = {0};
    fill(&ds);
    json_t *root = render(0, &ds);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "tool")), "gcnlint");
    json_t *fs = json_object_get(root, "findings");
    CU_ASSERT_EQUAL(json_array_size(fs), 4);
    json_t *f0 = json_array_get(fs, 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(f0, "line")), 12);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "offset")), "0x40");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "check")), "pending-read");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(f0, "producer"),
                                                             "offset")), "0x30");
    CU_ASSERT(json_is_null(json_object_get(json_array_get(fs, 1), "line")));
    json_decref(root);
    gcn_diags_free(&ds);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        json_error_t err;
        json_t *root = json_load_file(argv[1], 0, &err);
        if (!root) {
            fprintf(stderr, "%s: not JSON: %s (line %d)\n", argv[1], err.text, err.line);
            return 1;
        }
        unsigned n = 0;
        bool ok = validate_sarif(root, &n);
        json_decref(root);
        if (!ok) {
            fprintf(stderr, "%s: invalid SARIF 2.1.0: %s\n", argv[1], why);
            return 1;
        }
        printf("%s: valid SARIF 2.1.0, %u results\n", argv[1], n);
        return 0;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("sarif", NULL, NULL);
    CU_add_test(s, "SARIF 2.1.0 structure", test_sarif_shape);
    CU_add_test(s, "JSON structure", test_json_shape);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}

/*
 * test_sarif.c -- structural validation of gcnlint's SARIF 2.1.0 and JSON
 * output with jansson: the log/run/tool/rules/results shape, rule ids and
 * indexes, levels, messages, physical locations (region, address with its
 * parent function in run.addresses), logical locations, related locations;
 * the text form of binary locations and the grouping of repeated findings.
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

static size_t naddresses;           /* run.addresses of the run being checked */

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
        json_t *pi = json_object_get(ad, "parentIndex"), *of = json_object_get(ad, "offsetFromParent");
        if (pi) {
            REQ(json_is_integer(pi) && json_integer_value(pi) >= 0 &&
                (size_t)json_integer_value(pi) < naddresses, "address.parentIndex range");
            REQ(json_is_integer(of), "address.parentIndex without offsetFromParent");
        }
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
        json_t *addrs = json_object_get(run, "addresses");
        naddresses = 0;
        if (addrs) {
            REQ(json_is_array(addrs), "run.addresses");
            json_t *a;
            json_array_foreach(addrs, k, a) {
                json_t *aa = json_object_get(a, "absoluteAddress");
                REQ(json_is_integer(aa) && json_integer_value(aa) >= 0 && is_str(a, "name"),
                    "run.addresses[%zu]", k);
            }
            naddresses = json_array_size(addrs);
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
                json_array_foreach(rel, m, loc) {
                    if (!check_phys(json_object_get(loc, "physicalLocation")))
                        return false;
                    json_t *lid = json_object_get(loc, "id"), *l2;
                    size_t q;
                    REQ(!lid || (json_is_integer(lid) && json_integer_value(lid) >= 0), "location.id");
                    json_array_foreach(rel, q, l2)
                        REQ(q == m || !lid || !json_equal(lid, json_object_get(l2, "id")),
                            "duplicate relatedLocations id");
                }
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
    d.addr = 0x1040;
    d.rel_addr = 0x1030;
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
    /* in a callee, then outside every symbol */
    d.line = 0;
    d.file = "k.hsaco";
    d.check = GCN_CHK_PENDING_READ;
    d.check_name = "pending-read";
    d.severity = GCN_SEV_ERROR;
    d.symbol = "helper";
    d.offset = 0x8;
    d.addr = 0x1208;
    gcn_diags_add(ds, &d);
    d.symbol = ".text";
    d.offset = 0x300;
    d.addr = 0x1300;
    gcn_diags_add(ds, &d);
}

/* n sites of one hazard rule in kernel k of k.hsaco, from offset base on */
static void fill_repeated(gcn_diags *ds, unsigned n, uint64_t base)
{
    for (unsigned i = 0; i < n; i++) {
        gcn_diag d;
        memset(&d, 0, sizeof d);
        char msg[64];
        snprintf(msg, sizeof msg, "site 0x%llx needs 1 wait state", (unsigned long long)(base + 8 * i));
        d.input = d.file = "k.hsaco";
        d.kernel = "k";
        d.offset = base + 8 * i;
        d.addr = 0x1000 + d.offset;
        d.check = GCN_CHK_HAZARD;
        d.check_name = "hazard-salu-m0-read";
        d.severity = GCN_SEV_ERROR;
        d.msg = msg;
        d.rel_file = "k.hsaco";
        d.rel_offset = (int64_t)d.offset - 4;
        d.rel_addr = d.addr - 4;
        d.wait_offset = -1;
        gcn_diags_add(ds, &d);
    }
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
    CU_ASSERT_EQUAL(n, 6);
    json_t *run = json_array_get(json_object_get(root, "runs"), 0);
    json_t *res = json_object_get(run, "results");
    json_t *r0 = json_array_get(res, 0);
    json_t *pl = json_object_get(json_array_get(json_object_get(r0, "locations"), 0),
                                 "physicalLocation");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(pl, "region"), "startLine")), 12);
    CU_ASSERT_PTR_NOT_NULL(json_object_get(r0, "relatedLocations"));
    json_t *r1 = json_array_get(res, 1);
    pl = json_object_get(json_array_get(json_object_get(r1, "locations"), 0), "physicalLocation");
    CU_ASSERT_PTR_NULL(json_object_get(pl, "region"));
    json_t *ad = json_object_get(pl, "address");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(ad, "absoluteAddress")), 0x1040);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(ad, "offsetFromParent")), 0x40);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ad, "fullyQualifiedName")), "k+0x40");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(res, 3), "level")), "note");
    /* the function each location is in: run.addresses via parentIndex, and
     * the logical location; .text outside every symbol */
    json_t *addrs = json_object_get(run, "addresses");
    const char *want[6][2] = {{"k", "k+0x40"}, {"k", "k+0x40"}, {"k", "k+0x40"}, {"k", "k+0x40"},
                              {"helper", "helper+0x8"}, {".text", ".text+0x300"}};
    for (unsigned i = 0; i < 6; i++) {
        json_t *loc = json_array_get(json_object_get(json_array_get(res, i), "locations"), 0);
        json_t *a = json_object_get(json_object_get(loc, "physicalLocation"), "address");
        json_t *parent = json_array_get(addrs, (size_t)json_integer_value(json_object_get(a, "parentIndex")));
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(parent, "name")), want[i][0]);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a, "fullyQualifiedName")), want[i][1]);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(parent, "absoluteAddress")) +
                        json_integer_value(json_object_get(a, "offsetFromParent")),
                        json_integer_value(json_object_get(a, "absoluteAddress")));
        json_t *ll = json_array_get(json_object_get(loc, "logicalLocations"), 0);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ll, "name")), want[i][0]);
    }
    CU_ASSERT_EQUAL(json_array_size(addrs), 3);   /* k, helper, .text: one entry each */
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
    CU_ASSERT_EQUAL(json_array_size(fs), 6);
    json_t *f0 = json_array_get(fs, 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(f0, "line")), 12);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "offset")), "0x40");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "check")), "pending-read");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(f0, "producer"),
                                                             "offset")), "0x30");
    CU_ASSERT(json_is_null(json_object_get(json_array_get(fs, 1), "line")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "location")), "k+0x40");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "address")), "0x1040");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(f0, "producer"),
                                                             "location")), "k+0x30");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fs, 4), "location")),
                           "helper+0x8");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fs, 5), "location")),
                           ".text+0x300");
    json_decref(root);
    gcn_diags_free(&ds);
}

/* text of the diagnostics, in a string the caller frees */
static char *text_of(const gcn_diags *ds)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gcn_report_text(f, ds, false);
    fclose(f);
    return buf;
}

static void test_text_locations(void)
{
    gcn_diags ds = {0};
    fill(&ds);
    char *t = text_of(&ds);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "k.s:12: error: v_add_f32 reads v1 while ... [pending-read]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "k.hsaco:0: warning: k+0x40: v_add_f32 reads v1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "k.hsaco:0: error: helper+0x8: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "k.hsaco:0: error: .text+0x300: "));
    free(t);
    gcn_diags_free(&ds);
}

static void test_group(void)
{
    gcn_diags ds = {0};
    /* below the threshold: unchanged */
    fill_repeated(&ds, 2, 0x100);
    CU_ASSERT_EQUAL(gcn_diags_group(&ds, 0, GCN_GROUP_MIN_SITES), 0);
    CU_ASSERT_EQUAL(ds.n, 2);
    gcn_diags_free(&ds);
    /* another check between the sites stays where it is */
    fill_repeated(&ds, 5, 0x100);
    gcn_diag other = ds.d[2];
    other.check = GCN_CHK_PENDING_READ;
    other.check_name = "pending-read";
    other.msg = "other";
    other.offset = 0x111;
    other.sites = NULL;
    other.nsites = 0;
    gcn_diags_add(&ds, &other);
    gcn_diag tmp = ds.d[5];
    memmove(&ds.d[3], &ds.d[2], sizeof tmp * 3);
    ds.d[2] = tmp;
    fill_repeated(&ds, 10, 0x200);
    CU_ASSERT_EQUAL(ds.n, 16);
    CU_ASSERT_EQUAL(gcn_diags_group(&ds, 0, GCN_GROUP_MIN_SITES), 0);
    CU_ASSERT_EQUAL_FATAL(ds.n, 2);
    CU_ASSERT_EQUAL(ds.d[0].nsites, 15);
    CU_ASSERT_STRING_EQUAL(ds.d[1].msg, "other");
    CU_ASSERT_EQUAL(ds.d[0].offset, 0x100);
    /* the sites in address order, each with its own message */
    CU_ASSERT_EQUAL(ds.d[0].sites[0].offset, 0x100);
    CU_ASSERT_STRING_EQUAL(ds.d[0].sites[0].msg, "site 0x100 needs 1 wait state");
    CU_ASSERT_STRING_EQUAL(ds.d[0].sites[14].msg, "site 0x248 needs 1 wait state");
    const char *m = ds.d[0].msg;
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "site 0x100 needs 1 wait state; the same rule is broken at 14 "
                                     "more sites in this kernel: +0x108, +0x110, +0x118, +0x120, "
                                     "+0x200, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, ", ... (6 more; --no-group lists each)"));
    /* JSON: the count and every site; SARIF: every site a related location */
    json_t *root = render(0, &ds);
    json_t *f0 = json_array_get(json_object_get(root, "findings"), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(f0, "count")), 15);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(f0, "sites")), 15);
    json_decref(root);
    root = render(1, &ds);
    unsigned n = 0;
    CU_ASSERT(validate_sarif(root, &n));
    CU_ASSERT_EQUAL(n, 2);
    json_t *r0 = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0),
                                                "results"), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(r0, "relatedLocations")), 16);  /* + producer */
    json_decref(root);
    /* copies keep the sites */
    gcn_diags cp = {0};
    gcn_diags_add(&cp, &ds.d[0]);
    CU_ASSERT_EQUAL(cp.d[0].nsites, 15);
    CU_ASSERT_STRING_EQUAL(cp.d[0].sites[14].msg, "site 0x248 needs 1 wait state");
    gcn_diags_free(&cp);
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
    CU_add_test(s, "text: file:0: severity: symbol+0xOFF:", test_text_locations);
    CU_add_test(s, "grouped findings", test_group);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}

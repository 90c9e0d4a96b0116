/*
 * test_registry.c -- the simulator's dispatch table against the ISA table:
 * every registered body names an ISA row (no typos, no stale names), no row
 * has two bodies, and every row has either a body or an explicit
 * not-simulated reason (src/sim/notsim.c), so no instruction can be a silent
 * no-op.  Also: executing an unsimulated row faults with its mnemonic.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim_int.h"

static void test_registry(void)
{
    unsigned bad = gcn_sim_check_registry(stderr);
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_counts(void)
{
    unsigned body = 0, notsim = 0;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        if (sim_body_of(id) != sim_body_unsimulated)
            body++;
        else
            notsim++;
    }
    printf("\n  %u rows: %u with a semantic body, %u marked not simulated\n",
           GCN_ID_COUNT - 1, body, notsim);
    CU_ASSERT(body > 0);
}

static void test_unsimulated_faults(void)
{
    /* find a row without a body and run it on a bare wave */
    unsigned id = 0;
    for (unsigned i = 1; i < GCN_ID_COUNT && !id; i++)
        if (sim_body_of(i) == sim_body_unsimulated)
            id = i;
    if (!id)
        return;
    gcn_sim_opts o = {.target = GCN_TARGET_GFX942};
    gcn_sim *s = gcn_sim_new(&o);
    sim_wave *w = sim_wave_new(16, 16);
    gcn_insn in;
    memset(&in, 0, sizeof in);
    in.id = (uint16_t)id;
    in.size = 4;
    sim_insn si;
    sim_predecode(&si, &in, NULL, 16, 16);
    sim_x x;
    memset(&x, 0, sizeof x);
    CU_ASSERT(sim_exec_one(s, w, NULL, &si, &x) != 0);
    CU_ASSERT(strstr(s->fault, gcn_isa_row_of(id)->mnem) != NULL);
    CU_ASSERT(strstr(s->fault, "not simulated") != NULL);
    free(si.text);
    sim_wave_free(w);
    gcn_sim_free(s);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("registry", NULL, NULL);
    CU_add_test(s, "every row has a body or a not-simulated reason", test_registry);
    CU_add_test(s, "body counts", test_counts);
    CU_add_test(s, "unsimulated rows fault naming the instruction", test_unsimulated_faults);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}

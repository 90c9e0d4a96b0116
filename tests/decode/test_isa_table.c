/*
 * test_isa_table.c -- build-time checks of the one ISA table: no two rows
 * collide on (family, opcode, target), every row has a mnemonic, a known
 * family and unit, and the opcode lookup returns each row for its opcodes.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>
#include "gcn_isa.h"

static void test_no_collisions(void)
{
    static const gcn_target tg[2] = {GCN_TARGET_GFX942, GCN_TARGET_GFX950};
    for (int ti = 0; ti < 2; ti++) {
        for (unsigned a = 1; a < GCN_ID_COUNT; a++) {
            const gcn_isa_row *ra = gcn_isa_row_of(a);
            if (ra->op[ti] == NONE)
                continue;
            for (unsigned b = a + 1; b < GCN_ID_COUNT; b++) {
                const gcn_isa_row *rb = gcn_isa_row_of(b);
                if (rb->fmt == ra->fmt && rb->op[ti] == ra->op[ti]) {
                    fprintf(stderr, "collision on %s: %s and %s (%s op 0x%x)\n",
                            gcn_target_name(tg[ti]), ra->id_name, rb->id_name,
                            gcn_fmt_name((gcn_fmt)ra->fmt), ra->op[ti]);
                    CU_FAIL("opcode collision");
                }
            }
        }
    }
}

static void test_rows_complete(void)
{
    static const gcn_target tg[2] = {GCN_TARGET_GFX942, GCN_TARGET_GFX950};
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        CU_ASSERT_PTR_NOT_NULL(r->mnem);
        CU_ASSERT(r->mnem && r->mnem[0]);
        CU_ASSERT(r->fmt > GCN_FMT_INVALID && r->fmt < GCN_FMT_COUNT);
        CU_ASSERT(r->unit != GCN_UNIT_NONE);
        CU_ASSERT(r->op[0] != NONE || r->op[1] != NONE);
        for (int ti = 0; ti < 2; ti++) {
            if (r->op[ti] == NONE)
                continue;
            CU_ASSERT(r->op[ti] < gcn_isa_opcode_space((gcn_fmt)r->fmt));
            if (!(r->flags & GCN_F_VOP3_ONLY) &&
                gcn_isa_lookup(tg[ti], (gcn_fmt)r->fmt, r->op[ti]) != id) {
                fprintf(stderr, "lookup of %s on %s fails\n", r->id_name, gcn_target_name(tg[ti]));
                CU_FAIL("lookup");
            }
        }
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("isa_table", NULL, NULL);
    CU_add_test(s, "no opcode collisions", test_no_collisions);
    CU_add_test(s, "rows complete", test_rows_complete);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}

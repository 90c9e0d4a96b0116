/*
 * compare.h -- comparing a device run's dumps with gcnsim's (docs/gcnrun.md
 * "Comparison rules"): element types, distance in units in the last place
 * for the results the ISA leaves approximate, the first differing element,
 * and the approximate (transcendental) instructions a kernel contains.
 */
#ifndef GCN_RUN_COMPARE_H
#define GCN_RUN_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "gcn_codeobj.h"

typedef enum gcn_cmp_type {
    GCN_CMP_U8 = 0, GCN_CMP_U16, GCN_CMP_U32, GCN_CMP_U64,
    GCN_CMP_F16, GCN_CMP_BF16, GCN_CMP_F32, GCN_CMP_F64,
} gcn_cmp_type;

/* "f32" -> GCN_CMP_F32; -1 when unknown. */
int gcn_cmp_type_from_name(const char *name);
const char *gcn_cmp_type_name(gcn_cmp_type t);
unsigned gcn_cmp_type_size(gcn_cmp_type t);
int gcn_cmp_type_is_float(gcn_cmp_type t);

/* Distance of two float bit patterns of type t in ulps along the ordered
 * number line (+0 and -0 are the same point).  Two NaNs are 0 apart; a NaN or
 * infinity against anything but itself (resp. another NaN) is UINT64_MAX.
 * Integer types: 0 when equal, else UINT64_MAX. */
uint64_t gcn_cmp_ulp(gcn_cmp_type t, uint64_t a, uint64_t b);

/* Text of one element: "0x3f800000 (1)" for floats, "0x0000002a (42)" else. */
void gcn_cmp_format(gcn_cmp_type t, uint64_t bits, char *out, size_t n);

enum { GCN_CMP_SAME = 0, GCN_CMP_WITHIN, GCN_CMP_DIFF };

typedef struct gcn_cmp_result {
    int verdict;              /* GCN_CMP_SAME, WITHIN (all differences <= ulp), DIFF */
    gcn_cmp_type type;
    uint64_t nelems;          /* elements compared (a partial last element counts) */
    uint64_t ndiff;           /* elements whose bits differ */
    uint64_t nbeyond;         /* elements beyond the tolerance */
    uint64_t max_ulp;         /* largest distance seen among differing elements */
    int has_first;
    uint64_t first_index;     /* first element beyond the tolerance (or first differing) */
    uint64_t first_a, first_b;/* its bits in a and in b */
    uint64_t first_ulp;
} gcn_cmp_result;

/* Compare two equally long byte arrays as elements of type t; ulp = 0 is a
 * bit-exact comparison.  A trailing partial element is compared as bytes. */
void gcn_cmp_bytes(const uint8_t *a, const uint8_t *b, size_t len, gcn_cmp_type t, uint64_t ulp,
                   gcn_cmp_result *r);

/* Mnemonics of the approximate instructions (ISA rows with GCN_F_TRANS:
 * v_exp/log/rcp/rsq/sqrt/sin/cos in f16/f32/f64 forms) in kernel k's code,
 * space separated and sorted, into out ("" when none).  Returns the count. */
unsigned gcn_cmp_approx_insns(const gcn_codeobj *co, const gcn_kernel *k, char *out, size_t n);

#endif

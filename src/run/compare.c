/*
 * compare.c -- element-wise comparison of two dumps (a device run against
 * gcnsim), ulp distances for the results the ISA leaves approximate, and the
 * scan of a kernel for its approximate instructions (ISA rows flagged
 * GCN_F_TRANS).  See compare.h and docs/gcnrun.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/compare.h"
#include "gcn_decode.h"
#include "gcn_isa.h"
#include "sim/fp.h"

static const char *const type_names[] = {"u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64"};
static const unsigned type_sizes[] = {1, 2, 4, 8, 2, 2, 4, 8};

int gcn_cmp_type_from_name(const char *name)
{
    for (int i = 0; i < (int)(sizeof type_names / sizeof *type_names); i++)
        if (!strcmp(name, type_names[i]))
            return i;
    return -1;
}

const char *gcn_cmp_type_name(gcn_cmp_type t)
{
    return type_names[t];
}

unsigned gcn_cmp_type_size(gcn_cmp_type t)
{
    return type_sizes[t];
}

int gcn_cmp_type_is_float(gcn_cmp_type t)
{
    return t >= GCN_CMP_F16;
}

/* exponent mask, total bits */
static void float_shape(gcn_cmp_type t, uint64_t *expmask, unsigned *bits)
{
    switch (t) {
    case GCN_CMP_F16: *expmask = 0x7c00; *bits = 16; break;
    case GCN_CMP_BF16: *expmask = 0x7f80; *bits = 16; break;
    case GCN_CMP_F32: *expmask = 0x7f800000; *bits = 32; break;
    default: *expmask = 0x7ff0000000000000ull; *bits = 64; break;
    }
}

uint64_t gcn_cmp_ulp(gcn_cmp_type t, uint64_t a, uint64_t b)
{
    if (a == b)
        return 0;
    if (!gcn_cmp_type_is_float(t))
        return UINT64_MAX;
    uint64_t em;
    unsigned bits;
    float_shape(t, &em, &bits);
    uint64_t sign = 1ull << (bits - 1), mag = sign - 1;
    int a_special = (a & em) == em, b_special = (b & em) == em;
    if (a_special || b_special) {
        int a_nan = a_special && (a & mag & ~em), b_nan = b_special && (b & mag & ~em);
        return a_nan && b_nan ? 0 : UINT64_MAX;
    }
    /* ordered keys: -0 and +0 both map to `sign` */
    uint64_t ka = (a & sign) ? sign - (a & mag) : sign + (a & mag);
    uint64_t kb = (b & sign) ? sign - (b & mag) : sign + (b & mag);
    return ka > kb ? ka - kb : kb - ka;
}

void gcn_cmp_format(gcn_cmp_type t, uint64_t bits, char *out, size_t n)
{
    unsigned digits = type_sizes[t] * 2;
    switch (t) {
    case GCN_CMP_F16:
        snprintf(out, n, "0x%0*llx (%.6g)", digits, (unsigned long long)bits,
                 (double)fp_h2f((uint16_t)bits));
        break;
    case GCN_CMP_BF16:
        snprintf(out, n, "0x%0*llx (%.4g)", digits, (unsigned long long)bits,
                 (double)fp_bf2f((uint16_t)bits));
        break;
    case GCN_CMP_F32:
        snprintf(out, n, "0x%0*llx (%.9g)", digits, (unsigned long long)bits,
                 (double)fp_u2f((uint32_t)bits));
        break;
    case GCN_CMP_F64: {
        double d;
        memcpy(&d, &bits, 8);
        snprintf(out, n, "0x%0*llx (%.17g)", digits, (unsigned long long)bits, d);
        break;
    }
    default:
        snprintf(out, n, "0x%0*llx (%llu)", digits, (unsigned long long)bits,
                 (unsigned long long)bits);
        break;
    }
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void gcn_cmp_bytes(const uint8_t *a, const uint8_t *b, size_t len, gcn_cmp_type t, uint64_t ulp,
                   gcn_cmp_result *r)
{
    memset(r, 0, sizeof *r);
    r->type = t;
    unsigned es = type_sizes[t];
    r->nelems = (len + es - 1) / es;
    for (size_t off = 0; off < len; off += es) {
        unsigned n = len - off < es ? (unsigned)(len - off) : es;
        if (!memcmp(a + off, b + off, n))
            continue;
        uint64_t va = load_le(a + off, n), vb = load_le(b + off, n);
        uint64_t d = n == es ? gcn_cmp_ulp(t, va, vb) : UINT64_MAX;
        r->ndiff++;
        if (d > r->max_ulp)
            r->max_ulp = d;
        int beyond = d > ulp;
        if (beyond)
            r->nbeyond++;
        /* the first element beyond the tolerance; failing that the first differing one */
        if (!r->has_first || (beyond && r->nbeyond == 1)) {
            r->has_first = 1;
            r->first_index = off / es;
            r->first_a = va;
            r->first_b = vb;
            r->first_ulp = d;
        }
    }
    r->verdict = !r->ndiff ? GCN_CMP_SAME : r->nbeyond ? GCN_CMP_DIFF : GCN_CMP_WITHIN;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

unsigned gcn_cmp_approx_insns(const gcn_codeobj *co, const gcn_kernel *k, char *out, size_t n)
{
    out[0] = 0;
    uint64_t start = k->entry_addr, end = k->code_size ? start + k->code_size : 0;
    if (!end)
        for (unsigned i = 0; i < co->nregions; i++)
            if (co->regions[i].start <= start && start < co->regions[i].end)
                end = co->regions[i].end;
    if (!end || start < co->text_addr)
        return 0;
    if (end > co->text_addr + co->text_size)
        end = co->text_addr + co->text_size;
    gcn_decoder d = {.target = co->target};
    const char *seen[64];
    unsigned nseen = 0;
    for (uint64_t pc = start; pc < end;) {
        gcn_insn in;
        size_t sz = gcn_decode_one(&d, co->text + (pc - co->text_addr), (size_t)(end - pc), pc, &in);
        if (!sz)
            break;
        pc += sz;
        const gcn_isa_row *row = gcn_isa_row_of(in.id);
        if (in.id == GCN_ID_INVALID || !(row->flags & GCN_F_TRANS))
            continue;
        int dup = 0;
        for (unsigned i = 0; i < nseen; i++)
            if (!strcmp(seen[i], row->mnem))
                dup = 1;
        if (!dup && nseen < 64)
            seen[nseen++] = row->mnem;
    }
    qsort(seen, nseen, sizeof *seen, cmp_str);
    for (unsigned i = 0; i < nseen; i++) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", i ? " " : "", seen[i]);
    }
    return nseen;
}

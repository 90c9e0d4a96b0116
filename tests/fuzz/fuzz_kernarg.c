/*
 * fuzz_kernarg.c -- libFuzzer target for the kernarg builder (kernarg.c):
 * a kernel's metadata (argument offsets, sizes and value kinds, the segment
 * sizes, with or without a metadata note) and a manifest's arguments, grid
 * and block are made from the input bytes, and gcn_kernarg_build must
 * accept exactly when the documented rules say so (as many explicit
 * arguments as the manifest gives, each of the manifest's size, buffers
 * only where a pointer goes, a segment of at most GCN_KERNARG_MAX bytes)
 * and then put every argument that overlaps no other at its offset with
 * its bytes: explicit values, buffer addresses, and the hidden arguments
 * the HIP runtime fills (block counts, group sizes, grid dimensions,
 * dynamic LDS size, aperture bases, zero for the rest).
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

typedef struct rd {
    const uint8_t *p;
    size_t n;
} rd;
static uint64_t take(rd *r, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)(r->n ? *r->p : 0) << (8 * i);
        if (r->n) {
            r->p++;
            r->n--;
        }
    }
    return v;
}

static const char *const kinds[] = {
    "by_value", "global_buffer", "dynamic_shared_pointer", "image", NULL,
    "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
    "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
    "hidden_remainder_x", "hidden_grid_dims", "hidden_dynamic_lds_size",
    "hidden_shared_base", "hidden_private_base", "hidden_printf_buffer",
    "hidden_hostcall_buffer", "hidden_", "hidden_global_offset_x"};
#define NKINDS (sizeof kinds / sizeof *kinds)

static unsigned asize(gcn_mf_argkind k)
{
    return k == GCN_MF_ARG_U32 || k == GCN_MF_ARG_I32 || k == GCN_MF_ARG_F32 ? 4 : 8;
}
static int hidden(const char *vk)
{
    return vk && !strncmp(vk, "hidden_", 7);
}

/* The bytes an argument must have. */
static uint64_t explicit_bits(const gcn_mf_arg *a, const uint64_t *addr)
{
    uint64_t v = 0;
    if (a->kind == GCN_MF_ARG_BUFFER)
        return addr[a->buf];
    if (a->kind == GCN_MF_ARG_F32) {
        float f = (float)a->fval;
        memcpy(&v, &f, 4);
        return v;
    }
    if (a->kind == GCN_MF_ARG_F64) {
        memcpy(&v, &a->fval, 8);
        return v;
    }
    return (uint64_t)a->ival;
}
static uint64_t hidden_value(const char *vk, const gcn_manifest *m)
{
    const char *h = vk + 7;
    unsigned dims = m->grid[2] * m->block[2] > 1 ? 3 : m->grid[1] * m->block[1] > 1 ? 2 : 1;
    if (!strcmp(h, "block_count_x")) return m->grid[0];
    if (!strcmp(h, "block_count_y")) return m->grid[1];
    if (!strcmp(h, "block_count_z")) return m->grid[2];
    if (!strcmp(h, "group_size_x")) return m->block[0];
    if (!strcmp(h, "group_size_y")) return m->block[1];
    if (!strcmp(h, "group_size_z")) return m->block[2];
    if (!strcmp(h, "grid_dims")) return dims;
    if (!strcmp(h, "dynamic_lds_size")) return m->dynamic_lds;
    if (!strcmp(h, "shared_base")) return 0x00010000u;
    if (!strcmp(h, "private_base")) return 0x00020000u;
    return 0;
}
static int same_bytes(const uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (p[i] != (uint8_t)(v >> (8 * i)))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, size};
    unsigned flags = (unsigned)take(&r, 1);
    gcn_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "fuzz";
    k.has_metadata = flags & 1;
    /* sizes: small mostly, now and then up to 16 MiB to reach the limit */
    unsigned big = (flags & 0x80) ? 3 : 2;
    k.kd.kernarg_size = (uint32_t)take(&r, big);
    k.md_kernarg_segment_size = (uint32_t)take(&r, big);
    unsigned nmd = (unsigned)take(&r, 1) % 24, nman = (unsigned)take(&r, 1) % 24;
    gcn_kernarg md[24];
    for (unsigned i = 0; i < nmd; i++) {
        md[i].name = (flags & 2) ? "arg" : NULL;
        md[i].address_space = NULL;
        md[i].value_kind = (char *)kinds[take(&r, 1) % NKINDS];
        md[i].offset = (uint32_t)take(&r, (flags & 0x40) ? 3 : 1);
        md[i].size = (uint32_t)take(&r, 1) % 17;
    }
    k.args = md;
    k.nargs = k.has_metadata ? nmd : 0;

    gcn_manifest m;
    memset(&m, 0, sizeof m);
    m.path = "fuzz.json";
    gcn_mf_arg args[24];
    uint64_t addr[4];
    for (unsigned i = 0; i < 4; i++)
        addr[i] = 0x0000100000000000ull + 0x10000ull * i + take(&r, 1);
    m.nbufs = 4;
    for (unsigned i = 0; i < nman; i++) {
        memset(&args[i], 0, sizeof args[i]);
        args[i].kind = (gcn_mf_argkind)(take(&r, 1) % 7);
        uint64_t bits = take(&r, 8);
        if (args[i].kind == GCN_MF_ARG_BUFFER) {
            args[i].buf = (unsigned)(bits % 4);
        } else if (args[i].kind == GCN_MF_ARG_F32 || args[i].kind == GCN_MF_ARG_F64) {
            double d;
            memcpy(&d, &bits, 8);
            /* the manifest refuses f32 values beyond FLT_MAX */
            if (args[i].kind == GCN_MF_ARG_F32 && (d > FLT_MAX || d < -FLT_MAX))
                d = 0;
            args[i].fval = d;
        } else {
            args[i].ival = (int64_t)bits;
        }
    }
    m.args = args;
    m.nargs = nman;
    for (int i = 0; i < 3; i++) {
        m.grid[i] = (uint32_t)take(&r, 4);
        m.block[i] = (uint32_t)take(&r, 2);
    }
    m.dynamic_lds = (uint32_t)take(&r, 3);

    /* what the rules say */
    int with_md = k.has_metadata && k.nargs;
    size_t seg = k.kd.kernarg_size;
    if (k.has_metadata && k.md_kernarg_segment_size > seg)
        seg = k.md_kernarg_segment_size;
    size_t need = 0;
    int accept = 1;
    if (!with_md) {
        for (unsigned i = 0; i < nman; i++) {
            unsigned s = asize(args[i].kind);
            need = (need + s - 1) / s * s + s;
        }
        if (k.has_metadata && nman)
            accept = 0;
    } else {
        unsigned e = 0;
        for (unsigned i = 0; i < nmd; i++) {
            if ((size_t)md[i].offset + md[i].size > need)
                need = (size_t)md[i].offset + md[i].size;
            if (hidden(md[i].value_kind))
                continue;
            if (e >= nman) {
                accept = 0;
                e++;
                continue;
            }
            const char *vk = md[i].value_kind ? md[i].value_kind : "by_value";
            if (md[i].size != asize(args[e].kind) ||
                (args[e].kind == GCN_MF_ARG_BUFFER && strcmp(vk, "global_buffer") &&
                 strcmp(vk, "by_value") && strcmp(vk, "dynamic_shared_pointer")))
                accept = 0;
            e++;
        }
        if (e != nman)
            accept = 0;
    }
    if (need > seg)
        seg = need;
    if (seg > GCN_KERNARG_MAX)
        accept = 0;

    uint8_t *ka = (uint8_t *)1;
    size_t kalen = 12345;
    char err[1024];
    err[0] = 0;
    int rc = gcn_kernarg_build(&m, &k, addr, &ka, &kalen, err, sizeof err);
    if ((rc == 0) != accept) {
        fprintf(stderr, "gcn_kernarg_build rc %d (%s), the rules say %s\n", rc, err,
                accept ? "accept" : "refuse");
        abort();
    }
    if (rc) {
        CHECK(ka == NULL && kalen == 0 && err[0]);
        return 0;
    }
    CHECK(ka != NULL && kalen == seg);
    if (!with_md) {
        size_t off = 0;
        for (unsigned i = 0; i < nman; i++) {
            unsigned s = asize(args[i].kind);
            off = (off + s - 1) / s * s;
            CHECK(same_bytes(ka + off, explicit_bits(&args[i], addr), s));
            off += s;
        }
    } else {
        unsigned e = 0;
        for (unsigned i = 0; i < nmd; i++) {
            int h = hidden(md[i].value_kind);
            const gcn_mf_arg *a = h ? NULL : &args[e++];
            unsigned n = h ? md[i].size : asize(a->kind);
            if (h && (!n || n > 8))
                continue;
            /* only an argument that no other one overlaps has a single writer */
            int alone = 1;
            for (unsigned j = 0; j < nmd && alone; j++)
                if (j != i && md[j].size && md[j].offset < md[i].offset + n &&
                    md[i].offset < md[j].offset + md[j].size)
                    alone = 0;
            if (!alone || !n)
                continue;
            uint64_t want = h ? hidden_value(md[i].value_kind, &m) : explicit_bits(a, addr);
            if (!same_bytes(ka + md[i].offset, want, n)) {
                fprintf(stderr, "argument %u (%s) at %u, %u bytes: wrong bytes\n", i,
                        md[i].value_kind ? md[i].value_kind : "(none)", md[i].offset, n);
                abort();
            }
        }
    }
    free(ka);
    return 0;
}

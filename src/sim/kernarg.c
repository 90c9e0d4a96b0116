/*
 * kernarg.c -- building the kernarg segment of a dispatch from a manifest and
 * the kernel's code-object metadata: explicit arguments at the metadata's
 * offsets (non-hidden entries of amdhsa.kernels[].args, in order), hidden
 * arguments filled the way the HIP runtime fills them for code object v5
 * (LLVM AMDGPUUsage.rst "Code Object V5 Metadata", hidden_* value kinds):
 * block counts, group sizes, remainders (0: whole workgroups), grid
 * dimensions, dynamic LDS size, aperture bases; pointers the simulator does
 * not provide (printf, hostcall, heap, queues) are 0.  Without metadata the
 * arguments are laid out in order at their natural alignment.  A segment of
 * more than GCN_KERNARG_MAX bytes is refused (a corrupt code object).
 * Library code shared by gcnsim and gcnrun.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"
#include "manifest.h"


static unsigned arg_size(const gcn_mf_arg *a)
{
    switch (a->kind) {
    case GCN_MF_ARG_U32: case GCN_MF_ARG_I32: case GCN_MF_ARG_F32: return 4;
    case GCN_MF_ARG_BYTES: return a->nbytes;
    default: return 8;
    }
}

/* Alignment in the natural layout (no metadata): the size, bytes at most 8-aligned. */
static unsigned arg_align(const gcn_mf_arg *a)
{
    unsigned s = arg_size(a);
    return a->kind != GCN_MF_ARG_BYTES ? s : s >= 8 ? 8 : s >= 4 ? 4 : s >= 2 ? 2 : 1;
}

static void put_arg(uint8_t *p, const gcn_mf_arg *a, const uint64_t *buf_addr)
{
    uint64_t v = 0;
    if (a->kind == GCN_MF_ARG_BYTES) {
        memcpy(p, a->bytes, a->nbytes);
        return;
    }
    switch (a->kind) {
    case GCN_MF_ARG_BUFFER: v = buf_addr ? buf_addr[a->buf] : 0; break;
    case GCN_MF_ARG_F32: { float f = (float)a->fval; memcpy(&v, &f, 4); break; }
    case GCN_MF_ARG_F64: memcpy(&v, &a->fval, 8); break;
    default: v = (uint64_t)a->ival; break;
    }
    memcpy(p, &v, arg_size(a));
}

static int is_hidden(const char *vk)
{
    return vk && !strncmp(vk, "hidden_", 7);
}

/* aperture bases the simulator uses (see sim_body.h) */
#define AP_SHARED_HI 0x00010000u
#define AP_PRIVATE_HI 0x00020000u

int gcn_kernarg_build(const gcn_manifest *m, const gcn_kernel *k, const uint64_t *buf_addr,
                      uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
    *out = NULL;
    *outlen = 0;
    size_t size = k->kd.kernarg_size;
    if (k->has_metadata && k->md_kernarg_segment_size > size)
        size = k->md_kernarg_segment_size;
    /* without metadata: natural layout */
    size_t need = 0;
    if (!k->has_metadata || !k->nargs) {
        for (unsigned i = 0; i < m->nargs; i++) {
            unsigned s = arg_size(&m->args[i]), al = arg_align(&m->args[i]);
            need = (need + al - 1) / al * al + s;
        }
        if (k->has_metadata && !k->nargs && m->nargs) {
            gcn_seterr(err, errlen, "kernel %s takes no arguments, %s gives %u", k->name,
                   gcn_mf_source(m), m->nargs);
            return -1;
        }
    } else {
        for (unsigned i = 0; i < k->nargs; i++)
            if ((size_t)k->args[i].offset + k->args[i].size > need)
                need = (size_t)k->args[i].offset + k->args[i].size;
    }
    if (need > size)
        size = need;
    /* offsets and sizes come from the code object: a corrupt one must not
     * make us allocate gigabytes (docs/reliability.md) */
    if (size > GCN_KERNARG_MAX) {
        gcn_seterr(err, errlen, "kernel %s: a kernarg segment of %zu bytes (the metadata's offsets and "
               "sizes) is more than the %u bytes accepted", k->name, size, GCN_KERNARG_MAX);
        return -1;
    }
    uint8_t *ka = calloc(1, size ? size : 1);
    if (!ka) {
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    if (!k->has_metadata || !k->nargs) {
        size_t off = 0;
        for (unsigned i = 0; i < m->nargs; i++) {
            unsigned s = arg_size(&m->args[i]), al = arg_align(&m->args[i]);
            off = (off + al - 1) / al * al;
            put_arg(ka + off, &m->args[i], buf_addr);
            off += s;
        }
        *out = ka;
        *outlen = size;
        return 0;
    }
    unsigned nexp = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        if (!is_hidden(k->args[i].value_kind))
            nexp++;
    if (nexp != m->nargs) {
        gcn_seterr(err, errlen, "kernel %s has %u explicit argument%s, %s gives %u", k->name,
               nexp, nexp == 1 ? "" : "s", gcn_mf_source(m), m->nargs);
        free(ka);
        return -1;
    }
    unsigned dims = m->grid[2] * m->block[2] > 1 ? 3 : m->grid[1] * m->block[1] > 1 ? 2 : 1;
    unsigned e = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        const gcn_kernarg *ma = &k->args[i];
        uint8_t *p = ka + ma->offset;
        const char *vk = ma->value_kind ? ma->value_kind : "by_value";
        if (!is_hidden(vk)) {
            const gcn_mf_arg *a = &m->args[e++];
            unsigned s = arg_size(a);
            if (ma->size != s) {
                static const char *const kn[] = {"buffer", "u32", "i32", "u64", "i64", "f32", "f64",
                                                  "bytes"};
                gcn_seterr(err, errlen, "kernel %s argument %u%s%s%s is %u bytes, %s gives a "
                       "%s (%u bytes)", k->name, e - 1, ma->name ? " (" : "",
                       ma->name ? ma->name : "", ma->name ? ")" : "", ma->size, gcn_mf_source(m),
                       kn[a->kind], s);
                free(ka);
                return -1;
            }
            if (a->kind == GCN_MF_ARG_BUFFER && strcmp(vk, "global_buffer") &&
                strcmp(vk, "by_value") && strcmp(vk, "dynamic_shared_pointer")) {
                gcn_seterr(err, errlen, "kernel %s argument %u has value kind %s, not a buffer", k->name,
                       e - 1, vk);
                free(ka);
                return -1;
            }
            put_arg(p, a, buf_addr);
            continue;
        }
        uint64_t v = 0;
        const char *h = vk + 7;
        if (!strcmp(h, "block_count_x")) v = m->grid[0];
        else if (!strcmp(h, "block_count_y")) v = m->grid[1];
        else if (!strcmp(h, "block_count_z")) v = m->grid[2];
        else if (!strcmp(h, "group_size_x")) v = m->block[0];
        else if (!strcmp(h, "group_size_y")) v = m->block[1];
        else if (!strcmp(h, "group_size_z")) v = m->block[2];
        else if (!strcmp(h, "grid_dims")) v = dims;
        else if (!strcmp(h, "dynamic_lds_size")) v = m->dynamic_lds;
        else if (!strcmp(h, "shared_base")) v = AP_SHARED_HI;
        else if (!strcmp(h, "private_base")) v = AP_PRIVATE_HI;
        else v = 0;   /* remainders (whole workgroups), offsets, unsupported pointers */
        if (ma->size && ma->size <= 8 && (size_t)ma->offset + ma->size <= size)
            memcpy(p, &v, ma->size);
    }
    *out = ka;
    *outlen = size;
    return 0;
}

int gcn_mf_check_args(const gcn_manifest *m, const gcn_kernel *k, const char *file, char *err,
                      size_t errlen)
{
    static const char *const kn[] = {"buffer", "u32", "i32", "u64", "i64", "f32", "f64", "bytes"};
    if (!k->has_metadata) {
        gcn_seterr(err, errlen, "%s: kernel %s has no argument metadata (.amdgpu_metadata), so its "
               "arguments cannot be checked against the manifest's", file, k->name);
        return -1;
    }
    unsigned nexp = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        if (!is_hidden(k->args[i].value_kind))
            nexp++;
    if (nexp != m->nargs) {
        gcn_seterr(err, errlen, "%s: kernel %s has %u explicit argument%s, the manifest %s gives %u",
               file, k->name, nexp, nexp == 1 ? "" : "s", m->path, m->nargs);
        return -1;
    }
    /* the manifest's arguments in order, each at the next offset aligned to its size
     * (the AMDGPU ABI's layout of scalars and pointers) */
    size_t off = 0;
    unsigned e = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        const gcn_kernarg *ma = &k->args[i];
        const char *vk = ma->value_kind ? ma->value_kind : "by_value";
        if (is_hidden(vk))
            continue;
        const gcn_mf_arg *a = &m->args[e];
        unsigned s = arg_size(a), al = arg_align(a);
        off = (off + al - 1) / al * al;
        const char *nm = ma->name ? ma->name : "";
        if (ma->size != s || ma->offset != off) {
            gcn_seterr(err, errlen, "%s: kernel %s argument %u%s%s%s is %u bytes at offset %u; the "
                   "manifest %s gives a %s, %u bytes at offset %zu", file, k->name, e,
                   *nm ? " (" : "", nm, *nm ? ")" : "", ma->size, ma->offset, m->path,
                   kn[a->kind], s, off);
            return -1;
        }
        if (a->kind == GCN_MF_ARG_BUFFER && strcmp(vk, "global_buffer") && strcmp(vk, "by_value") &&
            strcmp(vk, "dynamic_shared_pointer")) {
            gcn_seterr(err, errlen, "%s: kernel %s argument %u%s%s%s has value kind %s; the manifest %s "
                   "gives a buffer", file, k->name, e, *nm ? " (" : "", nm, *nm ? ")" : "", vk,
                   m->path);
            return -1;
        }
        if (a->kind != GCN_MF_ARG_BUFFER && !strcmp(vk, "global_buffer")) {
            gcn_seterr(err, errlen, "%s: kernel %s argument %u%s%s%s is a pointer (global_buffer); the "
                   "manifest %s gives a %s", file, k->name, e, *nm ? " (" : "", nm, *nm ? ")" : "",
                   m->path, kn[a->kind]);
            return -1;
        }
        off += s;
        e++;
    }
    return 0;
}

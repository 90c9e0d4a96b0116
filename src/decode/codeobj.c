/*
 * codeobj.c -- read an AMDGPU code object (.hsaco): the ELF header and the
 * target it names, the sections, symbols, every kernel's 64-byte kernel
 * descriptor, the NT_AMDGPU_METADATA msgpack note and (via dwarf.c) the line
 * table.  Offload bundles are unpacked first (bundle.c).
 *
 * Facts, from llvm/docs/AMDGPUUsage.rst ("ELF Code Object", "Kernel
 * Descriptor", "Code Object V5 Metadata") and LLVM's
 * llvm/BinaryFormat/ELF.h and llvm/Support/AMDHSAKernelDescriptor.h:
 *   e_machine EM_AMDGPU = 224; EI_OSABI ELFOSABI_AMDGPU_HSA = 64;
 *   EI_ABIVERSION 2, 3, 4 = code object v4, v5, v6;
 *   e_flags[7:0] EF_AMDGPU_MACH; v4+: [9:8] xnack, [11:10] sramecc
 *   (0 unsupported, 1 any, 2 off, 3 on); [31:24] generic version (v6);
 *   NT_AMDGPU_METADATA = 32 with owner "AMDGPU";
 *   kernel descriptor: symbol NAME.kd, STT_OBJECT, 64 bytes, layout below.
 *
 * Robustness: the input is untrusted.  Every offset and size is checked
 * against the file before it is used, the msgpack note is checked by a
 * bounded walk before msgpack-c sees it (so a forged element count cannot
 * make it allocate gigabytes), and every failure returns a message naming the
 * file and the problem.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <msgpack.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codeobj_int.h"

#define CO_EM_AMDGPU 224
#define CO_ELFOSABI_AMDGPU_HSA 64
#define CO_NT_AMDGPU_METADATA 32
#define CO_EF_MACH 0xffu
#define CO_MAX_FILE (1ull << 31)      /* 2 GiB: more is no code object */

typedef struct co_priv {
    uint8_t *image;       /* the ELF bytes: our copy, or inside map */
    size_t len;
    int image_owned;      /* image is malloc'ed (else it points into map) */
    void *map;            /* private mapping of the whole file (gcn_co_open_arch), or NULL */
    size_t maplen;
    gcn_strpool pool;     /* file names of the line table */
} co_priv;

/* ---- little-endian reads ------------------------------------------------ */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* ---- names -------------------------------------------------------------- */

/* EF_AMDGPU_MACH values (llvm/BinaryFormat/ELF.h, AMDGPUUsage "AMDGPU ELF
 * Header", table "AMDGPU EF_AMDGPU_MACH Values"). */
static const struct { unsigned mach; const char *name; } mach_names[] = {
    {0x020, "gfx600"}, {0x021, "gfx601"}, {0x022, "gfx700"}, {0x023, "gfx701"},
    {0x024, "gfx702"}, {0x025, "gfx703"}, {0x026, "gfx704"}, {0x028, "gfx801"},
    {0x029, "gfx802"}, {0x02a, "gfx803"}, {0x02b, "gfx810"}, {0x02c, "gfx900"},
    {0x02d, "gfx902"}, {0x02e, "gfx904"}, {0x02f, "gfx906"}, {0x030, "gfx908"},
    {0x031, "gfx909"}, {0x032, "gfx90c"}, {0x033, "gfx1010"}, {0x034, "gfx1011"},
    {0x035, "gfx1012"}, {0x036, "gfx1030"}, {0x037, "gfx1031"}, {0x038, "gfx1032"},
    {0x039, "gfx1033"}, {0x03a, "gfx602"}, {0x03b, "gfx705"}, {0x03c, "gfx805"},
    {0x03d, "gfx1035"}, {0x03e, "gfx1034"}, {0x03f, "gfx90a"}, {0x041, "gfx1100"},
    {0x042, "gfx1013"}, {0x043, "gfx1150"}, {0x044, "gfx1103"}, {0x045, "gfx1036"},
    {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x048, "gfx1200"}, {0x049, "gfx1250"},
    {0x04a, "gfx1151"}, {0x04c, "gfx942"}, {0x04e, "gfx1201"}, {0x04f, "gfx950"},
    {0x051, "gfx9-generic"}, {0x052, "gfx10-1-generic"}, {0x053, "gfx10-3-generic"},
    {0x054, "gfx11-generic"}, {0x055, "gfx1152"}, {0x058, "gfx1153"},
    {0x059, "gfx12-generic"}, {0x05a, "gfx1251"}, {0x05f, "gfx9-4-generic"},
};

const char *gcn_co_mach_name(unsigned mach)
{
    for (size_t i = 0; i < sizeof mach_names / sizeof mach_names[0]; i++)
        if (mach_names[i].mach == mach)
            return mach_names[i].name;
    return NULL;
}

const char *gcn_co_feat_name(unsigned mode)
{
    static const char *const n[] = {"unsupported", "any", "off", "on"};
    return n[mode & 3];
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case 3: return "x86";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 21: return "PowerPC64";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 190: return "NVIDIA CUDA";
    case 243: return "RISC-V";
    case 247: return "BPF";
    default: return NULL;
    }
}

/* ---- reading files ------------------------------------------------------ */

int gcn_co_read_file(const char *path, uint8_t **data, size_t *len, gcn_co_err *err)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gcn_co_fail(err, GCN_CO_EIO, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return gcn_co_fail(err, GCN_CO_EIO, path, "cannot stat: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return gcn_co_fail(err, GCN_CO_EIO, path, "is a directory, not a code object");
    }
    size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
    if ((uint64_t)cap > CO_MAX_FILE + 1) {
        close(fd);
        return gcn_co_fail(err, GCN_CO_EFORMAT, path, "file too large (%lld bytes) for a code object",
                       (long long)st.st_size);
    }
    uint8_t *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return gcn_co_fail(err, GCN_CO_ENOMEM, path, "out of memory");
    }
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            if (cap > CO_MAX_FILE) {
                free(buf);
                close(fd);
                return gcn_co_fail(err, GCN_CO_EFORMAT, path, "file too large for a code object");
            }
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                close(fd);
                return gcn_co_fail(err, GCN_CO_ENOMEM, path, "out of memory");
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return gcn_co_fail(err, GCN_CO_EIO, path, "read error: %s", strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    *data = buf;
    *len = n;
    return 0;
}

/* ---- kernel descriptor -------------------------------------------------- */

/* Layout: AMDGPUUsage "Kernel Descriptor" / AMDHSAKernelDescriptor.h:
 *   0 group_segment_fixed_size, 4 private_segment_fixed_size, 8 kernarg_size,
 *   16 kernel_code_entry_byte_offset (i64), 44 compute_pgm_rsrc3,
 *   48 compute_pgm_rsrc1, 52 compute_pgm_rsrc2, 56 kernel_code_properties,
 *   58 kernarg_preload. */
static uint32_t bits(uint32_t w, unsigned lo, unsigned width)
{
    return (w >> lo) & ((1u << width) - 1);
}

static void kd_decode(const uint8_t *b, gcn_kd *kd)
{
    memset(kd, 0, sizeof *kd);
    kd->group_segment_fixed_size = rd32(b + 0);
    kd->private_segment_fixed_size = rd32(b + 4);
    kd->kernarg_size = rd32(b + 8);
    kd->kernel_code_entry_byte_offset = (int64_t)rd64(b + 16);
    kd->compute_pgm_rsrc3 = rd32(b + 44);
    kd->compute_pgm_rsrc1 = rd32(b + 48);
    kd->compute_pgm_rsrc2 = rd32(b + 52);
    kd->kernel_code_properties = rd16(b + 56);
    kd->kernarg_preload = rd16(b + 58);

    uint32_t r1 = kd->compute_pgm_rsrc1, r2 = kd->compute_pgm_rsrc2, r3 = kd->compute_pgm_rsrc3;
    /* COMPUTE_PGM_RSRC1 */
    kd->vgpr_granules = bits(r1, 0, 6);
    kd->sgpr_granules = bits(r1, 6, 4);
    kd->priority = bits(r1, 10, 2);
    kd->float_round_mode_32 = bits(r1, 12, 2);
    kd->float_round_mode_16_64 = bits(r1, 14, 2);
    kd->float_denorm_mode_32 = bits(r1, 16, 2);
    kd->float_denorm_mode_16_64 = bits(r1, 18, 2);
    kd->priv = bits(r1, 20, 1);
    kd->dx10_clamp = bits(r1, 21, 1);
    kd->debug_mode = bits(r1, 22, 1);
    kd->ieee_mode = bits(r1, 23, 1);
    kd->fp16_overflow = bits(r1, 26, 1);
    /* gfx90a+: one unified VGPR file, allocated in granules of 8 (arch VGPRs
     * plus AGPRs); llvm-objdump prints .amdhsa_next_free_vgpr as this. */
    kd->next_free_vgpr = (kd->vgpr_granules + 1) * 8;
    /* GFX9 SGPRs: llvm-objdump prints (granules + 1) * 8. */
    kd->next_free_sgpr = (kd->sgpr_granules + 1) * 8;
    /* COMPUTE_PGM_RSRC2 */
    kd->enable_private_segment = bits(r2, 0, 1);
    kd->user_sgpr_count = bits(r2, 1, 5);
    kd->enable_trap_handler = bits(r2, 6, 1);
    kd->enable_sgpr_workgroup_id[0] = bits(r2, 7, 1);
    kd->enable_sgpr_workgroup_id[1] = bits(r2, 8, 1);
    kd->enable_sgpr_workgroup_id[2] = bits(r2, 9, 1);
    kd->enable_sgpr_workgroup_info = bits(r2, 10, 1);
    kd->enable_vgpr_workitem_id = bits(r2, 11, 2);
    kd->granulated_lds_size = bits(r2, 15, 9);
    kd->exception_mask = bits(r2, 24, 7);
    /* COMPUTE_PGM_RSRC3 (gfx90a layout) */
    kd->accum_offset = (bits(r3, 0, 6) + 1) * 4;
    kd->tg_split = bits(r3, 16, 1);
    /* kernel_code_properties */
    uint32_t p = kd->kernel_code_properties;
    kd->user_sgpr_private_segment_buffer = bits(p, 0, 1);
    kd->user_sgpr_dispatch_ptr = bits(p, 1, 1);
    kd->user_sgpr_queue_ptr = bits(p, 2, 1);
    kd->user_sgpr_kernarg_segment_ptr = bits(p, 3, 1);
    kd->user_sgpr_dispatch_id = bits(p, 4, 1);
    kd->user_sgpr_flat_scratch_init = bits(p, 5, 1);
    kd->user_sgpr_private_segment_size = bits(p, 6, 1);
    kd->enable_wavefront_size32 = bits(p, 10, 1);
    kd->uses_dynamic_stack = bits(p, 11, 1);
    /* kernarg_preload */
    kd->kernarg_preload_length = bits(kd->kernarg_preload, 0, 7);
    kd->kernarg_preload_offset = bits(kd->kernarg_preload, 7, 9);
}

/* ---- msgpack: bounded structural check ----------------------------------- */

#define MP_MAX_DEPTH 24

static uint64_t be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Walk one msgpack object at p[*pos..len) (msgpack spec: formats by first
 * byte).  Every length and element count is checked against the bytes that
 * remain (an element needs at least one byte), so the walk is linear in len
 * and allocates nothing.  No element may be nested deeper than
 * MP_MAX_DEPTH (the object itself is at depth 0).  A loop with a stack of
 * the elements each open container still holds: a large note (hundreds of
 * kernels, 500 KB) is walked in about 10 instructions a byte. */
static int mp_check(const uint8_t *p, size_t len, size_t *pos)
{
    uint64_t left[MP_MAX_DEPTH + 1];   /* elements still to walk at each depth */
    int d = 0;
    left[0] = 1;
    size_t at = *pos;
    for (;;) {
        while (left[d] == 0)
            if (--d < 0) {
                *pos = at;
                return 0;
            }
        left[d]--;
        if (at >= len)
            return -1;
        uint8_t t = p[at++];
        size_t rem = len - at;
        uint64_t skip = 0, elems = 0;
        unsigned lenbytes = 0, extra = 0;
        if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
            continue;                                /* fixint, nil, bool */
        if ((t & 0xf0) == 0x80) {                    /* fixmap */
            elems = 2ull * (t & 0x0f);
            goto open;
        }
        if ((t & 0xf0) == 0x90) {                    /* fixarray */
            elems = t & 0x0f;
            goto open;
        }
        if ((t & 0xe0) == 0xa0) {                    /* fixstr */
            skip = t & 0x1f;
            goto skipb;
        }
        switch (t) {
        case 0xcc: case 0xd0: skip = 1; goto skipb;  /* uint8, int8 */
        case 0xcd: case 0xd1: skip = 2; goto skipb;
        case 0xce: case 0xd2: case 0xca: skip = 4; goto skipb;
        case 0xcf: case 0xd3: case 0xcb: skip = 8; goto skipb;
        case 0xd4: skip = 2; goto skipb;             /* fixext 1..16: type + data */
        case 0xd5: skip = 3; goto skipb;
        case 0xd6: skip = 5; goto skipb;
        case 0xd7: skip = 9; goto skipb;
        case 0xd8: skip = 17; goto skipb;
        case 0xc4: case 0xd9: lenbytes = 1; break;   /* bin8, str8 */
        case 0xc5: case 0xda: lenbytes = 2; break;
        case 0xc6: case 0xdb: lenbytes = 4; break;
        case 0xc7: lenbytes = 1; extra = 1; break;   /* ext8: len, type, data */
        case 0xc8: lenbytes = 2; extra = 1; break;
        case 0xc9: lenbytes = 4; extra = 1; break;
        case 0xdc: case 0xdd:                        /* array16/32 */
        case 0xde: case 0xdf: {                      /* map16/32 */
            unsigned nb = (t == 0xdc || t == 0xde) ? 2 : 4;
            if (rem < nb)
                return -1;
            elems = be(p + at, nb) * (t >= 0xde ? 2 : 1);
            at += nb;
            rem -= nb;
            goto open;
        }
        default:
            return -1;                               /* 0xc1: never used */
        }
        if (rem < lenbytes)
            return -1;
        skip = be(p + at, lenbytes) + extra;
        at += lenbytes;
        rem -= lenbytes;
    skipb:
        if (skip > rem)
            return -1;
        at += (size_t)skip;
        continue;
    open:
        if (elems > rem)
            return -1;
        if (elems) {
            if (d == MP_MAX_DEPTH)
                return -1;                           /* its elements would be too deep */
            left[++d] = elems;
        }
    }
}

/* ---- metadata note ------------------------------------------------------ */

static int mp_is(const msgpack_object *o, const char *s)
{
    size_t n = strlen(s);
    return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n && !memcmp(o->via.str.ptr, s, n);
}

static char *mp_dup(const msgpack_object *o)
{
    char *c = malloc(o->via.str.size + 1);
    if (c) {
        memcpy(c, o->via.str.ptr, o->via.str.size);
        c[o->via.str.size] = 0;
    }
    return c;
}

typedef struct md_ctx {
    const char *name;      /* file, for messages */
    gcn_co_err *err;
    unsigned kidx;         /* kernel index in amdhsa.kernels, for messages */
} md_ctx;

static int md_u32(md_ctx *c, const msgpack_object *key, const msgpack_object *v, uint32_t *out)
{
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
        return gcn_co_fail(c->err, GCN_CO_EFORMAT, c->name,
                       "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] %.*s is not an unsigned "
                       "32-bit integer", c->kidx, (int)key->via.str.size, key->via.str.ptr);
    *out = (uint32_t)v->via.u64;
    return 0;
}

static int md_str(md_ctx *c, const msgpack_object *key, const msgpack_object *v, char **out)
{
    if (v->type != MSGPACK_OBJECT_STR)
        return gcn_co_fail(c->err, GCN_CO_EFORMAT, c->name,
                       "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] %.*s is not a string",
                       c->kidx, (int)key->via.str.size, key->via.str.ptr);
    free(*out);
    *out = mp_dup(v);
    if (!*out)
        return gcn_co_fail(c->err, GCN_CO_ENOMEM, c->name, "out of memory");
    return 0;
}

static int md_args(md_ctx *c, const msgpack_object *v, gcn_kernel *k)
{
    if (v->type != MSGPACK_OBJECT_ARRAY)
        return gcn_co_fail(c->err, GCN_CO_EFORMAT, c->name,
                       "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] .args is not an array",
                       c->kidx);
    uint32_t n = v->via.array.size;
    if (n == 0)
        return 0;
    gcn_kernarg *a = calloc(n, sizeof *a);
    if (!a)
        return gcn_co_fail(c->err, GCN_CO_ENOMEM, c->name, "out of memory");
    k->args = a;
    k->nargs = n;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *m = &v->via.array.ptr[i];
        if (m->type != MSGPACK_OBJECT_MAP)
            return gcn_co_fail(c->err, GCN_CO_EFORMAT, c->name,
                           "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] .args[%u] is not a map",
                           c->kidx, i);
        for (uint32_t j = 0; j < m->via.map.size; j++) {
            const msgpack_object *key = &m->via.map.ptr[j].key, *val = &m->via.map.ptr[j].val;
            int rc = 0;
            if (key->type != MSGPACK_OBJECT_STR)
                continue;
            if (mp_is(key, ".name"))
                rc = md_str(c, key, val, &a[i].name);
            else if (mp_is(key, ".value_kind"))
                rc = md_str(c, key, val, &a[i].value_kind);
            else if (mp_is(key, ".address_space"))
                rc = md_str(c, key, val, &a[i].address_space);
            else if (mp_is(key, ".offset"))
                rc = md_u32(c, key, val, &a[i].offset);
            else if (mp_is(key, ".size"))
                rc = md_u32(c, key, val, &a[i].size);
            else if (mp_is(key, ".type_name"))
                rc = md_str(c, key, val, &a[i].type_name);
            else if (mp_is(key, ".actual_access"))
                rc = md_str(c, key, val, &a[i].access);
            else if (mp_is(key, ".access") && !a[i].access)
                rc = md_str(c, key, val, &a[i].access);
            else if (mp_is(key, ".pointee_align"))
                rc = md_u32(c, key, val, &a[i].pointee_align);
            else if (mp_is(key, ".is_const"))
                a[i].is_const = val->type == MSGPACK_OBJECT_BOOLEAN && val->via.boolean;
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The kernels sorted by name (ties in kernel order), so that each metadata
 * entry finds its kernel by binary search instead of comparing every
 * kernel's name (objects with hundreds of kernels). */
typedef struct kname {
    const char *name;
    size_t len;
    unsigned i;             /* index in co->kernels */
} kname;

static int kname_key_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : al < bl ? -1 : al > bl;
}

static int kname_cmp(const void *a, const void *b)
{
    const kname *x = a, *y = b;
    int c = kname_key_cmp(x->name, x->len, y->name, y->len);
    return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* The index of co's kernels by name; NULL when out of memory (or none). */
static kname *kernel_names(const gcn_codeobj *co)
{
    kname *v = malloc((co->nkernels ? co->nkernels : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (unsigned i = 0; i < co->nkernels; i++)
        v[i] = (kname){co->kernels[i].name, strlen(co->kernels[i].name), i};
    qsort(v, co->nkernels, sizeof *v, kname_cmp);
    return v;
}

/* The first kernel (in kernel order) named s[0..n). */
static gcn_kernel *kernel_named(gcn_codeobj *co, const kname *v, const char *s, size_t n)
{
    unsigned lo = 0, hi = co->nkernels;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (kname_key_cmp(v[mid].name, v[mid].len, s, n) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < co->nkernels && !kname_key_cmp(v[lo].name, v[lo].len, s, n))
        return &co->kernels[v[lo].i];
    return NULL;
}

static gcn_kernel *find_kernel_for_md(gcn_codeobj *co, const kname *names,
                                      const msgpack_object *km)
{
    const msgpack_object *sym = NULL, *nm = NULL;
    for (uint32_t j = 0; j < km->via.map.size; j++) {
        const msgpack_object *key = &km->via.map.ptr[j].key, *val = &km->via.map.ptr[j].val;
        if (val->type != MSGPACK_OBJECT_STR)
            continue;
        if (mp_is(key, ".symbol"))
            sym = val;
        else if (mp_is(key, ".name"))
            nm = val;
    }
    if (sym) {          /* .symbol is NAME.kd */
        size_t n = sym->via.str.size;
        if (n >= 3 && !memcmp(sym->via.str.ptr + n - 3, ".kd", 3))
            return kernel_named(co, names, sym->via.str.ptr, n - 3);
        return NULL;
    }
    if (nm)
        return kernel_named(co, names, nm->via.str.ptr, nm->via.str.size);
    return NULL;
}

static int md_parse(gcn_codeobj *co, const char *name, const uint8_t *desc, size_t len,
                    gcn_co_err *err)
{
    size_t pos = 0;
    if (mp_check(desc, len, &pos) != 0)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "bad NT_AMDGPU_METADATA note: malformed or truncated msgpack (%zu bytes)",
                       len);
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    size_t off = 0;
    msgpack_unpack_return ur = msgpack_unpack_next(&up, (const char *)desc, len, &off);
    if (ur != MSGPACK_UNPACK_SUCCESS && ur != MSGPACK_UNPACK_EXTRA_BYTES) {
        msgpack_unpacked_destroy(&up);
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "bad NT_AMDGPU_METADATA note: msgpack-c cannot unpack it (error %d)",
                       (int)ur);
    }
    int rc = 0;
    kname *names = kernel_names(co);
    if (!names) {
        rc = gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
        goto out;
    }
    const msgpack_object *root = &up.data;
    if (root->type != MSGPACK_OBJECT_MAP) {
        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name, "bad NT_AMDGPU_METADATA note: not a map");
        goto out;
    }
    for (uint32_t i = 0; i < root->via.map.size && rc == 0; i++) {
        const msgpack_object *key = &root->via.map.ptr[i].key, *val = &root->via.map.ptr[i].val;
        if (!mp_is(key, "amdhsa.kernels"))
            continue;
        if (val->type != MSGPACK_OBJECT_ARRAY) {
            rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                         "bad NT_AMDGPU_METADATA note: amdhsa.kernels is not an array");
            break;
        }
        for (uint32_t ki = 0; ki < val->via.array.size && rc == 0; ki++) {
            const msgpack_object *km = &val->via.array.ptr[ki];
            md_ctx c = {name, err, ki};
            if (km->type != MSGPACK_OBJECT_MAP) {
                rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                             "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] is not a map", ki);
                break;
            }
            gcn_kernel *k = find_kernel_for_md(co, names, km);
            if (!k || k->has_metadata) {
                if (!co->warning[0])
                    snprintf(co->warning, sizeof co->warning,
                             "metadata kernel #%u has no kernel descriptor symbol", ki);
                continue;
            }
            k->has_metadata = 1;
            for (uint32_t j = 0; j < km->via.map.size && rc == 0; j++) {
                const msgpack_object *fk = &km->via.map.ptr[j].key, *fv = &km->via.map.ptr[j].val;
                if (fk->type != MSGPACK_OBJECT_STR)
                    continue;
                static const struct { const char *key; size_t off; } u32f[] = {
                    {".kernarg_segment_size", offsetof(gcn_kernel, md_kernarg_segment_size)},
                    {".group_segment_fixed_size", offsetof(gcn_kernel, md_group_segment_fixed_size)},
                    {".private_segment_fixed_size",
                     offsetof(gcn_kernel, md_private_segment_fixed_size)},
                    {".kernarg_segment_align", offsetof(gcn_kernel, md_kernarg_segment_align)},
                    {".wavefront_size", offsetof(gcn_kernel, md_wavefront_size)},
                    {".sgpr_count", offsetof(gcn_kernel, md_sgpr_count)},
                    {".vgpr_count", offsetof(gcn_kernel, md_vgpr_count)},
                    {".agpr_count", offsetof(gcn_kernel, md_agpr_count)},
                    {".max_flat_workgroup_size", offsetof(gcn_kernel, md_max_flat_workgroup_size)},
                };
                int done = 0;
                for (size_t f = 0; f < sizeof u32f / sizeof u32f[0]; f++)
                    if (mp_is(fk, u32f[f].key)) {
                        rc = md_u32(&c, fk, fv, (uint32_t *)((char *)k + u32f[f].off));
                        done = 1;
                        break;
                    }
                if (!done && mp_is(fk, ".args")) {
                    if (k->args) {
                        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                                     "bad NT_AMDGPU_METADATA note: amdhsa.kernels[%u] has two "
                                     ".args", ki);
                        break;
                    }
                    rc = md_args(&c, fv, k);
                } else if (!done && mp_is(fk, ".reqd_workgroup_size") &&
                           fv->type == MSGPACK_OBJECT_ARRAY && fv->via.array.size == 3) {
                    for (unsigned d = 0; d < 3 && rc == 0; d++)
                        rc = md_u32(&c, fk, &fv->via.array.ptr[d], &k->md_reqd_workgroup_size[d]);
                }
            }
        }
    }
out:
    free(names);
    msgpack_unpacked_destroy(&up);
    return rc;
}

/* ---- the ELF ------------------------------------------------------------ */

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static void elf_init(void) { (void)elf_version(EV_CURRENT); }

typedef struct sec {
    GElf_Shdr h;
    const char *name;
} sec;

void gcn_co_close(gcn_codeobj *co)
{
    if (!co)
        return;
    co_priv *p = co->priv;
    if (p) {
        if (p->image_owned)
            free(p->image);
        if (p->map)
            munmap(p->map, p->maplen);
        gcn_strpool_free(&p->pool);
        free(p);
    }
    free(co->syms);                     /* the names are in the same block */
    for (unsigned i = 0; i < co->nkernels; i++) {
        gcn_kernel *k = &co->kernels[i];
        free(k->name);
        for (unsigned j = 0; j < k->nargs; j++) {
            free(k->args[j].name);
            free(k->args[j].value_kind);
            free(k->args[j].address_space);
            free(k->args[j].type_name);
            free(k->args[j].access);
        }
        free(k->args);
    }
    free(co->kernels);
    free(co->lines);
    free(co->metadata_yaml);
    free(co->bundle_triple);
    free(co->regions);
    free(co->path);
    free(co);
}

/* Read one symbol table into syms[] (all entries but the null one). */
static int read_symtab(Elf *elf, const sec *secs, size_t nsec, size_t idx, const char *name,
                       gcn_symbol **out, unsigned *nout, unsigned **shndx, gcn_co_err *err)
{
    const sec *s = &secs[idx];
    *out = NULL;
    *nout = 0;
    *shndx = NULL;
    if (s->h.sh_entsize != sizeof(Elf64_Sym))
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "symbol table %s has entry size %llu (expected %zu)",
                       s->name, (unsigned long long)s->h.sh_entsize, sizeof(Elf64_Sym));
    if (s->h.sh_link == 0 || s->h.sh_link >= nsec || secs[s->h.sh_link].h.sh_type != SHT_STRTAB)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "symbol table %s has no valid string table",
                       s->name);
    Elf_Scn *scn = elf_getscn(elf, idx);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    if (!d || !d->d_buf)
        return s->h.sh_size ? gcn_co_fail(err, GCN_CO_EFORMAT, name, "cannot read symbol table %s: %s",
                                      s->name, elf_errmsg(-1))
                            : 0;
    size_t n = d->d_size / sizeof(Elf64_Sym);
    if (n <= 1)
        return 0;
    /* One block: the symbols, then a copy of their string table that the
     * names point into (gcn_co_close frees the block).  A name must start
     * in the table and end with a NUL there, as elf_strptr() demands. */
    Elf_Scn *sscn = elf_getscn(elf, s->h.sh_link);
    Elf_Data *sd = sscn ? elf_getdata(sscn, NULL) : NULL;
    size_t slen = sd && sd->d_buf ? sd->d_size : 0, last_nul = 0;
    int has_nul = 0;
    for (size_t i = slen; i-- > 0;)
        if (((const char *)sd->d_buf)[i] == 0) {
            last_nul = i;
            has_nul = 1;
            break;
        }
    gcn_symbol *syms = malloc((n - 1) * sizeof *syms + slen + 1);
    unsigned *sx = calloc(n - 1, sizeof *sx);
    if (!syms || !sx) {
        free(syms);
        free(sx);
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    }
    char *strs = (char *)(syms + (n - 1));
    if (slen)
        memcpy(strs, sd->d_buf, slen);
    strs[slen] = 0;
    unsigned k = 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym))
            break;
        if (!has_nul || sym.st_name > last_nul) {
            free(syms);
            free(sx);
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "symbol %zu of %s has a name outside its string table", i, s->name);
        }
        syms[k].name = strs + sym.st_name;
        syms[k].value = sym.st_value;
        syms[k].size = sym.st_size;
        syms[k].type = GELF_ST_TYPE(sym.st_info);
        syms[k].shndx = sym.st_shndx;
        sx[k] = sym.st_shndx;
        k++;
    }
    *out = syms;
    *nout = k;
    *shndx = sx;
    return 0;
}

typedef struct bound {
    uint64_t addr;
    const char *name;
    int code;           /* some symbol here is not STT_OBJECT/STT_COMMON */
} bound;

static int bound_cmp(const void *a, const void *b)
{
    const bound *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Cut .text at its symbols as llvm-objdump does (see gcn_text_region). */
static int build_regions(gcn_codeobj *co, const gcn_symbol *syms, unsigned nsyms,
                         const unsigned *shndx, const char *name, gcn_co_err *err)
{
    uint64_t lo = co->text_addr, hi = co->text_addr + co->text_size;
    if (co->text_size == 0)
        return 0;
    bound *b = malloc(((size_t)nsyms + 1) * sizeof *b);
    if (!b)
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    size_t nb = 0;
    for (unsigned i = 0; i < nsyms; i++) {
        if (shndx[i] != co->text_index || !syms[i].name[0] || syms[i].type == STT_SECTION ||
            syms[i].type == STT_FILE)
            continue;
        uint64_t a = syms[i].value;
        if (co->elf_type == ET_REL)
            a += co->text_addr;
        if (a < lo || a >= hi)
            continue;
        b[nb].addr = a;
        b[nb].name = syms[i].name;
        b[nb].code = syms[i].type != STT_OBJECT && syms[i].type != STT_COMMON;
        nb++;
    }
    /* A section with no symbol at its start gets a dummy code symbol named
     * after the section. */
    int have_start = 0;
    for (size_t i = 0; i < nb; i++)
        if (b[i].addr == lo)
            have_start = 1;
    if (!have_start) {
        b[nb].addr = lo;
        b[nb].name = ".text";
        b[nb].code = 1;
        nb++;
    }
    qsort(b, nb, sizeof *b, bound_cmp);
    gcn_text_region *r = malloc(nb * sizeof *r);
    if (!r) {
        free(b);
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    }
    size_t nr = 0;
    for (size_t i = 0; i < nb;) {
        size_t j = i;
        int code = 0;
        const char *label = b[i].name;
        while (j < nb && b[j].addr == b[i].addr) {
            if (b[j].code) {
                code = 1;
                label = b[j].name;
            }
            j++;
        }
        r[nr].start = b[i].addr;
        r[nr].end = j < nb ? b[j].addr : hi;
        r[nr].label = label;
        r[nr].is_data = !code;
        nr++;
        i = j;
    }
    free(b);
    co->regions = r;
    co->nregions = (unsigned)nr;
    return 0;
}

static int kernel_cmp(const void *a, const void *b)
{
    const gcn_kernel *x = a, *y = b;
    if (x->entry_addr != y->entry_addr)
        return x->entry_addr < y->entry_addr ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The STT_FUNC symbols of .text, sorted, so that find_kernels looks each
 * kernel's function symbol up by binary search instead of scanning all
 * symbols per kernel (objects with hundreds of kernels have thousands of
 * symbols).  Ties keep the symbol table order (j). */
typedef struct sym_ref {
    uint64_t value;
    const char *name;
    unsigned j;             /* index in co->syms */
} sym_ref;

static int ref_by_value(const void *a, const void *b)
{
    const sym_ref *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static int ref_by_name(const void *a, const void *b)
{
    const sym_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Index of the first ref not below key (by_name: name; else value). */
static unsigned ref_lower_bound(const sym_ref *r, unsigned n, int by_name, uint64_t value,
                                const char *name)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int below = by_name ? strcmp(r[mid].name, name) < 0 : r[mid].value < value;
        if (below)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int find_kernels_in(gcn_codeobj *co, const sec *secs, size_t nsec, const unsigned *shndx,
                           const uint8_t *img, const char *name, const sym_ref *refs,
                           unsigned nrefs, gcn_co_err *err);

static int find_kernels(gcn_codeobj *co, const sec *secs, size_t nsec, const unsigned *shndx,
                        const uint8_t *img, const char *name, gcn_co_err *err)
{
    sym_ref *refs = malloc((co->nsyms ? co->nsyms : 1) * sizeof *refs);
    if (!refs)
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    unsigned n = 0;
    for (unsigned j = 0; j < co->nsyms; j++)
        if (shndx[j] == co->text_index && co->syms[j].type == STT_FUNC)
            refs[n++] = (sym_ref){co->syms[j].value, co->syms[j].name, j};
    qsort(refs, n, sizeof *refs, co->elf_type == ET_REL ? ref_by_name : ref_by_value);
    int rc = find_kernels_in(co, secs, nsec, shndx, img, name, refs, n, err);
    free(refs);
    return rc;
}

static int find_kernels_in(gcn_codeobj *co, const sec *secs, size_t nsec, const unsigned *shndx,
                           const uint8_t *img, const char *name, const sym_ref *refs,
                           unsigned nrefs, gcn_co_err *err)
{
    unsigned nk = 0;
    for (unsigned i = 0; i < co->nsyms; i++) {
        size_t l = strlen(co->syms[i].name);
        if (co->syms[i].type == STT_OBJECT && l > 3 && !strcmp(co->syms[i].name + l - 3, ".kd") &&
            shndx[i] != SHN_UNDEF)
            nk++;
    }
    if (nk == 0)
        return 0;
    co->kernels = calloc(nk, sizeof *co->kernels);
    if (!co->kernels)
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    for (unsigned i = 0; i < co->nsyms; i++) {
        const gcn_symbol *s = &co->syms[i];
        size_t l = strlen(s->name);
        if (!(s->type == STT_OBJECT && l > 3 && !strcmp(s->name + l - 3, ".kd") &&
              shndx[i] != SHN_UNDEF))
            continue;
        if (s->size != 64)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "bad kernel descriptor %s: size %llu, expected 64", s->name,
                           (unsigned long long)s->size);
        if (shndx[i] >= nsec || secs[shndx[i]].h.sh_type != SHT_PROGBITS)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "bad kernel descriptor %s: not in a section with contents", s->name);
        const GElf_Shdr *h = &secs[shndx[i]].h;
        uint64_t off = co->elf_type == ET_REL ? s->value : s->value - h->sh_addr;
        if ((co->elf_type != ET_REL && s->value < h->sh_addr) || off > h->sh_size ||
            h->sh_size - off < 64)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "bad kernel descriptor %s: address 0x%llx lies outside its section %s",
                           s->name, (unsigned long long)s->value, secs[shndx[i]].name);
        /* "CP microcode requires the kernel descriptor to be 64 aligned"
         * (AMDGPUDisassembler::decodeKernelDescriptor; AMDGPUUsage). */
        if (s->value % 64)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "bad kernel descriptor %s: address 0x%llx is not 64-byte aligned",
                           s->name, (unsigned long long)s->value);
        gcn_kernel *k = &co->kernels[co->nkernels];
        k->name = strndup(s->name, l - 3);
        if (!k->name)
            return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
        co->nkernels++;
        k->kd_addr = s->value;
        kd_decode(img + h->sh_offset + off, &k->kd);
        const char *textname = secs[co->text_index].name;
        if (co->elf_type == ET_REL) {
            /* The entry offset is a relocation here: use the function symbol. */
            k->entry_addr = co->text_addr;
            unsigned r = ref_lower_bound(refs, nrefs, 1, 0, k->name);
            if (r < nrefs && !strcmp(refs[r].name, k->name)) {   /* the first of that name */
                k->entry_addr = co->text_addr + co->syms[refs[r].j].value;
                k->code_size = co->syms[refs[r].j].size;
            }
            continue;
        }
        uint64_t entry = k->kd_addr + (uint64_t)k->kd.kernel_code_entry_byte_offset;
        if (entry < co->text_addr || entry >= co->text_addr + co->text_size || (entry & 3))
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "bad kernel descriptor %s: kernel_code_entry_byte_offset %lld gives "
                           "address 0x%llx, not an instruction in %s [0x%llx, 0x%llx)",
                           s->name, (long long)k->kd.kernel_code_entry_byte_offset,
                           (unsigned long long)entry, textname,
                           (unsigned long long)co->text_addr,
                           (unsigned long long)(co->text_addr + co->text_size));
        k->entry_addr = entry;
        /* the function symbol at the entry: the first, or the last one
         * named like the kernel */
        const gcn_symbol *best = NULL;
        for (unsigned r = ref_lower_bound(refs, nrefs, 0, entry, NULL);
             r < nrefs && refs[r].value == entry; r++) {
            const gcn_symbol *f = &co->syms[refs[r].j];
            if (!best || !strcmp(f->name, k->name))
                best = f;
        }
        if (best) {
            uint64_t room = co->text_addr + co->text_size - entry;
            k->code_size = best->size < room ? best->size : room;
        }
    }
    qsort(co->kernels, co->nkernels, sizeof *co->kernels, kernel_cmp);
    return 0;
}

static int read_notes(gcn_codeobj *co, Elf *elf, const sec *secs, size_t nsec, const char *name,
                      gcn_co_err *err)
{
    for (size_t i = 1; i < nsec; i++) {
        if (secs[i].h.sh_type != SHT_NOTE)
            continue;
        Elf_Scn *scn = elf_getscn(elf, i);
        Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
        if (!d || !d->d_buf)
            continue;
        size_t off = 0, next, noff, doff;
        GElf_Nhdr nh;
        while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
            if (noff > d->d_size || nh.n_namesz > d->d_size - noff || doff > d->d_size ||
                nh.n_descsz > d->d_size - doff)
                return gcn_co_fail(err, GCN_CO_EFORMAT, name, "bad note in section %s", secs[i].name);
            const char *owner = (const char *)d->d_buf + noff;
            if (nh.n_type == CO_NT_AMDGPU_METADATA && nh.n_namesz == 7 &&
                !memcmp(owner, "AMDGPU", 7))
                return md_parse(co, name, (const uint8_t *)d->d_buf + doff, nh.n_descsz, err);
            off = next;
        }
    }
    return 0;
}

/* Check the section header table against the file before libelf walks it. */
static int check_sections(const uint8_t *img, size_t len, const char *name, gcn_co_err *err)
{
    uint64_t shoff = rd64(img + 40);
    unsigned shentsize = rd16(img + 58);
    uint64_t shnum = rd16(img + 60);
    if (shoff == 0)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "ELF file has no section headers");
    if (shentsize != 64)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "bad ELF section header size %u (expected 64)",
                       shentsize);
    if (shoff > len || len - shoff < 64)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "section header table at offset %llu lies outside the %zu-byte file "
                       "(truncated?)", (unsigned long long)shoff, len);
    if (shnum == 0)                          /* extended numbering: count in sh[0].sh_size */
        shnum = rd64(img + shoff + 32);
    if (shnum == 0 || shnum > (len - shoff) / 64)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "section header table (%llu entries at offset %llu) runs past the end of "
                       "the %zu-byte file (truncated?)",
                       (unsigned long long)shnum, (unsigned long long)shoff, len);
    for (uint64_t i = 1; i < shnum; i++) {
        const uint8_t *h = img + shoff + 64 * i;
        uint32_t type = rd32(h + 4);
        uint64_t off = rd64(h + 24), size = rd64(h + 32);
        if (type != SHT_NOBITS && type != SHT_NULL && size && (off > len || size > len - off))
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "section %llu (offset %llu, size %llu) extends past the end of the "
                           "%zu-byte file (truncated?)",
                           (unsigned long long)i, (unsigned long long)off,
                           (unsigned long long)size, len);
    }
    return 0;
}

/* What the ELF header says of a code object. */
typedef struct elf_ident {
    unsigned abiv, etype, mach;
    uint32_t flags;
    const char *mn;             /* the processor's name (gcn_co_mach_name) */
} elf_ident;

/* The ELF header of an AMDHSA code object (v4-v6) for gfx942 or gfx950: 0, or the error. */
static int check_header(const char *name, const uint8_t *data, size_t len, elf_ident *id,
                        gcn_co_err *err)
{
    if (len < 4 || memcmp(data, ELFMAG, SELFMAG) != 0)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "not an ELF file or offload bundle (no \\177ELF or "
                       "__CLANG_OFFLOAD_BUNDLE__ magic)");
    if (len < sizeof(Elf64_Ehdr))
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "truncated ELF header (%zu bytes)", len);
    if (data[EI_CLASS] != ELFCLASS64)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "not an ELF64 file (AMDGPU code objects are ELF64)");
    if (data[EI_DATA] != ELFDATA2LSB)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "not a little-endian ELF file");
    unsigned machine = rd16(data + 18);
    if (machine != CO_EM_AMDGPU) {
        const char *mn = machine_name(machine);
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "not an AMDGPU code object: e_machine is %u%s%s%s (EM_AMDGPU is 224)",
                       machine, mn ? " (" : "", mn ? mn : "", mn ? ")" : "");
    }
    unsigned osabi = data[EI_OSABI], abiv = data[EI_ABIVERSION];
    if (osabi != CO_ELFOSABI_AMDGPU_HSA)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "AMDGPU ELF for OS ABI %u%s, not AMDHSA (64): not an HSA code object", osabi,
                       osabi == 65 ? " (PAL)" : osabi == 66 ? " (Mesa3D)" : "");
    if (abiv < 2 || abiv > 4)
        return gcn_co_fail(err, GCN_CO_ETARGET, name,
                       "code object ABI version %u (%s) is not supported: need code object v4, v5 "
                       "or v6 (EI_ABIVERSION 2, 3, 4)",
                       abiv, abiv == 0 ? "v2" : abiv == 1 ? "v3" : "unknown");
    unsigned etype = rd16(data + 16);
    if (etype != ET_DYN && etype != ET_REL)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "ELF type %u is neither a shared object (code object) nor a relocatable "
                       "object", etype);
    uint32_t flags = rd32(data + 48);
    unsigned mach = flags & CO_EF_MACH;
    const char *mn = gcn_co_mach_name(mach);
    if (mach != 0x4c && mach != 0x4f) {
        unsigned gv = flags >> 24;          /* EF_AMDGPU_GENERIC_VERSION (v6) */
        if (mn && strstr(mn, "generic"))
            return gcn_co_fail(err, GCN_CO_ETARGET, name,
                           "code object is for the generic target %s (generic version %u): not "
                           "supported (gcnsim handles gfx942 and gfx950)", mn, gv);
        if (mn)
            return gcn_co_fail(err, GCN_CO_ETARGET, name,
                           "code object is for %s: not supported (gcnsim handles gfx942 and gfx950)",
                           mn);
        return gcn_co_fail(err, GCN_CO_ETARGET, name,
                       "code object is for an unknown AMDGPU processor (EF_AMDGPU_MACH 0x%02x): "
                       "not supported (gcnsim handles gfx942 and gfx950)", mach);
    }
    *id = (elf_ident){abiv, etype, mach, flags, mn};
    return 0;
}

/* The code object's version, target and features from its header. */
static void set_target(gcn_codeobj *co, const elf_ident *id)
{
    co->abi_version = id->abiv;
    co->code_object_version = id->abiv + 2;
    co->e_flags = id->flags;
    co->mach = id->mach;
    co->elf_type = id->etype;
    co->target = id->mach == 0x4c ? GCN_TARGET_GFX942 : GCN_TARGET_GFX950;
    co->xnack_mode = (id->flags >> 8) & 3;
    co->sramecc_mode = (id->flags >> 10) & 3;
    co->xnack = co->xnack_mode == GCN_CO_FEAT_ON ? 1 : co->xnack_mode == GCN_CO_FEAT_OFF ? 0 : -1;
    co->sramecc = co->sramecc_mode == GCN_CO_FEAT_ON ? 1
                  : co->sramecc_mode == GCN_CO_FEAT_OFF ? 0 : -1;
    /* Target ID (AMDGPUUsage "Target ID"): processor, then the features that
     * are on or off, in alphabetical order. */
    snprintf(co->target_id, sizeof co->target_id, "%s%s%s", id->mn,
             co->sramecc < 0 ? "" : co->sramecc ? ":sramecc+" : ":sramecc-",
             co->xnack < 0 ? "" : co->xnack ? ":xnack+" : ":xnack-");
}

/* The image the code object keeps: DATA itself when it lies in our private mapping of the
 * file, else a copy.  0, or the error. */
static int keep_image(gcn_codeobj *co, const uint8_t *data, size_t len, const char *name,
                      gcn_co_err *err)
{
    co_priv *p = co->priv;
    if (p->map && data >= (const uint8_t *)p->map &&
        len <= p->maplen - (size_t)(data - (const uint8_t *)p->map)) {
        p->image = (uint8_t *)data;     /* in our private mapping of the file: no copy */
    } else {
        p->image = malloc(len);
        if (!p->image)
            return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
        memcpy(p->image, data, len);
        p->image_owned = 1;
    }
    p->len = len;
    return 0;
}

/* The sections the reader needs, by index (0: none). */
typedef struct sec_idx {
    size_t symtab, dynsym, text, debug_line;
} sec_idx;

/* Every section header into secs[nsec] (names from the table at shstrndx, each within the
 * file of LEN bytes), and which are the symbol tables, the code (.text, else the first
 * executable section) and the line table.  0, or the error. */
static int scan_sections(Elf *elf, sec *secs, size_t nsec, size_t shstrndx, size_t len,
                         const char *name, sec_idx *x, gcn_co_err *err)
{
    size_t text_exec = 0;
    memset(x, 0, sizeof *x);
    for (size_t i = 0; i < nsec; i++) {
        Elf_Scn *scn = elf_getscn(elf, i);
        if (!scn || !gelf_getshdr(scn, &secs[i].h))
            return gcn_co_fail(err, GCN_CO_EFORMAT, name, "cannot read section header %zu: %s",
                               i, elf_errmsg(-1));
        const char *sn = i ? elf_strptr(elf, shstrndx, secs[i].h.sh_name) : "";
        if (!sn)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                               "section %zu has a name outside the section name table", i);
        secs[i].name = sn;
        if (i == 0)
            continue;
        const GElf_Shdr *h = &secs[i].h;
        if (h->sh_type != SHT_NOBITS && h->sh_size && (h->sh_offset > len || h->sh_size > len - h->sh_offset))
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                               "section %s extends past the end of the file (truncated?)", sn);
        if (h->sh_type == SHT_SYMTAB && !x->symtab)
            x->symtab = i;
        else if (h->sh_type == SHT_DYNSYM && !x->dynsym)
            x->dynsym = i;
        else if (h->sh_type == SHT_PROGBITS && (h->sh_flags & SHF_EXECINSTR)) {
            if (!strcmp(sn, ".text") && !x->text)
                x->text = i;
            if (!text_exec)
                text_exec = i;
        } else if (!strcmp(sn, ".debug_line"))
            x->debug_line = i;
    }
    if (!x->text)
        x->text = text_exec;
    if (!x->text)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "no .text section (no executable code)");
    return 0;
}

/* The symbols: .symtab when it has any, else .dynsym (a stripped object); *shndx their
 * section indices (the caller frees it).  0, or the error. */
static int read_symbols(gcn_codeobj *co, Elf *elf, const sec *secs, size_t nsec,
                        const sec_idx *x, const char *name, unsigned **shndx, gcn_co_err *err)
{
    gcn_symbol *dsyms = NULL;
    unsigned ndsyms = 0, *dshndx = NULL;
    int rc = 0;
    if (x->symtab)
        rc = read_symtab(elf, secs, nsec, x->symtab, name, &co->syms, &co->nsyms, shndx, err);
    if (!rc && x->dynsym)
        rc = read_symtab(elf, secs, nsec, x->dynsym, name, &dsyms, &ndsyms, &dshndx, err);
    if (!rc && (!x->symtab || co->nsyms == 0)) {
        free(co->syms);
        free(*shndx);
        co->syms = dsyms;
        co->nsyms = ndsyms;
        *shndx = dshndx;
        return 0;
    }
    free(dsyms);
    free(dshndx);
    return rc;
}

static int open_elf(const char *name, const uint8_t *data, size_t len, gcn_codeobj *co,
                    const gcn_co_hooks *hooks, gcn_co_err *err)
{
    int ready = 0;                      /* hooks->text_ready was called */
    elf_ident id = {0};
    int rc = check_header(name, data, len, &id, err);
    if (!rc)
        rc = check_sections(data, len, name, err);
    if (rc)
        return rc;
    set_target(co, &id);
    if ((rc = keep_image(co, data, len, name, err)))
        return rc;

    co_priv *p = co->priv;
    pthread_once(&elf_once, elf_init);
    Elf *elf = elf_memory((char *)p->image, len);
    if (!elf)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "libelf cannot read it: %s", elf_errmsg(-1));
    sec *secs = NULL;
    unsigned *shndx = NULL;
    size_t nsec = 0, shstrndx = 0;
    sec_idx x;
    if (elf_kind(elf) != ELF_K_ELF || elf_getshdrnum(elf, &nsec) != 0 ||
        elf_getshdrstrndx(elf, &shstrndx) != 0) {
        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name, "libelf cannot read it: %s", elf_errmsg(-1));
        goto out;
    }
    if (nsec == 0 || shstrndx == 0 || shstrndx >= nsec) {
        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name, "no valid section name table");
        goto out;
    }
    secs = calloc(nsec, sizeof *secs);
    if (!secs) {
        rc = gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
        goto out;
    }
    if ((rc = scan_sections(elf, secs, nsec, shstrndx, len, name, &x, err)))
        goto out;
    co->text_index = (unsigned)x.text;
    co->text = p->image + secs[x.text].h.sh_offset;
    co->text_addr = id.etype == ET_REL ? 0 : secs[x.text].h.sh_addr;
    co->text_size = secs[x.text].h.sh_size;
    if (co->text_addr + co->text_size < co->text_addr) {
        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name, ".text address range wraps around");
        goto out;
    }
    if ((rc = read_symbols(co, elf, secs, nsec, &x, name, &shndx, err)))
        goto out;
    /* llvm-objdump cuts the section at the .symtab symbols, and at the
     * dynamic ones only when .symtab gives none. */
    rc = build_regions(co, co->syms, co->nsyms, shndx, name, err);
    if (rc)
        goto out;
    if (hooks && hooks->text_ready) {
        hooks->text_ready(co, hooks->ctx);
        ready = 1;
    }
    rc = find_kernels(co, secs, nsec, shndx, p->image, name, err);
    if (rc)
        goto out;
    rc = read_notes(co, elf, secs, nsec, name, err);
    if (rc)
        goto out;
    if (x.debug_line && id.etype == ET_DYN) {
        char why[200];
        if (gcn_dwarf_read_lines(elf, &p->pool, &co->lines, &co->nlines, why, sizeof why) != 0)
            snprintf(co->warning, sizeof co->warning, "line information ignored: %s", why);
    }
out:
    if (rc && ready && hooks->cancel)
        hooks->cancel(hooks->ctx);      /* before the object is freed */
    free(shndx);
    free(secs);
    elf_end(elf);
    return rc;
}

/* gcn_co_open_mem_arch(); map, when not NULL, is a private mapping of the
 * file of maplen bytes holding data, which the code object takes over (it
 * reads the ELF image in place and unmaps it when closed, or now on
 * failure). */
static int open_mem(const char *name, const void *data, size_t len, const char *offload_arch,
                    void *map, size_t maplen, const gcn_co_hooks *h, gcn_codeobj **out,
                    gcn_co_err *err)
{
    *out = NULL;
    if (!name)
        name = "(memory)";
    gcn_codeobj *co = len ? calloc(1, sizeof *co) : NULL;
    co_priv *p = len ? calloc(1, sizeof *p) : NULL;
    if (!co || !p || !(co->path = strdup(name))) {
        free(p);
        if (co)
            free(co->path);
        free(co);
        if (map)
            munmap(map, maplen);
        if (len == 0)
            return gcn_co_fail(err, GCN_CO_EFORMAT, name, "empty file");
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    }
    co->priv = p;
    p->map = map;
    p->maplen = maplen;
    int rc;
    if (gcn_bundle_is_compressed(data, len)) {
        rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                     "compressed clang offload bundle (CCOB) is not supported: unbundle it "
                     "first with clang-offload-bundler-22");
    } else if (gcn_bundle_is(data, len)) {
        gcn_bundle_entry *e;
        unsigned n;
        rc = gcn_bundle_list(name, data, len, &e, &n, err);
        if (rc == 0) {
            int idx = gcn_bundle_select(name, e, n, offload_arch, err);
            if (idx < 0) {
                rc = idx;
            } else {
                char proc[64];
                for (unsigned i = 0; i < n; i++) {
                    gcn_bundle_processor(e[i].triple, proc, sizeof proc);
                    if (!strcmp(proc, "gfx942") || !strcmp(proc, "gfx950"))
                        co->bundle_gpu_entries++;
                }
                co->bundle_triple = strdup(e[idx].triple);
                char label[600];
                snprintf(label, sizeof label, "%s (offload bundle entry %d, %s)", name, idx,
                         e[idx].triple);
                if (!co->bundle_triple)
                    rc = gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
                else if (e[idx].size == 0)
                    rc = gcn_co_fail(err, GCN_CO_EFORMAT, label, "empty bundle entry");
                else
                    rc = open_elf(label, (const uint8_t *)data + e[idx].offset,
                                  (size_t)e[idx].size, co, h, err);
            }
            gcn_bundle_free(e, n);
        }
    } else {
        rc = open_elf(name, data, len, co, h, err);
    }
    if (rc) {
        gcn_co_close(co);
        return rc;
    }
    *out = co;
    return 0;
}

int gcn_co_open_mem_arch(const char *name, const void *data, size_t len,
                         const char *offload_arch, gcn_codeobj **out, gcn_co_err *err)
{
    return open_mem(name, data, len, offload_arch, NULL, 0, NULL, out, err);
}

/* Map a regular, non-empty file privately (copy-on-write: libelf may
 * convert in place; nothing reaches the file), its pages populated up
 * front.  Reading the file in place saves two copies of it (read() into a
 * buffer, then the code object's own copy).  Like LLVM's MemoryBuffer, this
 * assumes nobody truncates the file while we read it.  Returns NULL when
 * the file cannot be mapped; the caller then reads it. */
static void *map_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *m = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= CO_MAX_FILE) {
        m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            m = NULL;
        } else {
            *len = (size_t)st.st_size;
#ifdef MADV_POPULATE_READ
            /* map the page-cache pages up front, read-only until written
             * (MAP_POPULATE would write-fault a private writable mapping,
             * copying every page of the file); ignored where unsupported */
            (void)madvise(m, (size_t)st.st_size, MADV_POPULATE_READ);
#endif
        }
    }
    close(fd);
    return m;
}

int gcn_co_open_mem(const char *name, const void *data, size_t len, gcn_codeobj **out,
                    gcn_co_err *err)
{
    return gcn_co_open_mem_arch(name, data, len, NULL, out, err);
}

int gcn_co_open_hooks(const char *path, const char *offload_arch, const gcn_co_hooks *h,
                      gcn_codeobj **out, gcn_co_err *err)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    void *map = map_file(path, &len);
    if (map)
        return open_mem(path, map, len, offload_arch, map, len, h, out, err);
    int rc = gcn_co_read_file(path, &data, &len, err);
    if (rc)
        return rc;
    rc = open_mem(path, data, len, offload_arch, NULL, 0, h, out, err);
    free(data);
    return rc;
}

int gcn_co_open_arch(const char *path, const char *offload_arch, gcn_codeobj **out,
                     gcn_co_err *err)
{
    return gcn_co_open_hooks(path, offload_arch, NULL, out, err);
}

int gcn_co_open(const char *path, gcn_codeobj **out, gcn_co_err *err)
{
    return gcn_co_open_arch(path, NULL, out, err);
}

/* ---- queries ------------------------------------------------------------ */

const gcn_kernel *gcn_co_kernel(const gcn_codeobj *co, const char *name)
{
    for (unsigned i = 0; i < co->nkernels; i++)
        if (!strcmp(co->kernels[i].name, name))
            return &co->kernels[i];
    return NULL;
}

const gcn_line *gcn_co_line(const gcn_codeobj *co, uint64_t addr)
{
    unsigned lo = 0, hi = co->nlines;
    while (lo < hi) {                          /* first row with addr > target */
        unsigned mid = lo + (hi - lo) / 2;
        if (co->lines[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const gcn_line *l = &co->lines[lo - 1];
    return (l->file && l->line) ? l : NULL;
}

/* Symbol s as a candidate of gcn_co_symbol_at(addr) after best: the new best. */
static const gcn_symbol *symbol_pick(const gcn_symbol *best, const gcn_symbol *s, uint64_t addr)
{
    if (!s->name[0] || s->type == STT_SECTION || s->type == STT_FILE)
        return best;
    if (s->value == addr || (s->value < addr && addr - s->value < s->size)) {
        if (!best || (best->value != addr && s->value == addr) ||
            (best->type != STT_FUNC && s->type == STT_FUNC && s->value == best->value))
            best = s;
    }
    return best;
}

const gcn_symbol *gcn_co_symbol_at(const gcn_codeobj *co, uint64_t addr)
{
    const gcn_symbol *best = NULL;
    for (unsigned i = 0; i < co->nsyms; i++)
        best = symbol_pick(best, &co->syms[i], addr);
    return best;
}

unsigned gcn_co_symbols_in(const gcn_codeobj *co, uint64_t lo, uint64_t hi, uint32_t *idx,
                           unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < co->nsyms; i++) {
        const gcn_symbol *s = &co->syms[i];
        if (!s->name[0] || s->type == STT_SECTION || s->type == STT_FILE)
            continue;
        if ((s->value >= lo && s->value < hi) || (s->value < lo && lo - s->value < s->size)) {
            if (n == max)
                return max + 1;
            idx[n++] = i;
        }
    }
    return n;
}

const gcn_symbol *gcn_co_symbol_at_in(const gcn_codeobj *co, const uint32_t *idx, unsigned n,
                                      uint64_t addr)
{
    const gcn_symbol *best = NULL;
    for (unsigned i = 0; i < n; i++)
        best = symbol_pick(best, &co->syms[idx[i]], addr);
    return best;
}

const char *gcn_co_label_name(void *ctx, uint64_t target)
{
    const gcn_codeobj *co = ctx;
    const char *best = NULL;
    for (unsigned i = 0; i < co->nsyms; i++) {
        const gcn_symbol *s = &co->syms[i];
        if (s->type != STT_NOTYPE || s->value != target || !s->name[0] ||
            s->shndx != co->text_index)
            continue;
        if (!best || strcmp(s->name, best) < 0)
            best = s->name;
    }
    return best;
}

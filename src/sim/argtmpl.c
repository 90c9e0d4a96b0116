/*
 * argtmpl.c -- a kernel's arguments as its code-object metadata describes
 * them (amdhsa.kernels[].args: .name, .type_name, .value_kind, .offset,
 * .size, .address_space, .actual_access/.access, .is_const; LLVM
 * AMDGPUUsage.rst "Code Object V5 Metadata"), for people: the table gcnsim
 * prints (--list-args, and with the error of a dispatch that gives too few
 * arguments), and manifests made from the metadata (--manifest-template, a
 * skeleton to edit; --default-args, stated defaults to run without real
 * data).  Library code of gcnsim (src/sim).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"
#include "manifest.h"


int gcn_kernarg_is_hidden(const gcn_kernarg *a)
{
    return a->value_kind && !strncmp(a->value_kind, "hidden_", 7);
}

static const char *vkind(const gcn_kernarg *a)
{
    return a->value_kind ? a->value_kind : "by_value";
}

/* The base of an OpenCL/C type name ("const float" -> "float"), without
 * qualifiers; into buf. */
static void type_base(const char *t, char *buf, size_t n)
{
    static const char *const quals[] = {"const ", "volatile ", "restrict ", "struct ", "unsigned ",
                                        NULL};
    int uns = 0;
    for (int again = 1; again;) {
        again = 0;
        for (int q = 0; quals[q]; q++)
            if (!strncmp(t, quals[q], strlen(quals[q]))) {
                uns |= q == 4;
                t += strlen(quals[q]);
                again = 1;
            }
    }
    snprintf(buf, n, "%s%s", uns ? "u" : "", t);
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == ' ' || buf[l - 1] == '*'))
        buf[--l] = 0;
}

/* Bytes of one element of a scalar type name ("float" 4, "uchar4" 4, "double2"
 * 16), 0 when unknown. */
static unsigned type_bytes(const char *t)
{
    static const struct { const char *name; unsigned bytes; } ty[] = {
        {"char", 1}, {"uchar", 1}, {"bool", 1}, {"int8_t", 1}, {"uint8_t", 1},
        {"short", 2}, {"ushort", 2}, {"half", 2}, {"int16_t", 2}, {"uint16_t", 2},
        {"int", 4}, {"uint", 4}, {"float", 4}, {"int32_t", 4}, {"uint32_t", 4},
        {"long", 8}, {"ulong", 8}, {"double", 8}, {"size_t", 8}, {"int64_t", 8}, {"uint64_t", 8},
    };
    char b[64];
    type_base(t, b, sizeof b);
    size_t l = strlen(b);
    unsigned vec = 1;
    if (l && b[l - 1] >= '0' && b[l - 1] <= '9') {
        size_t d = l;
        while (d && b[d - 1] >= '0' && b[d - 1] <= '9')
            d--;
        vec = (unsigned)atoi(b + d);
        b[d] = 0;
    }
    for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
        if (!strcmp(b, ty[i].name))
            return ty[i].bytes * (vec ? vec : 1);
    return 0;
}

const char *gcn_kernarg_suggest(const gcn_kernarg *a)
{
    const char *vk = vkind(a);
    if (!strcmp(vk, "global_buffer"))
        return a->size == 8 ? "buffer" : "bytes";
    if (!strcmp(vk, "dynamic_shared_pointer"))
        return a->size == 4 ? "u32" : "bytes";
    if (strcmp(vk, "by_value"))
        return a->size == 8 ? "u64" : a->size == 4 ? "u32" : "bytes";
    if (a->type_name && !strchr(a->type_name, '*')) {
        char b[64];
        type_base(a->type_name, b, sizeof b);
        if (a->size == 4 && !strcmp(b, "float")) return "f32";
        if (a->size == 8 && !strcmp(b, "double")) return "f64";
        if (a->size == 4 && (!strcmp(b, "int") || !strcmp(b, "int32_t"))) return "i32";
        if (a->size == 8 && (!strcmp(b, "long") || !strcmp(b, "int64_t"))) return "i64";
        if (a->size == 4 && type_bytes(b) == 4 && b[0] == 'u') return "u32";
        if (a->size == 8 && type_bytes(b) == 8 && (b[0] == 'u' || !strcmp(b, "size_t")))
            return "u64";
        if (a->size == 4 || a->size == 8)
            return "bytes";     /* a struct or vector of that size */
    }
    return a->size == 4 ? "u32" : a->size == 8 ? "u64" : "bytes";
}

/* What gcnsim gives a hidden argument (kernarg.c). */
static const char *hidden_what(const char *vk)
{
    const char *h = vk + 7;
    if (!strncmp(h, "block_count_", 12)) return "workgroups in the grid";
    if (!strncmp(h, "group_size_", 11)) return "work-items per workgroup";
    if (!strncmp(h, "remainder_", 10)) return "0 (whole workgroups)";
    if (!strcmp(h, "grid_dims")) return "dimensions of the dispatch";
    if (!strcmp(h, "dynamic_lds_size")) return "the manifest's dynamic_lds";
    if (!strcmp(h, "shared_base") || !strcmp(h, "private_base")) return "the simulator's aperture";
    return "0 (not provided by gcnsim)";
}

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0 || s->oom)
        return;
    if (s->n + (size_t)k + 1 > s->cap) {
        size_t nc = (s->n + (size_t)k + 1) * 2;
        char *np = realloc(s->p, nc);
        if (!np) {
            s->oom = 1;
            return;
        }
        s->p = np;
        s->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    s->n += (size_t)k;
}

int gcn_kernarg_table(const gcn_kernel *k, const char *indent, char **text)
{
    sbuf s = {0};
    unsigned nexp = 0, nhid = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        if (gcn_kernarg_is_hidden(&k->args[i]))
            nhid++;
        else
            nexp++;
    }
    if (!k->has_metadata) {
        sb_add(&s, "%skernel %s: no metadata (NT_AMDGPU_METADATA): its arguments are unknown; "
               "--arg lays them out in order at their natural alignment\n", indent, k->name);
    } else {
        sb_add(&s, "%skernel %s: %u explicit argument%s, %u hidden, kernarg segment %u bytes\n",
               indent, k->name, nexp, nexp == 1 ? "" : "s", nhid, k->md_kernarg_segment_size);
        if (k->nargs)
            sb_add(&s, "%s  %-3s %-6s %-4s %-24s %-8s %-6s %s\n", indent, "#", "offset", "size",
                   "value kind", "name", "--arg", "details");
    }
    unsigned e = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        const gcn_kernarg *a = &k->args[i];
        const char *vk = vkind(a);
        char idx[16], off[16], det[256] = "";
        snprintf(off, sizeof off, "0x%x", a->offset);
        if (gcn_kernarg_is_hidden(a)) {
            snprintf(idx, sizeof idx, "-");
            snprintf(det, sizeof det, "hidden: %s", hidden_what(vk));
            sb_add(&s, "%s  %-3s %-6s %-4u %-24s %-8s %-6s %s\n", indent, idx, off, a->size, vk, "-",
                   "-", det);
            continue;
        }
        snprintf(idx, sizeof idx, "%u", e++);
        size_t dl = 0;
#define DET(...) (dl += (size_t)snprintf(det + dl, dl < sizeof det ? sizeof det - dl : 0, __VA_ARGS__))
        if (!strcmp(vk, "global_buffer") || !strcmp(vk, "dynamic_shared_pointer"))
            DET("%s pointer", a->address_space ? a->address_space : "generic");
        else if (!strcmp(vk, "by_value"))
            DET("%s", a->size == 4 || a->size == 8 ? "scalar" : "by value (a struct)");
        else
            DET("%s", "not simulated: passed as 0");
        if (a->type_name)
            DET(", %s", a->type_name);
        if (a->is_const)
            DET(", const");
        if (a->access)
            DET(", %s", a->access);
        if (!strcmp(vk, "dynamic_shared_pointer"))
            DET(", an offset into LDS");
        if (dl >= sizeof det)
            det[sizeof det - 1] = 0;
#undef DET
        sb_add(&s, "%s  %-3s %-6s %-4u %-24s %-8s %-6s %s\n", indent, idx, off, a->size, vk,
               a->name ? a->name : "-", gcn_kernarg_suggest(a), det);
    }
    if (s.oom || !s.p) {
        free(s.p);
        *text = NULL;
        return -1;
    }
    *text = s.p;
    return 0;
}

/* Whether the kernel only reads through a pointer argument. */
static int read_only(const gcn_kernarg *a)
{
    return a->is_const || (a->access && !strcmp(a->access, "read_only"));
}

/* The manifest as docs/manifest.md writes one: a key per line, a buffer or an
 * argument per line, everything else on the line of its key. */
static char *qstr(const char *x)
{
    json_t *t = json_string(x);
    char *r = t ? json_dumps(t, JSON_ENCODE_ANY) : NULL;
    json_decref(t);
    return r;
}

static char *dump_manifest(const json_t *root)
{
    sbuf s = {0};
    const char *key;
    json_t *v;
    size_t i = 0, n = json_object_size(root);
    sb_add(&s, "{\n");
    json_object_foreach((json_t *)root, key, v) {
        char *k = qstr(key);
        int nested = !strcmp(key, "buffers") || !strcmp(key, "args");
        if (!nested) {
            char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
            sb_add(&s, "  %s: %s", k ? k : "\"\"", t ? t : "null");
            s.oom |= !t;
            free(t);
        } else {
            int obj = json_is_object(v);
            sb_add(&s, "  %s: %c\n", k ? k : "\"\"", obj ? '{' : '[');
            size_t j = 0, m = obj ? json_object_size(v) : json_array_size(v);
            const char *bk;
            json_t *bv;
            if (obj) {
                json_object_foreach(v, bk, bv) {
                    char *kk = qstr(bk);
                    char *t = json_dumps(bv, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
                    sb_add(&s, "    %s: %s%s\n", kk ? kk : "\"\"", t ? t : "null",
                           ++j < m ? "," : "");
                    s.oom |= !t || !kk;
                    free(kk);
                    free(t);
                }
            } else {
                json_array_foreach(v, j, bv) {
                    char *t = json_dumps(bv, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
                    sb_add(&s, "    %s%s\n", t ? t : "null", j + 1 < m ? "," : "");
                    s.oom |= !t;
                    free(t);
                }
            }
            sb_add(&s, "  %c", obj ? '}' : ']');
        }
        s.oom |= !k;
        free(k);
        sb_add(&s, "%s\n", ++i < n ? "," : "");
    }
    sb_add(&s, "}\n");
    if (s.oom) {
        free(s.p);
        return NULL;
    }
    return s.p;
}

int gcn_mf_template(const gcn_kernel *k, const char *code, const gcn_mf_tmpl *o, char **json,
                    char *err, size_t errlen)
{
    *json = NULL;
    json_t *root = json_object(), *bufs = json_object(), *args = json_array(),
           *outs = json_array(), *ro = json_array();
    if (!o->defaults)
        json_object_set_new(root, "description", json_string(
            "made by gcnsim --manifest-template from the code object's metadata: set the sizes "
            "(params), the initial values (init) and the scalar arguments (docs/manifest.md)"));
    json_object_set_new(root, "code", json_string(code));
    json_object_set_new(root, "kernel", json_string(k->name));
    if (o->target)
        json_object_set_new(root, "targets", json_pack("[s]", o->target));
    if (!o->defaults)
        json_object_set_new(root, "params", json_pack("{s:i}", "N", 1024));
    json_object_set_new(root, "grid", json_pack("[iii]", 1, 1, 1));
    const uint32_t *r = k->md_reqd_workgroup_size;
    if (r[0] && r[1] && r[2])
        json_object_set_new(root, "block", json_pack("[iii]", r[0], r[1], r[2]));
    else
        json_object_set_new(root, "block", json_pack("[iii]", 64, 1, 1));
    unsigned e = 0, nlds = 0;
    uint64_t lds_end = k->md_group_segment_fixed_size;
    for (unsigned i = 0; i < k->nargs; i++) {
        const gcn_kernarg *a = &k->args[i];
        if (gcn_kernarg_is_hidden(a))
            continue;
        const char *kind = gcn_kernarg_suggest(a);
        char name[128];
        if (a->name && a->name[0])
            snprintf(name, sizeof name, "%s", a->name);
        else
            snprintf(name, sizeof name, "arg%u", e);
        if (json_object_get(bufs, name)) {           /* two arguments of one name */
            size_t l = strlen(name);
            l = l < sizeof name - 12 ? l : sizeof name - 12;
            snprintf(name + l, sizeof name - l, "_%u", e);
        }
        e++;
        json_t *arg;
        if (!strcmp(kind, "buffer")) {
            json_t *b;
            if (o->defaults) {
                b = json_pack("{s:I}", "size", (json_int_t)o->buf_size);
                if (o->init && !strcmp(o->init, "random"))
                    json_object_set_new(b, "init", json_pack("{s:s,s:i}", "random", "u32", "seed",
                                                             (int)e));
                else
                    json_object_set_new(b, "init", json_string("zero"));
            } else {
                unsigned eb = 0;
                if (a->type_name && strchr(a->type_name, '*')) {
                    char t[64];
                    snprintf(t, sizeof t, "%s", a->type_name);
                    *strchr(t, '*') = 0;
                    eb = type_bytes(t);
                }
                char sz[32];
                snprintf(sz, sizeof sz, "N*%u", eb ? eb : 4);
                b = json_pack("{s:s,s:s}", "size", sz, "init", "zero");
            }
            json_object_set_new(bufs, name, b);
            json_array_append_new(read_only(a) ? ro : outs, json_string(name));
            arg = json_pack("{s:s}", "buffer", name);
        } else if (!strcmp(kind, "bytes")) {
            json_t *bytes = json_array();
            for (unsigned q = 0; q < a->size && q < 4096; q++)
                json_array_append_new(bytes, json_integer(0));
            arg = json_pack("{s:o}", "bytes", bytes);
        } else if (!strcmp(vkind(a), "dynamic_shared_pointer")) {
            /* the runtime places dynamic LDS after the kernel's static LDS; 1 KiB each */
            uint64_t al = a->pointee_align ? a->pointee_align : 4;
            lds_end = (lds_end + al - 1) / al * al;
            arg = json_pack("{s:I}", "u32", (json_int_t)lds_end);
            lds_end += 1024;
            nlds++;
        } else if (kind[0] == 'f') {
            arg = json_pack("{s:f}", kind, o->defaults ? (double)o->scalar : 0.0);
        } else {
            arg = json_pack("{s:I}", kind, (json_int_t)(o->defaults ? o->scalar : 0));
        }
        json_array_append_new(args, arg);
    }
    if (nlds)
        json_object_set_new(root, "dynamic_lds",
                            json_integer((json_int_t)(lds_end - k->md_group_segment_fixed_size)));
    /* the outputs: the buffers written, else (all read-only) every buffer */
    if (!json_array_size(outs))
        json_array_extend(outs, ro);
    json_decref(ro);
    json_object_set_new(root, "buffers", bufs);
    json_object_set_new(root, "args", args);
    json_object_set_new(root, "outputs", outs);
    *json = dump_manifest(root);
    json_decref(root);
    if (!*json) {
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

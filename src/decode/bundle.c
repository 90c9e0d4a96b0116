/*
 * bundle.c -- clang offload bundles: list the entries of an uncompressed
 * "__CLANG_OFFLOAD_BUNDLE__" file and choose the GPU entry to read.
 *
 * Format (clang/lib/Driver/OffloadBundler.cpp, "Handler for binary files";
 * all integers 8-byte little-endian):
 *   magic "__CLANG_OFFLOAD_BUNDLE__" (24 bytes, no NUL)
 *   number of entries N
 *   N times: offset, size, triple length, triple bytes
 *   the entries' bytes (offset is from the start of the file)
 * Triples are "<kind>-<arch>-<vendor>-<os>-<env>[-<target id>]", e.g.
 * "hipv4-amdgcn-amd-amdhsa--gfx942" or "host-x86_64-unknown-linux-gnu-".
 * The compressed form starts with "CCOB" (OffloadBundler.cpp,
 * CompressedOffloadBundle); we recognise it and say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codeobj_int.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int gcn_bundle_is(const void *data, size_t len)
{
    return len >= BUNDLE_MAGIC_LEN && memcmp(data, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN) == 0;
}

int gcn_bundle_is_compressed(const void *data, size_t len)
{
    return len >= 4 && memcmp(data, "CCOB", 4) == 0;
}

void gcn_bundle_free(gcn_bundle_entry *entries, unsigned n)
{
    if (!entries)
        return;
    for (unsigned i = 0; i < n; i++)
        free(entries[i].triple);
    free(entries);
}

int gcn_bundle_list(const char *name, const void *data, size_t len,
                    gcn_bundle_entry **entries, unsigned *n, gcn_co_err *err)
{
    const uint8_t *p = data;
    *entries = NULL;
    *n = 0;
    if (!gcn_bundle_is(data, len))
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "not a clang offload bundle (no %s magic)",
                     BUNDLE_MAGIC);
    size_t pos = BUNDLE_MAGIC_LEN;
    if (len - pos < 8)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "offload bundle truncated in its header");
    uint64_t count = rd64(p + pos);
    pos += 8;
    /* Each entry needs at least 24 header bytes: bounds the count. */
    if (count == 0)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name, "offload bundle has no entries");
    if (count > (len - pos) / 24)
        return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                     "offload bundle claims %llu entries, more than its %zu bytes can hold",
                     (unsigned long long)count, len);
    gcn_bundle_entry *e = calloc((size_t)count, sizeof *e);
    if (!e)
        return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
    for (uint64_t i = 0; i < count; i++) {
        if (len - pos < 24) {
            gcn_bundle_free(e, (unsigned)i);
            return gcn_co_fail(err, GCN_CO_EFORMAT, name, "offload bundle entry %llu: header truncated",
                         (unsigned long long)i);
        }
        uint64_t off = rd64(p + pos), size = rd64(p + pos + 8), tlen = rd64(p + pos + 16);
        pos += 24;
        if (tlen == 0 || tlen > len - pos || tlen > 4096) {
            gcn_bundle_free(e, (unsigned)i);
            return gcn_co_fail(err, GCN_CO_EFORMAT, name,
                         "offload bundle entry %llu: bad triple length %llu",
                         (unsigned long long)i, (unsigned long long)tlen);
        }
        e[i].triple = malloc((size_t)tlen + 1);
        if (!e[i].triple) {
            gcn_bundle_free(e, (unsigned)i);
            return gcn_co_fail(err, GCN_CO_ENOMEM, name, "out of memory");
        }
        memcpy(e[i].triple, p + pos, (size_t)tlen);
        e[i].triple[tlen] = 0;
        pos += (size_t)tlen;
        int rc = 0;
        if (strlen(e[i].triple) != tlen)
            rc = gcn_co_fail(err, GCN_CO_EFORMAT, name, "offload bundle entry %llu: NUL in triple",
                       (unsigned long long)i);
        else if (off > len || size > len - off)
            rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                       "offload bundle entry %llu (%s): offset %llu + size %llu lies outside "
                       "the %zu-byte file",
                       (unsigned long long)i, e[i].triple, (unsigned long long)off,
                       (unsigned long long)size, len);
        if (rc) {
            gcn_bundle_free(e, (unsigned)i + 1);
            return rc;
        }
        e[i].offset = off;
        e[i].size = size;
    }
    /* Entries' data must not overlap the header we just read. */
    for (uint64_t i = 0; i < count; i++)
        if (e[i].size && e[i].offset < pos) {
            int rc = gcn_co_fail(err, GCN_CO_EFORMAT, name,
                           "offload bundle entry %llu (%s) overlaps the bundle header",
                           (unsigned long long)i, e[i].triple);
            gcn_bundle_free(e, (unsigned)count);
            return rc;
        }
    *entries = e;
    *n = (unsigned)count;
    return 0;
}

void gcn_bundle_processor(const char *triple, char *buf, size_t bufsz)
{
    if (bufsz == 0)
        return;
    buf[0] = 0;
    /* <kind>-<arch>-<vendor>-<os>-<env>-<target id>: the target id is what
     * follows the fifth '-'. */
    const char *p = triple;
    for (int dashes = 0; dashes < 5; dashes++) {
        p = strchr(p, '-');
        if (!p)
            return;
        p++;
    }
    const char *arch = strchr(triple, '-');
    if (!arch || strncmp(arch + 1, "amdgcn-", 7) != 0)
        return;
    size_t n = strcspn(p, ":");
    if (n >= bufsz)
        n = bufsz - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

static const char *target_id_of(const char *triple)
{
    const char *p = triple;
    for (int dashes = 0; dashes < 5; dashes++) {
        p = strchr(p, '-');
        if (!p)
            return "";
        p++;
    }
    return p;
}

static int supported(const char *proc)
{
    return !strcmp(proc, "gfx942") || !strcmp(proc, "gfx950");
}

int gcn_bundle_select(const char *name, const gcn_bundle_entry *e, unsigned n,
                      const char *arch, gcn_co_err *err)
{
    char proc[64];
    if (arch && *arch) {
        for (unsigned i = 0; i < n; i++) {
            gcn_bundle_processor(e[i].triple, proc, sizeof proc);
            if ((proc[0] && !strcmp(proc, arch)) || !strcmp(target_id_of(e[i].triple), arch) ||
                !strcmp(e[i].triple, arch))
                return (int)i;
        }
        char *end;
        unsigned long idx = strtoul(arch, &end, 10);
        if (*end == 0 && end != arch && idx < n)
            return (int)idx;
        return gcn_co_fail(err, GCN_CO_ETARGET, name,
                     "offload bundle has no entry for '%s' (see gcndis --bundle-list)", arch);
    }
    char seen[256] = "";
    size_t sl = 0;
    for (unsigned i = 0; i < n; i++) {
        gcn_bundle_processor(e[i].triple, proc, sizeof proc);
        if (supported(proc))
            return (int)i;
        if (proc[0] && sl < sizeof seen - 1) {
            int k = snprintf(seen + sl, sizeof seen - sl, "%s%s", sl ? ", " : "", proc);
            if (k > 0)
                sl += (size_t)k;
            if (sl >= sizeof seen)
                sl = sizeof seen - 1;
        }
    }
    if (sl)
        return gcn_co_fail(err, GCN_CO_ETARGET, name,
                     "offload bundle has no gfx942 or gfx950 code object (it has: %s)", seen);
    return gcn_co_fail(err, GCN_CO_EFORMAT, name, "offload bundle has no AMDGPU code object");
}

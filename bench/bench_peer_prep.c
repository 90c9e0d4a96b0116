/*
 * bench_peer_prep.c -- the inputs of one dispatch, for a simulator other than gcnsim
 * (bench/bench_peer.sh): from a manifest (with --set overrides) and its code object, the
 * same bytes gcnsim starts from, made by the same library code.
 *   OUT/text.bin      the code object's .text bytes
 *   OUT/kernarg.bin   the kernarg segment (gcn_kernarg_build), buffer arguments holding
 *                     placeholders that the caller replaces by its own buffer addresses
 *   OUT/<name>.in.bin each buffer's initial bytes (gcn_mf_fill)
 *   OUT/prep.json     kernel facts: entry offset in text.bin, descriptor words, LDS and
 *                     scratch sizes, grid, block, buffers (size, kernarg offsets of the
 *                     placeholders), outputs
 * usage: bench_peer_prep MANIFEST MCPU OUTDIR [NAME=VALUE ...]
 * Exit 0, 1 usage, 2 bad input (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcn_decode.h"
#include "sim/manifest.h"

/* Placeholder of buffer i in the kernarg segment (an address no allocation has). */
static uint64_t placeholder(unsigned i)
{
    return 0x7ead0000b0f00000ull + ((uint64_t)i << 8);
}

static int write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f)) {
        fprintf(stderr, "bench_peer_prep: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_peer_prep MANIFEST MCPU OUTDIR [NAME=VALUE ...]\n");
        return 1;
    }
    const char *out = argv[3];
    char err[512];
    gcn_manifest *m = NULL;
    gcn_codeobj *co = NULL;
    const gcn_kernel *k = NULL;
    const char *target = NULL;
    if (gcn_mf_load(argv[1], (const char *const *)argv + 4, (unsigned)(argc - 4), &m, err,
                    sizeof err) ||
        gcn_mf_load_code_for(m, argv[2], &co, &target, err, sizeof err) ||
        gcn_mf_kernel(m, co, &k, err, sizeof err)) {
        fprintf(stderr, "bench_peer_prep: %s\n", err);
        return 2;
    }
    uint64_t *addr = calloc(m->nbufs + 1, sizeof *addr);
    uint8_t *ka = NULL;
    size_t kn = 0;
    for (unsigned i = 0; i < m->nbufs; i++)
        addr[i] = placeholder(i);
    if (!addr || gcn_kernarg_build(m, k, addr, &ka, &kn, err, sizeof err)) {
        fprintf(stderr, "bench_peer_prep: %s\n", addr ? err : "out of memory");
        return 2;
    }
    if (write_file(out, "text.bin", co->text, co->text_size) ||
        write_file(out, "kernarg.bin", ka, kn))
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/prep.json", out);
    FILE *j = fopen(path, "w");
    if (!j) {
        fprintf(stderr, "bench_peer_prep: cannot write %s\n", path);
        return 2;
    }
    const gcn_kd *d = &k->kd;
    fprintf(j, "{\n  \"kernel\": \"%s\", \"target\": \"%s\",\n", k->name, target);
    fprintf(j, "  \"entry\": %llu, \"text_size\": %llu,\n",
            (unsigned long long)(k->entry_addr - co->text_addr),
            (unsigned long long)co->text_size);
    fprintf(j, "  \"rsrc1\": %u, \"rsrc2\": %u, \"rsrc3\": %u,\n", d->compute_pgm_rsrc1,
            d->compute_pgm_rsrc2, d->compute_pgm_rsrc3);
    fprintf(j, "  \"lds\": %u, \"scratch\": %u,\n",
            d->group_segment_fixed_size + m->dynamic_lds, d->private_segment_fixed_size);
    fprintf(j, "  \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u],\n", m->grid[0], m->grid[1],
            m->grid[2], m->block[0], m->block[1], m->block[2]);
    fprintf(j, "  \"buffers\": [");
    for (unsigned i = 0; i < m->nbufs; i++) {
        uint8_t *b = calloc(1, m->bufs[i].size ? m->bufs[i].size : 1);
        if (!b || gcn_mf_fill(m, i, b, err, sizeof err)) {
            fprintf(stderr, "bench_peer_prep: %s\n", b ? err : "out of memory");
            return 2;
        }
        char name[300];
        snprintf(name, sizeof name, "%s.in.bin", m->bufs[i].name);
        if (write_file(out, name, b, m->bufs[i].size))
            return 2;
        free(b);
        fprintf(j, "%s\n    {\"name\": \"%s\", \"size\": %llu, \"at\": [", i ? "," : "",
                m->bufs[i].name, (unsigned long long)m->bufs[i].size);
        unsigned n = 0;
        for (size_t o = 0; o + 8 <= kn; o += 4) {
            uint64_t v;
            memcpy(&v, ka + o, 8);
            if (v == addr[i])
                fprintf(j, "%s%zu", n++ ? ", " : "", o);
        }
        fprintf(j, "]}");
    }
    fprintf(j, "\n  ],\n  \"outputs\": [");
    for (unsigned i = 0; i < m->noutputs; i++)
        fprintf(j, "%s\"%s\"", i ? ", " : "", m->bufs[m->outputs[i]].name);
    fprintf(j, "]\n}\n");
    if (fclose(j)) {
        fprintf(stderr, "bench_peer_prep: cannot write %s\n", path);
        return 2;
    }
    free(ka);
    free(addr);
    gcn_co_close(co);
    gcn_mf_free(m);
    return 0;
}

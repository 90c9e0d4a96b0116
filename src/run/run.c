/*
 * run.c -- gcnrun's dispatch pipeline, independent of the GPU runtime: load
 * the run manifest, open a device of a matching target, load the code (the
 * same code object gcnsim reads: gcn_mf_load_code_image), make every buffer's
 * initial bytes (gcn_mf_fill), allocate and upload them, build the kernarg
 * segment with gcn_kernarg_build from the device addresses, launch, download
 * every buffer and write the dumps gcnsim writes (NAME.in.bin, NAME.bin,
 * run.json -- the latter with the device, its target ID and the runtime
 * version added under "device").  See gcn_run.h and docs/gcnrun.md.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gcn_decode.h"
#include "run/gcn_run.h"
#include "gcn_file.h"


int gcn_run_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return gcn_file_write(path, data, len, err, errlen);
}

void gcn_run_processor(const char *arch, char *out, size_t outlen)
{
    size_t n = strcspn(arch, ":");
    if (n >= outlen)
        n = outlen - 1;
    memcpy(out, arch, n);
    out[n] = 0;
}

void gcn_run_print_kernarg(FILE *f, const gcn_manifest *m, const char *kernel, const char *target,
                           const uint64_t *addr, const uint8_t *ka, size_t kalen)
{
    fprintf(f, "kernarg %s %s %zu\n", kernel, target, kalen);
    for (unsigned i = 0; i < m->nbufs; i++)
        fprintf(f, "buffer %s 0x%llx\n", m->bufs[i].name, (unsigned long long)addr[i]);
    for (size_t off = 0; off < kalen; off += 16) {
        fprintf(f, "%04zx:", off);
        for (size_t j = off; j < off + 16 && j < kalen; j++)
            fprintf(f, " %02x", ka[j]);
        fputc('\n', f);
    }
}

/* gcn_mf_run_json's run.json plus "tool" and "device". */
static int run_json(const gcn_manifest *m, const char *target, const gcn_run_backend *be,
                    const gcn_run_devinfo *dev, char **out, char *err, size_t errlen)
{
    char *base = NULL;
    if (gcn_mf_run_json(m, target, &base, err, errlen))
        return -1;
    json_error_t je;
    json_t *r = json_loads(base, 0, &je);
    free(base);
    if (!r) {
        gcn_seterr(err, errlen, "run.json: %s", je.text);
        return -1;
    }
    json_object_set_new(r, "tool", json_string("gcnrun"));
    json_t *d = json_object();
    json_object_set_new(d, "backend", json_string(be->name));
    json_object_set_new(d, "index", json_integer(dev->index));
    json_object_set_new(d, "name", json_string(dev->name));
    json_object_set_new(d, "arch", json_string(dev->arch));
    json_object_set_new(d, "target", json_string(dev->target));
    json_object_set_new(d, "runtime", json_string(dev->runtime));
    json_object_set_new(d, "runtime_version", json_integer(dev->runtime_version));
    json_object_set_new(d, "driver_version", json_integer(dev->driver_version));
    if (dev->pci[0])
        json_object_set_new(d, "pci", json_string(dev->pci));
    json_object_set_new(r, "device", d);
    *out = json_dumps(r, JSON_INDENT(2));
    json_decref(r);
    if (!*out) {
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gcn_run_dispatch(const gcn_run_opts *o, gcn_run_backend *be, gcn_run_result *res, char *err,
                     size_t errlen)
{
    memset(res, 0, sizeof *res);
    gcn_manifest *m = NULL;
    gcn_codeobj *co = NULL;
    uint8_t *elf = NULL, *ka = NULL, *host = NULL;
    size_t elf_len = 0, kalen = 0;
    uint64_t *addr = NULL;
    gcn_dump dd = {0};
    int opened = 0, rc;
    char msg[2048];

    if (gcn_mf_load(o->manifest, o->sets, o->nsets, &m, err, errlen))
        return GCN_RUN_EINPUT;
    if (o->dump_dir && !o->print_kernarg && gcn_dump_check(o->dump_dir, err, errlen)) {
        gcn_mf_free(m);
        return GCN_RUN_EINPUT;
    }
    /* the targets the device may have: --mcpu, else the manifest's, else any */
    const char *pre = NULL;
    if (gcn_mf_target(m, o->mcpu, &pre, err, errlen)) {
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    const char *cand[2];
    unsigned ncand = 0;
    if (o->mcpu)
        cand[ncand++] = pre;
    else
        for (unsigned i = 0; i < m->ntargets && ncand < 2; i++)
            if (gcn_target_from_name(m->targets[i]) == GCN_TARGET_GFX942 ||
                gcn_target_from_name(m->targets[i]) == GCN_TARGET_GFX950)
                cand[ncand++] = m->targets[i];
    if (m->ntargets && !ncand) {
        gcn_seterr(err, errlen, "%s: none of the manifest's targets is gfx942 or gfx950", m->path);
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    /* With the target known before the device, input errors come first. */
    int early = o->mcpu || m->ntargets == 1;
    if (early && gcn_mf_load_code_image(m->code, pre, &co, &elf, &elf_len, err, errlen)) {
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    if (!m->ntargets && co) {
        cand[0] = gcn_target_name(co->target);
        ncand = 1;
    }
    rc = be->open(be->self, o->device, cand, ncand, &res->dev, msg, sizeof msg);
    if (rc) {
        gcn_seterr(err, errlen, "%s", msg);
        goto out;
    }
    opened = 1;
    const char *target = NULL;
    if (gcn_mf_target(m, res->dev.target, &target, msg, sizeof msg)) {
        gcn_seterr(err, errlen, "device %d (%s, %s): %s", res->dev.index, res->dev.name,
               res->dev.arch, msg);
        rc = GCN_RUN_NODEV;
        goto out;
    }
    snprintf(res->target, sizeof res->target, "%s", target);
    if (!co && gcn_mf_load_code_image(m->code, target, &co, &elf, &elf_len, err, errlen)) {
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    if (co->target != gcn_target_from_name(target)) {
        gcn_seterr(err, errlen, "%s: the code object is for %s, the device is %s", m->code,
               gcn_target_name(co->target), res->dev.arch);
        rc = GCN_RUN_NODEV;
        goto out;
    }
    const gcn_kernel *k = NULL;
    if (gcn_mf_kernel(m, co, &k, err, errlen)) {
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    snprintf(res->kernel, sizeof res->kernel, "%s", k->name);

    /* buffers: initial bytes, device allocations, uploads, input dumps */
    uint64_t maxsz = 1;
    for (unsigned i = 0; i < m->nbufs; i++)
        if (m->bufs[i].size > maxsz)
            maxsz = m->bufs[i].size;
    addr = calloc(m->nbufs + 1, sizeof *addr);
    host = malloc(maxsz);
    if (!addr || !host) {
        gcn_seterr(err, errlen, "out of memory (%llu bytes)", (unsigned long long)maxsz);
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    /* The dump goes into a fresh directory beside DIR, put in place at the
     * end: DIR then holds this run's dump whole (only the inputs after a
     * fault or a timeout), or, after any other failure, what it held. */
    if (o->dump_dir && !o->print_kernarg && gcn_dump_begin(&dd, o->dump_dir, err, errlen)) {
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    for (unsigned i = 0; i < m->nbufs; i++) {
        const gcn_mf_buffer *b = &m->bufs[i];
        rc = be->alloc(be->self, b->size, b->name, &addr[i], msg, sizeof msg);
        if (rc) {
            gcn_seterr(err, errlen, "buffer %s (%llu bytes): %s", b->name, (unsigned long long)b->size,
                   msg);
            goto out;
        }
        if (b->size && gcn_mf_fill(m, i, host, err, errlen)) {
            rc = GCN_RUN_EINPUT;
            goto out;
        }
        if (b->size && (rc = be->upload(be->self, addr[i], host, b->size, msg, sizeof msg))) {
            gcn_seterr(err, errlen, "buffer %s: upload: %s", b->name, msg);
            goto out;
        }
        if (dd.tmp && gcn_dump_write(&dd, b->name, ".in.bin", host, b->size, err, errlen)) {
            rc = GCN_RUN_EINPUT;
            goto out;
        }
    }
    if (gcn_kernarg_build(m, k, addr, &ka, &kalen, msg, sizeof msg)) {
        gcn_seterr(err, errlen, "%s: %s", m->path, msg);
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    if (o->print_kernarg) {
        gcn_run_print_kernarg(o->kernarg_out ? o->kernarg_out : stdout, m, k->name, target, addr,
                              ka, kalen);
        rc = GCN_RUN_OK;
        goto out;
    }
    double t0 = now_s();
    rc = be->launch(be->self, elf, elf_len, co, k, m->grid, m->block, m->dynamic_lds, ka, kalen,
                    o->timeout_s ? o->timeout_s : 60, msg, sizeof msg);
    res->seconds = now_s() - t0;
    if (rc) {
        gcn_seterr(err, errlen, "%s on %s (%s): %s", k->name, res->dev.name, res->dev.arch, msg);
        char e2[1024];
        if (rc == GCN_RUN_FAULT && dd.tmp && gcn_dump_commit(&dd, e2, sizeof e2)) {
            size_t n = strlen(err);
            if (n < errlen)
                snprintf(err + n, errlen - n, "; and the dump: %s", e2);
        }
        goto out;
    }
    if (dd.tmp) {
        for (unsigned i = 0; i < m->nbufs; i++) {
            const gcn_mf_buffer *b = &m->bufs[i];
            if (b->size && (rc = be->download(be->self, host, addr[i], b->size, msg, sizeof msg))) {
                gcn_seterr(err, errlen, "buffer %s: download: %s", b->name, msg);
                goto out;
            }
            if (gcn_dump_write(&dd, b->name, ".bin", host, b->size, err, errlen)) {
                rc = GCN_RUN_EINPUT;
                goto out;
            }
        }
        char *rj = NULL;
        if (run_json(m, target, be, &res->dev, &rj, err, errlen) ||
            gcn_dump_write(&dd, "run", ".json", rj, strlen(rj), err, errlen) ||
            gcn_dump_commit(&dd, err, errlen)) {
            free(rj);
            rc = GCN_RUN_EINPUT;
            goto out;
        }
        free(rj);
    }
    rc = GCN_RUN_OK;
out:
    if (dd.tmp)
        gcn_dump_abort(&dd);
    if (opened)
        be->close(be->self);
    free(ka);
    free(host);
    free(addr);
    free(elf);
    gcn_co_close(co);
    gcn_mf_free(m);
    return rc;
}

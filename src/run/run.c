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

/* One dispatch of gcn_run_dispatch: what it loaded, opened and allocated (freed by
 * dispatch_free), err its message buffer. */
typedef struct dispatch {
    const gcn_run_opts *o;
    gcn_run_backend *be;
    gcn_run_result *res;
    char *err;
    size_t errlen;
    gcn_manifest *m;
    gcn_codeobj *co;
    uint8_t *elf, *ka, *host;
    size_t elf_len, kalen;
    uint64_t *addr;
    gcn_dump dd;
    int opened;
    const char *target;          /* the device's target as the manifest names it */
    const gcn_kernel *k;
} dispatch;

/* The targets the device may have: --mcpu, else the manifest's gfx942/gfx950 ones, else
 * any (*ncand 0).  *pre: the one --mcpu picks of the manifest's.  A result code. */
static int candidate_targets(dispatch *x, const char **pre, const char *cand[2],
                             unsigned *ncand)
{
    const gcn_manifest *m = x->m;
    *ncand = 0;
    if (gcn_mf_target(m, x->o->mcpu, pre, x->err, x->errlen))
        return GCN_RUN_EINPUT;
    if (x->o->mcpu)
        cand[(*ncand)++] = *pre;
    else
        for (unsigned i = 0; i < m->ntargets && *ncand < 2; i++)
            if (gcn_target_from_name(m->targets[i]) == GCN_TARGET_GFX942 ||
                gcn_target_from_name(m->targets[i]) == GCN_TARGET_GFX950)
                cand[(*ncand)++] = m->targets[i];
    if (m->ntargets && !*ncand) {
        gcn_seterr(x->err, x->errlen, "%s: none of the manifest's targets is gfx942 or gfx950",
                   m->path);
        return GCN_RUN_EINPUT;
    }
    return GCN_RUN_OK;
}

/* A device of a candidate target opened, the code loaded for its target (before the device
 * when the target is known: input errors come first), the kernel picked.  A result code. */
static int open_device(dispatch *x)
{
    const gcn_manifest *m = x->m;
    gcn_run_result *res = x->res;
    char msg[2048];
    const char *pre = NULL, *cand[2];
    unsigned ncand = 0;
    int rc = candidate_targets(x, &pre, cand, &ncand);
    if (rc)
        return rc;
    int early = x->o->mcpu || m->ntargets == 1;
    if (early && gcn_mf_load_code_image(m->code, pre, &x->co, &x->elf, &x->elf_len, x->err,
                                        x->errlen))
        return GCN_RUN_EINPUT;
    if (!m->ntargets && x->co) {
        cand[0] = gcn_target_name(x->co->target);
        ncand = 1;
    }
    rc = x->be->open(x->be->self, x->o->device, cand, ncand, &res->dev, msg, sizeof msg);
    if (rc) {
        gcn_seterr(x->err, x->errlen, "%s", msg);
        return rc;
    }
    x->opened = 1;
    if (gcn_mf_target(m, res->dev.target, &x->target, msg, sizeof msg)) {
        gcn_seterr(x->err, x->errlen, "device %d (%s, %s): %s", res->dev.index, res->dev.name,
                   res->dev.arch, msg);
        return GCN_RUN_NODEV;
    }
    snprintf(res->target, sizeof res->target, "%s", x->target);
    if (!x->co && gcn_mf_load_code_image(m->code, x->target, &x->co, &x->elf, &x->elf_len,
                                         x->err, x->errlen))
        return GCN_RUN_EINPUT;
    if (x->co->target != gcn_target_from_name(x->target)) {
        gcn_seterr(x->err, x->errlen, "%s: the code object is for %s, the device is %s", m->code,
                   gcn_target_name(x->co->target), res->dev.arch);
        return GCN_RUN_NODEV;
    }
    if (gcn_mf_kernel(m, x->co, &x->k, x->err, x->errlen))
        return GCN_RUN_EINPUT;
    snprintf(res->kernel, sizeof res->kernel, "%s", x->k->name);
    return GCN_RUN_OK;
}

/* The buffers: initial bytes, device allocations, uploads, input dumps (the dump begun:
 * it goes into a fresh directory beside DIR, put in place at the end, so DIR then holds
 * this run's dump whole -- only the inputs after a fault or a timeout -- or, after any
 * other failure, what it held).  A result code. */
static int upload_buffers(dispatch *x)
{
    const gcn_manifest *m = x->m;
    gcn_run_backend *be = x->be;
    char msg[2048];
    int rc;
    uint64_t maxsz = 1;
    for (unsigned i = 0; i < m->nbufs; i++)
        if (m->bufs[i].size > maxsz)
            maxsz = m->bufs[i].size;
    x->addr = calloc(m->nbufs + 1, sizeof *x->addr);
    x->host = malloc(maxsz);
    if (!x->addr || !x->host) {
        gcn_seterr(x->err, x->errlen, "out of memory (%llu bytes)", (unsigned long long)maxsz);
        return GCN_RUN_EINPUT;
    }
    if (x->o->dump_dir && !x->o->print_kernarg &&
        gcn_dump_begin(&x->dd, x->o->dump_dir, x->err, x->errlen))
        return GCN_RUN_EINPUT;
    for (unsigned i = 0; i < m->nbufs; i++) {
        const gcn_mf_buffer *b = &m->bufs[i];
        rc = be->alloc(be->self, b->size, b->name, &x->addr[i], msg, sizeof msg);
        if (rc) {
            gcn_seterr(x->err, x->errlen, "buffer %s (%llu bytes): %s", b->name,
                       (unsigned long long)b->size, msg);
            return rc;
        }
        if (b->size && gcn_mf_fill(m, i, x->host, x->err, x->errlen))
            return GCN_RUN_EINPUT;
        if (b->size && (rc = be->upload(be->self, x->addr[i], x->host, b->size, msg, sizeof msg))) {
            gcn_seterr(x->err, x->errlen, "buffer %s: upload: %s", b->name, msg);
            return rc;
        }
        if (x->dd.tmp && gcn_dump_write(&x->dd, b->name, ".in.bin", x->host, b->size, x->err,
                                        x->errlen))
            return GCN_RUN_EINPUT;
    }
    return GCN_RUN_OK;
}

/* The kernel launched (res->seconds its time); a fault still puts the input dump in place.
 * A result code. */
static int launch(dispatch *x)
{
    gcn_run_result *res = x->res;
    char msg[2048];
    double t0 = now_s();
    int rc = x->be->launch(x->be->self, x->elf, x->elf_len, x->co, x->k, x->m->grid, x->m->block,
                           x->m->dynamic_lds, x->ka, x->kalen,
                           x->o->timeout_s ? x->o->timeout_s : 60, msg, sizeof msg);
    res->seconds = now_s() - t0;
    if (!rc)
        return GCN_RUN_OK;
    gcn_seterr(x->err, x->errlen, "%s on %s (%s): %s", x->k->name, res->dev.name, res->dev.arch,
               msg);
    char e2[1024];
    if (rc == GCN_RUN_FAULT && x->dd.tmp && gcn_dump_commit(&x->dd, e2, sizeof e2)) {
        size_t n = strlen(x->err);
        if (n < x->errlen)
            snprintf(x->err + n, x->errlen - n, "; and the dump: %s", e2);
    }
    return rc;
}

/* Every buffer downloaded into the dump, then run.json, then the dump put in place.
 * A result code. */
static int dump_outputs(dispatch *x)
{
    const gcn_manifest *m = x->m;
    char msg[2048];
    int rc;
    for (unsigned i = 0; i < m->nbufs; i++) {
        const gcn_mf_buffer *b = &m->bufs[i];
        if (b->size &&
            (rc = x->be->download(x->be->self, x->host, x->addr[i], b->size, msg, sizeof msg))) {
            gcn_seterr(x->err, x->errlen, "buffer %s: download: %s", b->name, msg);
            return rc;
        }
        if (gcn_dump_write(&x->dd, b->name, ".bin", x->host, b->size, x->err, x->errlen))
            return GCN_RUN_EINPUT;
    }
    char *rj = NULL;
    if (run_json(m, x->target, x->be, &x->res->dev, &rj, x->err, x->errlen) ||
        gcn_dump_write(&x->dd, "run", ".json", rj, strlen(rj), x->err, x->errlen) ||
        gcn_dump_commit(&x->dd, x->err, x->errlen)) {
        free(rj);
        return GCN_RUN_EINPUT;
    }
    free(rj);
    return GCN_RUN_OK;
}

static void dispatch_free(dispatch *x)
{
    if (x->dd.tmp)
        gcn_dump_abort(&x->dd);
    if (x->opened)
        x->be->close(x->be->self);
    free(x->ka);
    free(x->host);
    free(x->addr);
    free(x->elf);
    gcn_co_close(x->co);
    gcn_mf_free(x->m);
}

int gcn_run_dispatch(const gcn_run_opts *o, gcn_run_backend *be, gcn_run_result *res, char *err,
                     size_t errlen)
{
    memset(res, 0, sizeof *res);
    dispatch x = {.o = o, .be = be, .res = res, .err = err, .errlen = errlen};
    char msg[2048];
    int rc;
    if (gcn_mf_load(o->manifest, o->sets, o->nsets, &x.m, err, errlen))
        return GCN_RUN_EINPUT;
    if (o->dump_dir && !o->print_kernarg && gcn_dump_check(o->dump_dir, err, errlen)) {
        dispatch_free(&x);
        return GCN_RUN_EINPUT;
    }
    if ((rc = open_device(&x)) || (rc = upload_buffers(&x)))
        goto out;
    if (gcn_kernarg_build(x.m, x.k, x.addr, &x.ka, &x.kalen, msg, sizeof msg)) {
        gcn_seterr(err, errlen, "%s: %s", x.m->path, msg);
        rc = GCN_RUN_EINPUT;
        goto out;
    }
    if (o->print_kernarg) {
        gcn_run_print_kernarg(o->kernarg_out ? o->kernarg_out : stdout, x.m, x.k->name, x.target,
                              x.addr, x.ka, x.kalen);
        rc = GCN_RUN_OK;
        goto out;
    }
    if ((rc = launch(&x)))
        goto out;
    rc = x.dd.tmp ? dump_outputs(&x) : GCN_RUN_OK;
out:
    dispatch_free(&x);
    return rc;
}

/*
 * simkernarg.c -- prints the kernarg segment gcnsim builds for a manifest,
 * made the way src/tools/gcnsim.c makes it (gcn_mf_load, gcn_mf_target,
 * gcn_mf_load_code, gcn_mf_kernel, one gcn_sim_alloc per buffer in manifest
 * order, gcn_kernarg_build), in the format of `gcnrun --print-kernarg`.
 * tests/device/test_kernarg.sh compares the two for every bundled manifest.
 *
 *   simkernarg --manifest M.json [--mcpu T] [--set NAME=VALUE]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/gcn_run.h"
#include "sim/gcn_sim.h"

int main(int argc, char **argv)
{
    const char *manifest = NULL, *mcpu = NULL;
    const char *sets[64];
    unsigned nsets = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--manifest") && i + 1 < argc)
            manifest = argv[++i];
        else if (!strcmp(argv[i], "--mcpu") && i + 1 < argc)
            mcpu = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 64)
            sets[nsets++] = argv[++i];
        else {
            fprintf(stderr, "usage: simkernarg --manifest M.json [--mcpu T] [--set N=V]...\n");
            return 1;
        }
    }
    if (!manifest) {
        fprintf(stderr, "simkernarg: --manifest is required\n");
        return 1;
    }
    char err[2048];
    gcn_manifest *m = NULL;
    gcn_codeobj *co = NULL;
    const gcn_kernel *k = NULL;
    const char *target = NULL;
    if (gcn_mf_load(manifest, sets, nsets, &m, err, sizeof err) ||
        gcn_mf_target(m, mcpu, &target, err, sizeof err) ||
        gcn_mf_load_code(m->code, target, &co, err, sizeof err)) {
        fprintf(stderr, "simkernarg: %s\n", err);
        gcn_mf_free(m);
        return 2;
    }
    if (!target)
        target = gcn_target_name(co->target);
    if (gcn_mf_kernel(m, co, &k, err, sizeof err)) {
        fprintf(stderr, "simkernarg: %s\n", err);
        gcn_co_close(co);
        gcn_mf_free(m);
        return 2;
    }
    gcn_sim_opts o = {.target = gcn_target_from_name(target)};
    gcn_sim *sim = gcn_sim_new(&o);
    uint64_t *addr = calloc(m->nbufs + 1, sizeof *addr);
    uint8_t *ka = NULL;
    size_t kalen = 0;
    int rc = 0;
    for (unsigned i = 0; i < m->nbufs && !rc; i++)
        rc = gcn_sim_alloc(sim, m->bufs[i].size, m->bufs[i].name, &addr[i]);
    if (rc || gcn_kernarg_build(m, k, addr, &ka, &kalen, err, sizeof err)) {
        fprintf(stderr, "simkernarg: %s\n", rc ? "cannot allocate" : err);
        rc = 2;
    } else {
        gcn_run_print_kernarg(stdout, m, k->name, target, addr, ka, kalen);
    }
    free(ka);
    free(addr);
    gcn_sim_free(sim);
    gcn_co_close(co);
    gcn_mf_free(m);
    return rc;
}

/*
 * gcnrun.c -- the gcnrun command: run a manifest's kernel on a real
 * gfx942/gfx950 GPU (HIP runtime) with the buffers, kernarg bytes and dump
 * files of gcnsim, for a bit-for-bit cross-check (docs/gcnrun.md).  Thin: the
 * pipeline is src/run/run.c, the device src/run/dev_hip.c.
 *
 * Exit codes: 0 ran, 1 usage, 2 bad input, 3 kernel fault on the device (or
 * no completion within --timeout), 5 no gfx942/gfx950 device (or none for
 * the manifest's targets, or no HIP runtime), 6 GPU runtime error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/gcn_run.h"
#include "gcn_file.h"
#include "cli.h"
#include "tools/gcn_version.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcnrun [options] --manifest M.json\n"
        "       gcnrun --list-devices\n"
        "Run a manifest's kernel on a gfx942 (MI300) / gfx950 (MI355) GPU with the buffers,\n"
        "kernarg bytes and dump files of gcnsim, to compare the two bit for bit.\n"
        "\n"
        "  --manifest M.json      run manifest (docs/manifest.md)\n"
        "  --set NAME=VALUE       override a manifest param (repeatable)\n"
        "  --mcpu gfx942|gfx950   target (also --mcpu=X, -mcpu=X; default: the first device\n"
        "                         target the manifest lists)\n"
        "  --device N             HIP device ordinal (default: the first matching device)\n"
        "  --dump-dir DIR         write NAME.in.bin, NAME.bin and run.json there\n"
        "  --timeout S            seconds to wait for the kernel (default 60)\n"
        "  --print-kernarg        print the kernarg bytes (hex) and the buffer addresses,\n"
        "                         do not launch\n"
        "  --no-device            no GPU: the buffer addresses gcnsim would use, no launch\n"
        "                         (with --print-kernarg; same as --backend=none)\n"
        "  --backend hip|sim|none hip: the GPU (default); sim: the gcnsim simulator as the\n"
        "                         device (self-test of gcnrun, not a cross-check); none: see\n"
        "                         --no-device\n"
        "  --list-devices         list the GPUs the HIP runtime sees\n"
        "  -q, --quiet            no summary line\n"
        "  -h, --help             this help\n"
        "  --version              print the version (and the git revision) and exit\n"
        "Exit: 0 ran, 1 usage, 2 bad input, 3 kernel fault or timeout,\n"
        "      5 no gfx942/gfx950 device (or no HIP runtime), 6 GPU runtime error.\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"manifest", required_argument, 0, 'm'}, {"set", required_argument, 0, 's'},
        {"mcpu", required_argument, 0, 'c'}, {"device", required_argument, 0, 'D'},
        {"dump-dir", required_argument, 0, 'd'}, {"timeout", required_argument, 0, 'T'},
        {"print-kernarg", no_argument, 0, 'K'}, {"no-device", no_argument, 0, 'N'},
        {"backend", required_argument, 0, 'B'}, {"list-devices", no_argument, 0, 'L'},
        {"quiet", no_argument, 0, 'q'}, {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'}, {0, 0, 0, 0}};
    gcn_run_opts o = {.device = -1};
    const char **sets = NULL;
    unsigned nsets = 0;
    const char *backend = "hip";
    int list = 0, quiet = 0, c;
    char *end;
    gcn_file_signals();
    if (gcn_cli_take_mcpu("gcnrun", &argc, argv, &o.mcpu))
        return GCN_RUN_USAGE;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'm': o.manifest = optarg; break;
        case 's': {
            const char **ns = realloc(sets, (nsets + 1) * sizeof *ns);
            if (!ns) {
                fprintf(stderr, "gcnrun: out of memory\n");
                return GCN_RUN_EINPUT;
            }
            sets = ns;
            sets[nsets++] = optarg;
            break;
        }
        case 'c': o.mcpu = optarg; break;
        case 'D': {
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 0 || v > 1024 || !(*optarg >= '0' && *optarg <= '9')) {
                fprintf(stderr, "gcnrun: --device %s: expected a device ordinal\n", optarg);
                free(sets);
                return GCN_RUN_USAGE;
            }
            o.device = (int)v;
            break;
        }
        case 'd': o.dump_dir = optarg; break;
        case 'T': {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || end == optarg || v == 0 || v > 86400 || !(*optarg >= '0' && *optarg <= '9')) {
                fprintf(stderr, "gcnrun: --timeout %s: expected seconds (1..86400)\n", optarg);
                free(sets);
                return GCN_RUN_USAGE;
            }
            o.timeout_s = (unsigned)v;
            break;
        }
        case 'K': o.print_kernarg = 1; break;
        case 'N': backend = "none"; break;
        case 'B': backend = optarg; break;
        case 'L': list = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); free(sets); return GCN_RUN_OK;
        case 'V': gcn_version_print(stdout, "gcnrun"); free(sets); return GCN_RUN_OK;
        default: usage(stderr); free(sets); return GCN_RUN_USAGE;
        }
    }
    if (optind < argc || (!o.manifest && !list) || (o.manifest && list)) {
        fprintf(stderr, "gcnrun: give --manifest M.json (or --list-devices)\n");
        usage(stderr);
        free(sets);
        return GCN_RUN_USAGE;
    }
    gcn_run_backend *be = NULL;
    if (!strcmp(backend, "hip"))
        be = gcn_run_hip_backend();
    else if (!strcmp(backend, "sim"))
        be = gcn_run_sim_backend();
    else if (!strcmp(backend, "none"))
        be = gcn_run_none_backend();
    else {
        fprintf(stderr, "gcnrun: --backend %s: expected hip, sim or none\n", backend);
        free(sets);
        return GCN_RUN_USAGE;
    }
    if (!strcmp(backend, "none") && !o.print_kernarg && !list) {
        fprintf(stderr, "gcnrun: --no-device / --backend=none only with --print-kernarg\n");
        gcn_run_backend_free(be);
        free(sets);
        return GCN_RUN_USAGE;
    }
    if (!be) {
        fprintf(stderr, "gcnrun: out of memory\n");
        free(sets);
        return GCN_RUN_EINPUT;
    }
    char err[4096];
    int rc;
    if (list) {
        rc = be->list(be->self, stdout, err, sizeof err);
        if (rc)
            fprintf(stderr, "gcnrun: %s\n", err);
        gcn_run_backend_free(be);
        free(sets);
        return rc;
    }
    o.sets = sets;
    o.nsets = nsets;
    o.kernarg_out = stdout;
    gcn_run_result res;
    rc = gcn_run_dispatch(&o, be, &res, err, sizeof err);
    if (rc)
        fprintf(stderr, "gcnrun: %s\n", err);
    if (rc == GCN_RUN_FAULT) {
        /* after a fault or a hang the runtime's exit handlers may wait for the GPU forever:
         * leave at once (the kernel driver tears the queue down) */
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    /* the summary only after a run: res is not filled in after an error */
    if (rc == GCN_RUN_OK && !quiet && !o.print_kernarg)
        fprintf(stderr, "gcnrun: %s on %s (%s, device %d, %s backend): %.3f s\n", res.kernel,
                res.dev.name, res.dev.arch, res.dev.index, be->name, res.seconds);
    gcn_run_backend_free(be);
    free(sets);
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == GCN_RUN_OK) {
        fprintf(stderr, "gcnrun: cannot write standard output\n");
        rc = GCN_RUN_EINPUT;
    }
    return rc;
}

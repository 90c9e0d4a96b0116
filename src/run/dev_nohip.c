/*
 * dev_nohip.c -- stands in for dev_hip.c in builds without the HIP runtime
 * (the test program tests/device/gcnrun_nohip): the "hip" backend exists but
 * finds no device, so gcnrun's other backends and its exit code 5 can be
 * tested on any machine.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "run/gcn_run.h"

static int nh_none(char *err, size_t errlen)
{
    snprintf(err, errlen, "no gfx942/gfx950 device: this gcnrun was built without the HIP runtime "
             "(install hipcc libamdhip64-dev or ROCm and rerun configure)");
    return GCN_RUN_NODEV;
}

static int nh_list(void *self, FILE *f, char *err, size_t errlen)
{
    return nh_none(err, errlen);
}

static int nh_open(void *self, int index, const char *const *targets, unsigned ntargets,
                   gcn_run_devinfo *info, char *err, size_t errlen)
{
    return nh_none(err, errlen);
}

static void nh_close(void *self)
{
}

gcn_run_backend *gcn_run_hip_backend(void)
{
    gcn_run_backend *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->name = "hip";
    b->list = nh_list;
    b->open = nh_open;
    b->close = nh_close;
    return b;
}

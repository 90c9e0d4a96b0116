/*
 * device.c -- the simulated device as the instruction bodies reach it: device
 * memory (the allocations of gcn_sim_alloc, sim.c, in increasing address order,
 * each followed by at least 1 MiB of unmapped guard, so an access past the end
 * of a buffer faults instead of landing in the next one; the host view of device
 * bytes, sim_mem and gcn_sim_host; the faulting accessor sim_gmem and the
 * description of where a bad address lies for its message), and the few facts of
 * the run a body reads (sim_body.h: the target, whether it faulted, the
 * instruction clock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

uint8_t *sim_mem(gcn_sim *s, uint64_t addr, uint64_t n)
{
    sim_alloc *a = s->nallocs ? &s->allocs[s->last] : NULL;
    if (a && addr >= a->base && addr - a->base + n <= a->size && addr + n >= addr)
        return a->data + (addr - a->base);
    /* the allocation last hit in this 2 MiB region (buffers walked side by side take turns
     * in `last`) */
    unsigned *hint = &s->mhint[addr >> 21 & 63];
    if (*hint < s->nallocs) {
        a = &s->allocs[*hint];
        if (addr >= a->base && addr - a->base + n <= a->size && addr + n >= addr) {
            s->last = *hint;
            return a->data + (addr - a->base);
        }
    }
    /* allocations are in increasing address order: binary search */
    unsigned lo = 0, hi = s->nallocs;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (s->allocs[mid].base + s->allocs[mid].size <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nallocs) {
        a = &s->allocs[lo];
        if (addr >= a->base && addr - a->base + n <= a->size && addr + n >= addr) {
            s->last = *hint = lo;
            return a->data + (addr - a->base);
        }
    }
    return NULL;
}

uint8_t *gcn_sim_host(gcn_sim *s, uint64_t addr, uint64_t size)
{
    return sim_mem(s, addr, size);
}

/* Describe where an address lies relative to the allocations. */
void sim_describe_addr(gcn_sim *s, uint64_t addr, char *buf, size_t n)
{
    const sim_alloc *best = NULL;
    uint64_t bestd = UINT64_MAX;
    for (unsigned i = 0; i < s->nallocs; i++) {
        const sim_alloc *a = &s->allocs[i];
        uint64_t d = addr < a->base ? a->base - addr : addr - (a->base + a->size);
        if (addr >= a->base && addr < a->base + a->size)
            d = 0;
        if (d < bestd) {
            bestd = d;
            best = &s->allocs[i];
        }
    }
    if (best && bestd < (1ull << 20)) {
        if (addr >= best->base + best->size)
            snprintf(buf, n, " (offset %llu of allocation '%s' [0x%llx, +%llu): past its end)",
                     (unsigned long long)(addr - best->base), best->name,
                     (unsigned long long)best->base, (unsigned long long)best->size);
        else if (addr < best->base)
            snprintf(buf, n, " (%llu bytes before allocation '%s' at 0x%llx)",
                     (unsigned long long)(best->base - addr), best->name,
                     (unsigned long long)best->base);
        else
            snprintf(buf, n, " (access runs past the end of allocation '%s' [0x%llx, +%llu))",
                     best->name, (unsigned long long)best->base, (unsigned long long)best->size);
    } else {
        snprintf(buf, n, " (not in any allocation)");
    }
}

uint8_t *sim_gmem(sim_x *x, uint64_t addr, unsigned n, unsigned lane)
{
    uint8_t *p = sim_mem(x->sim, addr, n);
    if (!p) {
        char where[256];
        sim_describe_addr(x->sim, addr, where, sizeof where);
        sim_fault(x, "memory fault: lane %u accesses %u bytes at 0x%llx%s", lane, n,
                  (unsigned long long)addr, where);
    }
    return p;
}

/* ---- what a body reads of the run --------------------------------------------- */

gcn_target sim_target(const sim_x *x)
{
    return x->sim->o.target;
}

int sim_faulted(const sim_x *x)
{
    return x->sim->faulted;
}

uint64_t sim_clock(const sim_x *x)
{
    return x->sim->insns;
}

/*
 * trace.h -- observability of one wave: the FIFO trace (--trace=fifo), the
 * Chrome/Perfetto JSON trace (--trace-json) and the FIFO-depth plot (--plot).
 * Hooks are called by the execution loop and the ticket code only for the
 * traced wave.
 */
#ifndef GCN_SIM_TRACE_H
#define GCN_SIM_TRACE_H

#include <stddef.h>
#include "sim_int.h"

struct sim_trace;
struct sim_trace *sim_trace_new(gcn_sim *s);
void sim_trace_before(struct sim_trace *t, sim_x *x, const sim_insn *si);
void sim_trace_after(struct sim_trace *t, sim_x *x, const sim_insn *si);
void sim_trace_issue(struct sim_trace *t, sim_wave *w, const sim_ticket *tk);
void sim_trace_retire(struct sim_trace *t, sim_wave *w, const sim_ticket *tk, unsigned counter);
void sim_trace_finding(struct sim_trace *t, sim_wave *w, const gcn_sim_finding *f);
void sim_trace_barrier(struct sim_trace *t);
/* Write the JSON trace and the plot; 0 or -1 with a message. */
int sim_trace_finish(struct sim_trace *t, char *err, size_t errlen);
void sim_trace_free(struct sim_trace *t);

/* Write a file atomically (temp file in the same directory + rename). */
int sim_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif

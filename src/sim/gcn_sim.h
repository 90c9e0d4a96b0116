/*
 * gcn_sim.h -- the functional wave64 simulator of gcnsim, as seen by tools.
 *
 * A gcn_sim is one simulated device: device memory made of allocations, a
 * target (gfx942 / gfx950) and run options.  gcn_sim_run() dispatches one
 * kernel of a code object over a grid of workgroups and runs it to the end,
 * collecting dynamic findings (wait-counter misuse, see docs/gcnsim.md) and
 * stopping on a fault (memory fault, illegal or unsimulated instruction,
 * instruction budget exceeded).
 */
#ifndef GCN_SIM_H
#define GCN_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "gcn_isa.h"
#include "gcn_codeobj.h"

typedef struct gcn_sim gcn_sim;

enum {
    GCN_SIM_OK = 0,
    GCN_SIM_FAULT = 3,      /* matches gcnsim's exit code for a kernel fault */
    GCN_SIM_EINPUT = 2,     /* bad dispatch parameters */
};

/* gcn_sim_opts.hazard_effect */
enum { GCN_SIM_HZ_REPORT = 0, GCN_SIM_HZ_OFF = 1, GCN_SIM_HZ_STALE = 2 };
/* gcn_sim_opts.wait_effect: what a register access does when a load that writes the
 * register has not retired (read-before-retire, overwrite-before-retire): the old value is
 * read and the load lands later (STALE, default: the pessimistic timing), or the finding is
 * reported and the loads retire as the proposed s_waitcnt would (RETIRE: the values the
 * kernel computes when the loads' latency has passed, as it usually has on hardware) */
enum { GCN_SIM_WAIT_STALE = 0, GCN_SIM_WAIT_RETIRE = 1 };

/* Finding kinds (dynamic checks). */
typedef enum gcn_sim_finding_kind {
    GCN_FIND_READ_PENDING = 1,  /* read of a register whose load has not retired */
    GCN_FIND_WRITE_PENDING,     /* overwrite of a register whose load has not retired */
    GCN_FIND_LDS_DMA_PENDING,   /* LDS read of bytes an unretired LDS-DMA writes */
    GCN_FIND_SMEM_OOO,          /* SMEM result used after lgkmcnt(N>0) with another SMEM pending */
    GCN_FIND_BARRIER_LDS,       /* s_barrier with LDS writes outstanding that another wave reads */
    GCN_FIND_LDS_RACE,          /* LDS read of bytes another wave wrote with no s_barrier between */
    GCN_FIND_HAZARD,            /* too few wait states between producer and consumer
                                 * (src/analyze/hazards.def) */
    GCN_FIND_REG_ALIAS,         /* one physical register of the unified file named both as
                                 * vN (N >= accum_offset) and as aM (a warning) */
    GCN_FIND_KIND_COUNT
} gcn_sim_finding_kind;

typedef struct gcn_sim_finding {
    gcn_sim_finding_kind kind;
    uint64_t pc;                 /* consumer instruction */
    char *text;                  /* its text */
    char *where;                 /* "file.s:12" or NULL */
    char *sym;                   /* "kernel+0x120" or NULL */
    char *file;                  /* the line table's path (absolute) of where, or NULL */
    unsigned line;               /* its line (0: none) */
    uint64_t prod_pc;            /* producing instruction (or ~0) */
    char *prod_text;
    char *prod_where;
    char *prod_sym;
    char *detail;                /* registers/bytes and explanation, with the fix */
    char *rule;                  /* GCN_FIND_HAZARD: the rule's name (src/analyze/hazards.def,
                                  * e.g. "SALU_M0_READ"), else NULL */
    uint64_t lanes;              /* lanes concerned (first occurrence) */
    unsigned wg[3], wave;        /* first occurrence */
    uint64_t count;              /* occurrences (same kind, rule, pc, producer) */
    /* The fix: the loosest s_waitcnt that retires the producer on every path the run took
     * (over all occurrences), or none (both counts -1: races and hazards need a barrier or
     * wait states, not a wait count). */
    int fix_vmcnt, fix_lgkmcnt;  /* its counts, -1 where a counter need not be waited for;
                                  * never 63 / 15, which on gfx9 mean "no wait" */
    uint64_t fix_pc;             /* put it right before this instruction: the consumer, or the
                                  * s_barrier another wave passed with the producer pending */
    char *fix_text, *fix_where, *fix_sym;   /* that instruction */
    const char *fix_how;         /* (internal) the sentence proposing the wait */
    char *detail_base;           /* (internal) the detail without the fix */
    uint64_t first_seq;          /* (internal) detection order of the first occurrence
                                  * (races counted when the read value is used) */
} gcn_sim_finding;

/* Findings grouped for reading: one group per rule (finding kind, and for hazards the rule)
 * with every site (consumer pc and producer) where the run broke it. */
typedef struct gcn_sim_group {
    gcn_sim_finding_kind kind;
    const char *rule;            /* the hazard rule, or NULL */
    unsigned nsites;             /* its findings (distinct consumer/producer pairs) */
    unsigned *site;              /* their indices in the result's findings, by consumer pc
                                  * then producer pc: site[0] is the group's location */
    unsigned npcs;               /* distinct consumer pcs */
    uint64_t count;              /* occurrences over all sites */
} gcn_sim_group;

typedef struct gcn_sim_opts {
    gcn_target target;
    uint64_t max_insns;          /* wave-instruction budget for one run (0: default) */
    int strict;                  /* stop at the first finding (as a fault) */
    int hazard_effect;           /* GCN_SIM_HZ_*: hazards reported (default), not
                                  * checked, or reported and modelled (stale reads) */
    int hazard_llvm;             /* also the llvm-conservative hazard rules (what only
                                  * LLVM's hazard recognizer requires, hazards.def) */
    /* observability */
    int trace_fifo;              /* print the FIFO trace of one wave to trace_out */
    FILE *trace_out;
    unsigned trace_wg, trace_wave; /* flat workgroup index, wave index in it */
    const char *trace_json;      /* Chrome trace of that wave, or NULL */
    const char *plot_svg;        /* FIFO depth plot of that wave, or NULL */
    int progress;                /* progress line on stderr */
    unsigned quantum;            /* instructions a wave runs before the next wave of its
                                    workgroup gets a turn (0: 1, instruction-level round robin) */
    unsigned max_findings_print; /* (unused by the library) */
    int wait_effect;             /* GCN_SIM_WAIT_*: a missing s_waitcnt reads the old value
                                  * (default) or retires the loads (findings reported) */
    unsigned threads;            /* run workgroups on up to this many threads (0, 1: one,
                                  * in dispatch order); the results are those of one
                                  * thread (docs/gcnsim.md, "Threads"); gcn_sim_cpus()
                                  * is one per CPU */
} gcn_sim_opts;

/* One dispatch. */
typedef struct gcn_dispatch {
    const gcn_codeobj *co;
    const gcn_kernel *kernel;
    uint32_t grid[3];            /* number of workgroups per dimension */
    uint32_t block[3];           /* work-items per workgroup per dimension */
    const uint8_t *kernarg;      /* kernarg segment bytes */
    size_t kernarg_size;
    uint32_t dynamic_lds;        /* extra group segment bytes */
} gcn_dispatch;

/* The instruction a fault happened at: pc (0: none, e.g. a fault before the
 * first instruction), "kernel+0xOFF", the line table's file (absolute) and line. */
typedef struct gcn_sim_where {
    uint64_t pc;
    char sym[256];
    char file[1024];
    unsigned line;
} gcn_sim_where;

typedef struct gcn_sim_result {
    int status;                  /* GCN_SIM_OK or GCN_SIM_FAULT/EINPUT */
    char msg[1024];              /* fault / error message */
    gcn_sim_where fault_at;      /* the faulting instruction (FAULT) */
    uint64_t insns;              /* wave-instructions executed */
    uint64_t waves;
    double seconds;              /* wall-clock time of the run */
    double cpu_seconds;          /* CPU time of the run (this thread) */
    gcn_sim_finding *findings;       /* owned by the gcn_sim, valid until the next run */
    unsigned nfindings;
    unsigned threads;            /* threads the workgroups ran on */
    char serial_why[256];        /* more than one thread asked, one used: why ("" else) */
} gcn_sim_result;

gcn_sim *gcn_sim_new(const gcn_sim_opts *opts);
void gcn_sim_free(gcn_sim *s);
/* Make s what gcn_sim_new(opts) made -- no allocations, no findings, the options opts --
 * but keep the memory its earlier runs set up (the waves' register files, the LDS, the
 * blocks of predecoded instructions) for the next run: for a program that runs many
 * independent dispatches, one after another, on one device. */
void gcn_sim_reset(gcn_sim *s, const gcn_sim_opts *opts);

/* Device memory.  Allocations are placed at distinct, guarded addresses; any
 * flat/global access outside every allocation is a reported fault. */
int gcn_sim_alloc(gcn_sim *s, uint64_t size, const char *name, uint64_t *addr);
/* Host view of [addr, addr+size) inside one allocation, or NULL. */
uint8_t *gcn_sim_host(gcn_sim *s, uint64_t addr, uint64_t size);

int gcn_sim_run(gcn_sim *s, const gcn_dispatch *d, gcn_sim_result *res);
/* The CPUs this process may run on (its affinity mask, else the online CPUs). */
unsigned gcn_sim_cpus(void);

/* Text of a finding kind ("read-before-retire" ...). */
const char *gcn_sim_finding_name(gcn_sim_finding_kind k);
/* Print findings in the documented format, one per (kind, rule, pc, producer). */
void gcn_sim_print_findings(FILE *f, const gcn_sim_result *r, unsigned max);
/* Each finding's first line is a gcc-style diagnostic, as gcnlint's (docs/gcnlint.md):
 * "SOURCE:LINE: error: KERNEL+0xOFF: KIND at pc 0xPC: TEXT" with line information, else
 * "CODE:0: error: KERNEL+0xOFF: ..." (the code object's path; warning for a register
 * alias).  code: the path of the code as the user gave it (the source when the line
 * table names it, else the code object); NULL is "?".  The _at forms take it; the
 * others print "?". */
/* A fault's gcc-style line, "CODE:0: error: KERNEL+0xOFF: kernel fault at pc 0xPC: MESSAGE"
 * (SOURCE:LINE with line information); nothing when the fault is at no instruction. */
void gcn_sim_print_fault_at(FILE *f, const gcn_sim_result *r, const char *code);
void gcn_sim_print_findings_at(FILE *f, const gcn_sim_result *r, unsigned max, const char *code);
/* Group the findings of a result by rule (groups in the order their first finding was seen).
 * Returns 0, or -1 when out of memory. */
int gcn_sim_group_findings(const gcn_sim_result *r, gcn_sim_group **groups, unsigned *ngroups);
void gcn_sim_free_groups(gcn_sim_group *g, unsigned n);
/* Print the groups: each as its first site in full, then the count and the pcs of all. */
void gcn_sim_print_groups(FILE *f, const gcn_sim_result *r, const gcn_sim_group *g, unsigned n,
                          unsigned max);
void gcn_sim_print_groups_at(FILE *f, const gcn_sim_result *r, const gcn_sim_group *g, unsigned n,
                             unsigned max, const char *code);
/* "s_waitcnt vmcnt(3) lgkmcnt(0)" for a finding's fix, or "" when it has none. */
void gcn_sim_fix_text(const gcn_sim_finding *f, char *buf, size_t n);

/* Whether an ISA row has a semantic body; NULL if it does, else the reason it
 * is not simulated.  (For tests and --list.) */
const char *gcn_sim_not_simulated(unsigned id);
/* Body count / registry checks for tests: names registered that match no row. */
unsigned gcn_sim_check_registry(FILE *report);

#endif

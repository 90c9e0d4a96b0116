/*
 * sim_body.h -- all that an instruction body sees of the simulator.  Bodies
 * (the family files src/sim/ops_*.c) are small functions `void b_<ID>(sim_x *x)`
 * registered by ISA row id name (BODY, B, sim_bodies_*); they see the machine
 * only through sim_x: the pre-decoded instruction (x->i: operands resolved by
 * role), the wave's registers and EXEC, the operand readers and writers
 * (scalar, per-lane, whole 64-lane vectors: vfetch.c), device memory (memory
 * accessors: device.c), the tickets of the wait counters and the LDS checks
 * (fifo.c), and faults and findings (fault.c).  The device itself, the program,
 * the run loop and the hazard history are the simulator's (sim_int.h), which no
 * body includes (tests/release/test_layers.sh checks it).
 *
 * Register files: a wave's SGPR array is indexed by the 7-bit scalar
 * operand encoding, so s[106] is vcc_lo, s[124] m0, s[126] exec_lo, s[108..123]
 * ttmp0..15 (LLVM SIDefines.h / AMDGPUDisassembler.cpp).  The VGPR file is
 * rows of 64 lanes; AGPR aN is row accum_offset + N (unified file of
 * gfx90a/gfx942/gfx950, rsrc3 ACCUM_OFFSET).  It is one array: vN is row N
 * for any N < next_free_vgpr, so vN at or above accum_offset IS
 * a(N - accum_offset) (prog.c, "unified register file"); a program that
 * names one row both ways gets a vgpr-agpr-alias finding.
 */
#ifndef GCN_SIM_BODY_H
#define GCN_SIM_BODY_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <assert.h>
#include "gcn_sim.h"
#include "gcn_decode.h"
#include "analyze/gcn_hazard.h"

#define NL 64                 /* lanes per wave */
#define SIM_MAX_WAVES 16      /* waves per workgroup */
#define SIM_LDS_BLK_SHIFT 8   /* LDS blocks of the race tag summaries (sim_wg.lds_bw): 256 bytes */
#define SIM_LDS_NBLK(lds_size) ((lds_size) / (1u << SIM_LDS_BLK_SHIFT) + 2)
#define SIM_LDS_NSUM 3        /* summaries per block: lds_bw, lds_br, lds_bfr */
#define SIM_LDS_MAXBLK (160u * 1024 >> SIM_LDS_BLK_SHIFT)  /* blocks of the largest LDS (gfx950) */
#define SIM_LR_SMALL 4        /* a pending LDS range of more blocks is not counted per block */
#define SIM_VM_MAX 63         /* vmcnt field: 6 bits on gfx9 */
#define SIM_LGKM_MAX 15       /* lgkmcnt field: 4 bits */
#define SIM_NTICKETS (SIM_VM_MAX + SIM_LGKM_MAX + 2)

/* Special scalar encodings (index into wave->s[]). */
#define SR_FLAT_SCR_LO 102
#define SR_XNACK_LO 104
#define SR_VCC_LO 106
#define SR_VCC_HI 107
#define SR_TTMP0 108
#define SR_M0 124
#define SR_NULL 125
#define SR_EXEC_LO 126
#define SR_EXEC_HI 127

/* MODE bits that change how later instructions run (idxmode.c) */
#define MODE_GPR_IDX_EN (1u << 27)   /* VGPR index mode */
#define MODE_VSKIP (1u << 28)        /* vector instructions not issued */

/* Apertures (64-bit flat addresses of the LDS and private segments). */
#define SIM_SHARED_BASE  0x0001000000000000ull
#define SIM_PRIVATE_BASE 0x0002000000000000ull
#define SIM_HEAP_BASE    0x0000100000000000ull

/* ---- resolved operands ------------------------------------------------ */
enum {
    OK_NONE = 0,
    OK_V,        /* VGPR/AGPR row r (already offset for AGPRs) */
    OK_S,        /* wave->s[r] */
    OK_C,        /* constant c (inline or literal, expanded for the operand type) */
    OK_SCC,      /* src_scc */
    OK_VCCZ,     /* src_vccz */
    OK_EXECZ,    /* src_execz */
    OK_LDSDIR,   /* src_lds_direct: not simulated */
    OK_IMM,      /* instruction immediate c */
    OK_BAD,      /* operand we cannot resolve (message in insn) */
};

#define OM_NEG 1
#define OM_ABS 2
#define OM_SEXT 4

typedef struct sim_opnd {
    uint8_t kind;
    uint8_t n;          /* 32-bit registers */
    uint8_t mods;       /* OM_* */
    uint8_t dt;         /* gcn_dtype */
    uint8_t agpr;       /* the operand named an AGPR */
    uint16_t r;
    uint64_t c;
} sim_opnd;

typedef struct sim_x sim_x;
typedef void (*sim_body)(sim_x *x);

/* Register range touched by an instruction (for the pending-load checks). */
typedef struct sim_rref {
    uint8_t file;       /* 1 = VGPR row, 2 = SGPR */
    uint8_t n;
    uint16_t r;
} sim_rref;

/* Memory-operand roles. */
enum { MF_VADDR, MF_VDATA, MF_SRSRC, MF_SOFFSET, MF_SADDR, MF_SBASE, MF_SDATA,
       MF_DATA0, MF_DATA1, MF_ADDR, MF_COUNT };

/* vfast bits: bit k (0..2) = src k is a plain VGPR (no modifiers, no
 * DPP/SDWA); VF_DST = the destination is a plain VGPR written without
 * omod/clamp/SDWA (EXEC and MODE are checked at run time). */
#define VF_DST 8
#define VF_NOALIAS 16            /* the destination row is no source of the instruction */

typedef struct sim_insn {
    /* the fields every execution touches, in the first cache line */
    sim_body fn;
    uint64_t flags;             /* row flags */
    uint64_t hz_cons, hz_prod;  /* rule groups it consumes / can produce for (gcn_hz_roles) */
    struct sim_insn *nsi;       /* the following instruction (in the same program), or NULL
                                 * until run_wave (sim.c) looked it up */
    uint16_t id;
    uint8_t enc, sub, size;
    uint8_t bad;                /* 1: fault when executed (badmsg) */
    uint8_t vfast;              /* VF_* fast-path bits (see prog.c) */
    uint8_t hz_ws;              /* wait states it counts (hz.ws) */
    uint8_t nrd, nwr;
    /* the rule groups of hz_prod (sim_int.h sim_hz_post): the first two (64: none), and
     * whether it has more */
    uint8_t hz_pg[2], hz_pgx;
    uint64_t pc;
    /* operands */
    sim_opnd d, d2;             /* destinations in print order */
    sim_opnd s[3];              /* src0, src1, src2 (or carry-in / mask) */
    sim_opnd m[MF_COUNT];       /* memory roles */
    int64_t imm;                /* simm16 / SOPK imm16 / branch offset */
    gcn_mods mods;
    sim_rref rd[10], wr[3];
    /* the registers sim_check_regs looks at (rd, and wr unless a load or atomic), as masks
     * (SGPRs; VGPR rows below 64), made at its first run: ck 1, or 2 when a row of 64 or
     * more is among them (no quick test then) */
    uint64_t ck_s[2], ck_v;
    uint8_t ck;
    /* racyreg.c's sim_rz_after: rz_fast bit 0 when every VGPR/AGPR row its use and overwrite
     * loops look at is below 64, then those rows as masks (ck_rzu: read, or moved by a swap;
     * ck_rzw: written); bit 1: it reads every lane (not EXEC's only); bit 2: it overwrites
     * its destinations whole (in EXEC's lanes it writes) */
    uint8_t rz_fast;
    uint64_t ck_rzu, ck_rzw;
    sim_body fn2;               /* the body proper when fn is a wrapper (DPP) */
    sim_body fn_alias;          /* the body proper under sim_alias_body */
    int32_t alias_prod;         /* an instruction that names alias_row the other way, or -1 */
    uint16_t alias_row;         /* a row this one names as vN and another as aM (or back) */
    uint64_t target;            /* branch target */
    struct sim_insn *tsi;       /* the instruction at target, or NULL until run_wave looked
                                 * it up */
    char *text;                 /* instruction text as llvm-objdump prints it */
    char *where;                /* "file:line" or NULL */
    char *file;                 /* the line table's path of where (absolute), or NULL */
    unsigned line;
    char *sym;                  /* "kernel+0x120" or NULL */
    char *badmsg;
    gcn_insn raw;
    gcn_hz_insn hz;             /* hazard facts (hazard_sim.c) */
    /* the hazard check's memo (hazard_sim.c): the last check of this instruction that found
     * nothing came after these instructions (their idx, the newest last), with that
     * program's groups */
    uint32_t hzm_prev[GCN_HZ_WINDOW];
    uint64_t hzm_cons;
    uint8_t hzm_n;              /* 1 + how many of hzm_prev are set; 0: no memo */
    uint32_t idx;               /* its index in the program (sim_prog_at); SIM_NO_IDX for
                                 * the index-mode variants (idxmode.c), which have none */
} sim_insn;
#define SIM_NO_IDX UINT32_MAX

/* ---- tickets ----------------------------------------------------------- */
enum { TK_NONE = 0, TK_VREG, TK_SREG, TK_STORE, TK_LDS_DMA, TK_LDS_WRITE, TK_MSG };
#define TC_VM 1
#define TC_LGKM 2

typedef struct sim_ticket {
    uint8_t kind;
    uint8_t in;                 /* FIFOs the ticket still occupies (TC_*) */
    uint8_t need;               /* FIFOs that must retire before the data lands */
    uint8_t ooo;                /* returns out of order in lgkm (SMEM, FLAT) */
    uint8_t landed;
    uint8_t barrier;            /* its wave passed an s_barrier while it was pending */
    uint8_t atomic;             /* an LDS atomic (ds_add_u32 ...): not a race with other atomics */
    int8_t bar_fix;             /* barrier: the wait count before that s_barrier that retires it */
    uint8_t dn;                 /* dwords per lane (VREG) or dwords (SREG) */
    uint8_t wmask_mode;         /* 0 full dword, 1 low 16 bits, 2 high 16 bits,
                                 * 3 full dwords but the last one's low 16 bits */
    uint16_t gid;               /* workgroup-wide id, 1-based */
    int16_t lr_idx;             /* index in the workgroup's pending LDS ranges, -1 none */
    uint16_t dreg;
    uint32_t seq;
    uint32_t bar_epoch;         /* barrier: the workgroup's epoch when its wave reached it */
    const sim_insn *si;
    const sim_insn *bar_si;     /* barrier: that s_barrier */
    uint64_t lanes;             /* lanes the result is written for */
    /* LDS ranges written (LDS_DMA: contiguous; LDS_WRITE: per lane) */
    uint32_t lds_base, lds_len; /* LDS_DMA: the block written; LDS_WRITE: bounding box */
    uint32_t *lane_addr;        /* per-lane LDS byte addresses (LDS_WRITE): [2][NL] */
    uint8_t lane_bytes;         /* bytes written at each address */
    uint8_t naddr;              /* 1 or 2 addresses per lane (LDS_WRITE, or a VREG ticket
                                 * of a DS instruction that also writes LDS) */
    uint32_t *data;             /* payload: VREG [dn][NL], SREG [dn], LDS_DMA bytes */
    uint8_t rz;                 /* VREG of a DS read: its race record (1 + index in the
                                 * wave's rz[], racyreg.c), 0 none */
    uint32_t rz_gen;            /* that record's gen when linked */
} sim_ticket;

typedef struct sim_fifo {
    sim_ticket *e[64];
    unsigned head, n;           /* ring of at most 64 */
} sim_fifo;

/* ---- waves and workgroups --------------------------------------------- */
enum { WS_RUN = 0, WS_BARRIER, WS_DONE };

/* The cross-wave race check on LDS reads reports a race only when the reading wave uses
 * what it read (racyreg.c).  A DS read of a workgroup of several waves gets a record; the
 * rows its result lands in are followed, per lane, until the wave reads them (the value
 * is used), overwrites them (dead) or the barrier (no later write can race it).  A race
 * found on the read (either order) waits on the record as an occurrence. */
typedef struct sim_rzocc {
    uint64_t lanes;             /* the finding's lanes (of its wave) */
    uint64_t rlanes;            /* the reading wave's lanes whose use confirms it */
    uint64_t seq;               /* detection order (gcn_sim.rz_seq): first seen */
    uint32_t fi;                /* its finding (gcn_sim.finds) */
    uint32_t n;                 /* occurrences (detections) it stands for */
    uint16_t wave;              /* the finding's wave (the writer, for a write after the read) */
} sim_rzocc;
#define SIM_RZ_NOCC 4
#define SIM_RZ_NREC 64
typedef struct sim_rzrec {
    const sim_insn *si;         /* the read */
    uint32_t gen;               /* 0: free; links (lrd, tickets) match it */
    uint16_t dreg, dn;          /* its destination rows (once its ticket issued) */
    uint16_t nrows;             /* rows holding its value in some lane */
    uint8_t landed, used, dead; /* used: read by an instruction (or not known); dead: its
                                 * value is gone from every row (no use can follow) */
    uint8_t nlink;              /* notes (lrd) naming it */
    uint8_t nocc;
    sim_rzocc occ[SIM_RZ_NOCC];
} sim_rzrec;

typedef struct sim_wg sim_wg;

/* An LDS byte range with a pending writer another read must not touch:
 * unretired LDS-DMA blocks, and LDS writes of a wave that passed s_barrier
 * before waiting for them. */
typedef struct sim_lrange {
    uint32_t lo, hi;
    uint32_t cb;                /* the block counted in sim_wg.lr_bcnt, UINT32_MAX: counted
                                 * by sim_lds_lr_count_blocks */
    sim_ticket *t;
    struct sim_wave *w;
} sim_lrange;

typedef struct sim_wave {
    uint32_t s[128];
    uint32_t scc;
    uint32_t hw_mode, hw_status, hw_trapsts;
    uint32_t (*v)[NL];          /* nvrows rows */
    unsigned nvrows, accum;     /* rows allocated; first AGPR row */
    unsigned nsgpr;             /* SGPRs the kernel may use (102 on gfx9) */
    struct sim_insn *cur;       /* the current instruction (of the device's program) */
    int state;
    unsigned idx;               /* wave index in its workgroup */
    sim_wg *wg;
    /* private segment (scratch): per lane priv_size bytes */
    uint8_t *priv;
    uint32_t priv_size;
    /* tickets */
    sim_fifo vm, lgkm;
    sim_ticket tk[SIM_NTICKETS];
    void *tk_pay;                 /* the tickets' payload block (zeroed; data 64-byte aligned) */
    sim_ticket *tk_free[SIM_NTICKETS];
    unsigned ntk_free;
    unsigned tk_low;              /* the lowest ntk_free since the last reset */
    uint32_t seq;
    /* npend: register tickets (VREG, SREG) not yet landed: the register checks run only
     * while there are some; nooo: the registers marked out of order (vooo, sooo below).
     * pend_any: both in one word, the run loop's one test before each instruction (not 0
     * exactly when either is) */
    union {
        struct {
            unsigned npend, nooo;
        };
        uint64_t pend_any;
    };
    uint8_t *vpend;             /* per VGPR row: pending register loads (which ones, and
                                 * the wait that retires them: fifo.c scans the FIFOs) */
    uint8_t spend[128];
    /* bit r: vpend[r] (rows below 64) / spend[r] is not 0 (sim_check_regs's quick test) */
    uint64_t vpend_m, spend_m[2];
    /* registers retired by lgkmcnt(N>0) while out-of-order ops remained */
    uint8_t *vooo;
    uint8_t sooo[128];
    const sim_insn **vooo_prod, **sooo_prod;
    const sim_insn **vooo_other, **sooo_other;
    const sim_insn **vooo_wait, **sooo_wait;
    /* LDS-writing / -reading instructions of this wave since the last barrier
     * (the other side of a race report) */
    struct { const sim_insn *si; uint32_t lo, hi; int atom; uint8_t rz; uint32_t rzgen; }
        lw[32], lrd[32];        /* atom: an atomic; rz, rzgen (lrd): the read's record */
    unsigned nlw, lw_next, nlrd, lrd_next;
    /* reads of LDS followed for the race check (racyreg.c): per VGPR/AGPR row the lanes
     * that hold a followed read's value and that read (1 + index in rz), rows with lanes in
     * rz_n (0: nothing to do, the common case) and as bits in rz_m */
    uint64_t *rz_lanes;
    uint8_t *rz_own;
    unsigned rz_n;
    uint64_t rz_m[8];
    uint32_t rz_gen;
    unsigned rz_next;
    uint64_t rz_busy;           /* records in use: bit k - 1 set when rz[k - 1].gen is not 0 */
    uint8_t rz_wait;            /* a race waited on a record of this wave since the last reset
                                 * or barrier that left none waiting (else racyreg.c's quick
                                 * paths: no occurrence to count, in no order) */
    sim_rzrec rz[SIM_RZ_NREC];
    /* host prefetch of streaming buffer accesses: per memory instruction (by pc / 4 mod 64:
     * no two instructions of a 256-byte loop share a slot), the host address of its last
     * block; an entry counts only when its gen is the wave's pf_gen (a new wave: pf_gen + 1).
     * wq, wsoff, win, wgen: the host address win of the buffer window that sim_mem gave the
     * block accesses of ops_mem.c (raw_offen_win) in this wave (wgen = pf_gen) for the V#
     * words wq and the soffset wsoff (the window is [base + soffset, + num_records): the
     * allocations do not change while a wave runs, so the same V# and soffset have the same
     * host address) */
    struct {
        uint64_t pc;
        const uint8_t *last;
        uint32_t gen;
        uint32_t wgen;
        uint32_t wq[4], wsoff;
        uint8_t *win;
    } pf[64];
    uint32_t pf_gen;
    /* trace */
    int traced;
    struct sim_hz *hz;          /* hazard history (hazard_sim.c) */
} sim_wave;
_Static_assert(2 * sizeof(unsigned) == sizeof(uint64_t),
               "sim_wave pend_any: npend and nooo fill the word");

struct sim_wg {
    unsigned id[3];
    unsigned flat;
    uint8_t *lds;
    uint32_t lds_size;
    sim_lrange lr[SIM_MAX_WAVES * SIM_NTICKETS];
    unsigned nlr;               /* pending LDS ranges */
    /* the pending LDS ranges per block of LDS (sim_lds_lr_add, fifo.c lr_remove):
     * lr_bcnt[b], the ranges of at most SIM_LR_SMALL blocks that meet block b; lr_nbig, the
     * others (while one is pending, sim_lds_overlap scans lr).  lr_dirty: a range was added since nlr was
     * last 0 by a removal; when a workgroup's start sets nlr to 0 with ranges still counted,
     * the next sim_lds_lr_add clears the counts. */
    uint16_t lr_bcnt[SIM_LDS_MAXBLK + 1];   /* (+ 1: the block after an access at the end) */
    unsigned lr_nbig, lr_dirty;
    uint32_t *lds_tag;          /* per LDS dword: epoch << 5 | (writer wave + 1), 0 never written */
    uint32_t *lds_rtag;         /* per LDS dword: (epoch & 0xffff) << 16 | reader waves mask */
    /* reader tags not yet written to lds_rtag: the coalesced reads of all lanes (64 dwords
     * from dword d0, reader tag v = (epoch & 0xffff) << 16 | wave bit), applied in this
     * order by sim_lds_rflush before anything else reads lds_rtag.  A read whose entry is
     * there already adds none (the same tag again changes nothing, and tags of one epoch
     * commute), so a loop that reads the same blocks writes no tags at all. */
    struct { uint32_t d0, v; } rdefer[16];
    unsigned nrdefer;
    uint32_t *lds_atag;         /* per LDS dword: (epoch & 0xffff) << 16 | waves that used an
                                 * LDS atomic on it (atomics race with plain accesses only) */
    /* per block of SIM_LDS_BLK bytes: (epoch & 0xffff) << 16 | the waves that wrote (lds_bw)
     * or read (lds_br) a dword of the block in that epoch, the reads of sim_wg.rdefer
     * included: a superset of the block's writer / reader tags of that epoch (every tag
     * write also marks its block).  A block whose summary holds no other wave of this epoch
     * has no tag that can make a hit, and the block paths skip their tag scans
     * (ds_check_contig, ds_note_block).  lds_bfr, in the same form: the waves whose reader
     * tags of that epoch cover every dword of the block (deferred or written), which a
     * coalesced read of the whole block by such a wave need not defer again.  lds_br and
     * lds_bfr lie in lds_bw's allocation (SIM_LDS_NSUM summaries). */
    uint32_t *lds_bw, *lds_br, *lds_bfr;
    /* per block: a writer tag (epoch << 5 | wave + 1) that ds_note_block (note_block) gave
     * all 64 dwords of the block, 0 none.  While lds_bw shows that wave alone in the block
     * in that epoch, every dword still holds it: a tag write of another wave marks lds_bw,
     * the same wave writes the same tag, and the partial writers (ds_note_writes' lane loop,
     * sim_lds_wmark) clear the entry (sim_lds_bfw_clear), so one left by an earlier
     * workgroup (whose tags were cleared) is never taken: no whole-block write in this
     * workgroup renewed it, and any other write there cleared it. */
    uint32_t lds_bfw[SIM_LDS_MAXBLK + 2];
    uint32_t epoch;             /* barrier generation of the workgroup */
    uint32_t tag_epoch;         /* epoch + 1 once lds_tag took a write of this epoch (else
                                 * no writer tag can match: the reads skip their scan) */
    uint32_t atom_epoch;        /* epoch + 1 while lds_atag holds tags of this epoch, else
                                 * older: plain accesses skip the atomic tags */
    sim_wave *waves[SIM_MAX_WAVES];
    unsigned nwaves;
    unsigned nbarrier;          /* waves waiting at s_barrier */
    unsigned ndone;
};

/* ---- the execution context seen by bodies ----------------------------- */
struct sim_x {
    gcn_sim *sim;
    sim_wave *w;
    sim_wg *g;
    const sim_insn *i;
    uint64_t exec;              /* EXEC at issue */
    uint64_t wmask;             /* lanes a VALU result is written for (EXEC & DPP masks) */
    uint64_t next_pc_override;  /* set by branches: 1 + index, 0 none */
    uint32_t branch_to;         /* insn index when taken */
    uint64_t branch_pc;
    /* control flow out of the straight line (the inner loop tests `flow`) */
    union {
        struct {
            uint8_t branch_taken;   /* branch_pc is the next pc */
            uint8_t ended;          /* s_endpgm */
            uint8_t waiting;        /* s_barrier: wave blocks */
            uint8_t flow_pad;
        };
        uint32_t flow;
    };
    /* scratch vectors for operand fetch (one per source slot), 64-byte
     * aligned like the register rows (whole-vector loads and stores never
     * split a cache line; allocate a sim_x with aligned_alloc) */
    _Alignas(64) uint32_t t[4][2][NL];  /* [slot][dword][lane] */
    _Alignas(64) uint32_t r[4][NL];     /* results */
    _Alignas(64) uint32_t dpp_src0[2][NL];
    /* LDS read checks of the current instruction (accumulated, reported once) */
    uint64_t lds_dma_lanes, lds_bar_lanes;
    const sim_ticket *lds_dma_tk, *lds_bar_tk;
    struct sim_wave *lds_dma_w, *lds_bar_w;
    uint64_t race_lanes;
    struct sim_wave *race_w;
    uint32_t race_addr;
    int race_war;               /* the race is a write after another wave's read */
    int race_atom;              /* 1: this atomic meets another wave's plain access;
                                 * 2: this plain access meets another wave's atomic */
    int atomic;                 /* the current DS instruction is an atomic */
    unsigned rz_cur;            /* the race record of the current DS read (1 + index), 0 */
};

/* ---- faults and findings (fault.c) --------------------------------------- */
void sim_fault(sim_x *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_finding(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod, uint64_t lanes,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The wait that fixes a finding: counts for vmcnt and lgkmcnt, -1 where that counter needs
 * no wait (fifo.c computes them from the FIFOs). */
typedef struct sim_fix {
    int vm, lgkm;
} sim_fix;
/* A finding with a fix: the wait FX put before instruction AT (NULL: the consumer); HOW
 * is the sentence that proposes it, with one %s for the s_waitcnt text (e.g. "add %s before
 * this instruction").  Occurrences of the same (kind, pc, producer) keep the tightest count
 * of each counter, so the fix retires the producer on every path the run took. */
void sim_finding_fix(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod, uint64_t lanes,
                     const sim_fix *fx, const sim_insn *at, const char *how, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* A finding whose occurrences may be counted later (races on LDS reads, racyreg.c): the
 * site (kind, consumer x->i, producer) made with no occurrence yet (its index, -1 out of
 * memory); sim_finding_occur counts one of wave w (seq orders them: the first seen is the
 * counted one detected first); sim_finding_prune removes the sites never counted. */
int sim_finding_site(sim_x *x, gcn_sim_finding_kind k, const sim_insn *prod,
                     const char *detail);
void sim_finding_occur(gcn_sim *s, int fi, sim_wave *w, uint64_t lanes, uint64_t seq);
void sim_finding_prune(gcn_sim *s);

/* ---- scalar operand access --------------------------------------------- */
static inline uint64_t sim_exec(const sim_wave *w)
{
    return (uint64_t)w->s[SR_EXEC_LO] | (uint64_t)w->s[SR_EXEC_HI] << 32;
}
static inline uint64_t sim_vcc(const sim_wave *w)
{
    return (uint64_t)w->s[SR_VCC_LO] | (uint64_t)w->s[SR_VCC_HI] << 32;
}
static inline void sim_set_vcc(sim_wave *w, uint64_t v)
{
    w->s[SR_VCC_LO] = (uint32_t)v;
    w->s[SR_VCC_HI] = (uint32_t)(v >> 32);
}
static inline void sim_set_exec(sim_wave *w, uint64_t v)
{
    w->s[SR_EXEC_LO] = (uint32_t)v;
    w->s[SR_EXEC_HI] = (uint32_t)(v >> 32);
}

/* Read a scalar source (SGPR, constant, special) as 32 bits. VGPR sources
 * read lane 0 (SALU has none; used for uniform reads only). */
static inline uint32_t rs32(const sim_x *x, const sim_opnd *o)
{
    switch (o->kind) {
    case OK_S: return x->w->s[o->r];
    case OK_C: case OK_IMM: return (uint32_t)o->c;
    case OK_SCC: return x->w->scc;
    case OK_VCCZ: return sim_vcc(x->w) == 0;
    case OK_EXECZ: return sim_exec(x->w) == 0;
    case OK_V: return x->w->v[o->r][0];
    default: return 0;
    }
}
static inline uint64_t rs64(const sim_x *x, const sim_opnd *o)
{
    switch (o->kind) {
    case OK_S: return (uint64_t)x->w->s[o->r] | (uint64_t)x->w->s[(o->r + 1) & 127] << 32;
    case OK_C: case OK_IMM: return o->c;
    case OK_SCC: return x->w->scc;
    case OK_VCCZ: return sim_vcc(x->w) == 0;
    case OK_EXECZ: return sim_exec(x->w) == 0;
    default: return 0;
    }
}
/* Write a scalar destination (SGPR or special). */
static inline void ws32(sim_x *x, const sim_opnd *o, uint32_t v)
{
    if (o->kind == OK_S && o->r != SR_NULL)
        x->w->s[o->r] = v;
}
static inline void ws64(sim_x *x, const sim_opnd *o, uint64_t v)
{
    if (o->kind == OK_S && o->r != SR_NULL) {
        x->w->s[o->r] = (uint32_t)v;
        x->w->s[(o->r + 1) & 127] = (uint32_t)(v >> 32);
    }
}
/* Scalar register k of an operand range (SMEM results, s_movrel). */
static inline void wsk(sim_x *x, const sim_opnd *o, unsigned k, uint32_t v)
{
    if (o->kind == OK_S && o->r + k < 128 && o->r + k != SR_NULL)
        x->w->s[o->r + k] = v;
}

/* ---- vector operand access -------------------------------------------- */
/* Per-lane 32-bit read of any operand (dword k of a multi-register operand). */
static inline uint32_t rv32(const sim_x *x, const sim_opnd *o, unsigned lane, unsigned k)
{
    if (o->kind == OK_V)
        return x->w->v[o->r + k][lane];
    if (o->kind == OK_C)
        return (uint32_t)(o->c >> (32 * (k & 1)));
    if (o->kind == OK_S)
        return x->w->s[(o->r + k) & 127];
    return (uint32_t)(rs64(x, o) >> (32 * (k & 1)));
}

/* Whole-vector fetch of source slot k (0..2) as 32-bit lanes, after DPP and
 * SDWA processing (no float modifiers).  Returns a pointer valid until the
 * next fetch of the same slot. */
const uint32_t *sim_vsrc(sim_x *x, unsigned k);
/* Same with f32 / f16 neg/abs modifiers applied (and f32 input denormals
 * flushed when the MODE asks for it). */
const uint32_t *sim_vsrc_f32(sim_x *x, unsigned k);
const uint32_t *sim_vsrc_f16(sim_x *x, unsigned k);
/* 64-bit lanes (register pair or 64-bit constant); f64 mods optional. */
void sim_vsrc64(sim_x *x, unsigned k, uint64_t *out, int fmods);

/* Write a 32-bit result vector to the main destination under x->wmask.
 * _f32 applies omod/clamp and output-denormal flushing. */
void sim_vdst(sim_x *x, const uint32_t *r);
void sim_vdst_f32(sim_x *x, const uint32_t *r);
void sim_vdst_f16(sim_x *x, const uint32_t *r);
/* 16-bit results (bits 15:0 of r): preserve = keep the high half (else zeroed). */
void sim_vdst16(sim_x *x, const uint32_t *r, int preserve);
void sim_vdst_f16p(sim_x *x, const uint32_t *r, int preserve);
void sim_vdst64(sim_x *x, const uint64_t *r);
void sim_vdst_f64(sim_x *x, const uint64_t *r);
/* Write a lane mask to a scalar/VCC destination (VOPC, carry-out). */
static inline void sim_sdst_mask(sim_x *x, const sim_opnd *o, uint64_t m)
{
    if (o->kind == OK_S)
        ws64(x, o, m);
    else
        sim_set_vcc(x->w, m);
}

/* ---- memory (device.c) -------------------------------------------------- */
/* Host pointer of device bytes [addr, addr+n) or NULL (no fault raised). */
uint8_t *sim_mem(gcn_sim *s, uint64_t addr, uint64_t n);
/* Global access with fault on failure: returns NULL after recording a fault
 * naming pc, lane and address. */
uint8_t *sim_gmem(sim_x *x, uint64_t addr, unsigned n, unsigned lane);
/* " (in allocation X ...)" / " (N bytes past X)": where ADDR lies, for fault messages */
void sim_describe_addr(gcn_sim *s, uint64_t addr, char *buf, size_t n);

/* ---- the device, as bodies read it (device.c) --------------------------- */
gcn_target sim_target(const sim_x *x);      /* the target the run simulates */
int sim_faulted(const sim_x *x);            /* a fault was raised (sim_fault): stop */
uint64_t sim_clock(const sim_x *x);         /* wave-instructions run so far (s_memtime) */

/* ---- tickets ------------------------------------------------------------ */
sim_ticket *sim_tk_new(sim_x *x, int kind, unsigned counters);
void sim_tk_issue(sim_x *x, sim_ticket *t);
/* sim_tk_new's rare part, apart from the inline take below: a full counter retires its oldest
 * entry (the hardware stalls issue until it returns), or no ticket is free */
void sim_tk_stall(sim_x *x, unsigned counters);
/* the trace's issue event of ticket t (the wave is traced: w->traced) */
void sim_tk_trace(sim_x *x, const sim_ticket *t);
/* Ticket t enters FIFO f, the newest of its entries. */
static inline __attribute__((always_inline)) void sim_fifo_push(sim_fifo *f, sim_ticket *t)
{
    f->e[(f->head + f->n) & 63] = t;
    f->n++;
}
/* VGPR row `row` is the destination of one more pending ticket (vpend, and vpend_m below
 * row 64), and no longer marked out of order (sim_tk_issue, sim_tk_row_c). */
static inline __attribute__((always_inline)) void sim_tk_pend_row(struct sim_wave *w,
                                                                  unsigned row)
{
    w->vpend[row]++;
    if (row < 64)
        w->vpend_m |= 1ull << row;
    if (w->vooo[row]) {
        w->vooo[row] = 0;
        w->nooo--;
    }
}
/* sim_tk_new, inline: a ticket of kind for the counters (TC_*), its fields set as for a new
 * ticket (gid kept; bar_fix, bar_epoch, bar_si, lane_addr and data's contents are read only
 * where the code that sets them ran; the compiler merges the neighbouring stores). */
static inline __attribute__((always_inline)) sim_ticket *sim_tk_take(sim_x *x, int kind,
                                                                    unsigned counters)
{
    sim_wave *w = x->w;
    if (__builtin_expect(((counters & TC_VM) && w->vm.n >= SIM_VM_MAX) ||
                         ((counters & TC_LGKM) && w->lgkm.n >= SIM_LGKM_MAX) || !w->ntk_free, 0))
        sim_tk_stall(x, counters);
    sim_ticket *t = w->tk_free[--w->ntk_free];
    if (w->ntk_free < w->tk_low)
        w->tk_low = w->ntk_free;
    t->kind = (uint8_t)kind;
    t->in = (uint8_t)counters;
    t->need = (uint8_t)counters;
    t->ooo = 0;
    t->landed = 0;
    t->barrier = 0;
    t->atomic = 0;
    t->dn = 0;
    t->wmask_mode = 0;
    t->dreg = 0;
    t->lr_idx = -1;
    t->seq = w->seq++;
    t->si = x->i;
    t->lanes = x->exec;
    t->lds_base = t->lds_len = 0;
    t->lane_bytes = 0;
    t->naddr = 0;
    t->rz = 0;
    return t;
}
/* sim_tk_push (below) with the ticket's counters given (in: t->in, a constant where the caller knows
 * it) */
static inline __attribute__((always_inline)) void sim_tk_push_in(sim_x *x, sim_ticket *t,
                                                                unsigned in)
{
    sim_wave *w = x->w;
    assert(t->kind != TK_VREG && t->kind != TK_SREG);
    if (in & TC_VM)
        sim_fifo_push(&w->vm, t);
    if (in & TC_LGKM)
        sim_fifo_push(&w->lgkm, t);
    if (__builtin_expect(w->traced, 0))
        sim_tk_trace(x, t);
}
/* sim_tk_issue, inline, of a ticket that writes no register (TK_STORE, TK_LDS_DMA,
 * TK_LDS_WRITE, TK_MSG): it enters its FIFOs; the trace's event when the wave is traced. */
static inline __attribute__((always_inline)) void sim_tk_push(sim_x *x, sim_ticket *t)
{
    sim_tk_push_in(x, t, t->in);
}
void sim_waitcnt(sim_x *x, unsigned vm, unsigned lgkm);
/* the body of s_waitcnt: sim_waitcnt with the instruction's counts */
void sim_waitcnt_insn(sim_x *x);
void sim_tk_barrier(sim_x *x);
/* LDS reads against pending writers: sim_lds_overlap() says whether any
 * pending range meets [lo, hi) (callers skip the per-lane checks when not);
 * sim_lds_check_read() checks the bytes [a, a+n) one lane reads; the
 * findings of one instruction are reported by sim_lds_check_done(). */
static inline int sim_lds_overlap(const sim_wg *g, uint32_t lo, uint32_t hi)
{
    if (!g || !g->nlr)
        return 0;
    /* no pending range in the blocks of [lo, hi) (a box of at most SIM_LR_SMALL blocks):
     * none meets it; else the scan says */
    uint32_t b0 = lo >> SIM_LDS_BLK_SHIFT, b1 = (hi - 1) >> SIM_LDS_BLK_SHIFT;
    if (!g->lr_nbig && lo < hi && b1 < SIM_LDS_MAXBLK && b1 - b0 < SIM_LR_SMALL) {
        unsigned any = 0;
        for (uint32_t b = b0; b <= b1; b++)
            any |= g->lr_bcnt[b];
        if (!any)
            return 0;
    }
    for (unsigned i = 0; i < g->nlr; i++)
        if (lo < g->lr[i].hi && g->lr[i].lo < hi)
            return 1;
    return 0;
}
void sim_lds_check_read(sim_x *x, uint32_t a, uint32_t n, unsigned lane);
void sim_lds_check_done(sim_x *x);
/* Write the deferred reader tags (sim_wg.rdefer) to lds_rtag. */
void sim_lds_rflush(sim_wg *g);
/* Count the pending LDS range [lo, hi) (lo < hi) in sim_wg.lr_bcnt (d = 1) or take it out
 * (d = -1): a range of several blocks (or past SIM_LDS_MAXBLK) (fifo.c); sim_lds_lr_add
 * and fifo.c's lr_remove count a range inside one block themselves (sim_lrange.cb). */
void sim_lds_lr_count_blocks(sim_wg *g, uint32_t lo, uint32_t hi, int d);
/* The first pending range is added (nlr is 0): the counts are all 0 unless a workgroup's
 * start left those of its predecessor (sim_wg.lr_dirty). */
static inline void sim_lds_lr_first(sim_wg *g)
{
    if (__builtin_expect(g->lr_dirty, 0)) {
        memset(g->lr_bcnt, 0, sizeof g->lr_bcnt);
        g->lr_nbig = 0;
    }
    g->lr_dirty = 1;
}
/* Add ticket t's LDS bytes [lo, hi), written by wave w, to the workgroup's pending ranges
 * (once; none when the table is full or the range empty). */
static inline void sim_lds_lr_add(sim_wg *g, struct sim_wave *w, sim_ticket *t, uint32_t lo,
                                  uint32_t hi)
{
    if (!g || t->lr_idx >= 0 || g->nlr >= sizeof g->lr / sizeof g->lr[0] || lo >= hi)
        return;
    if (!g->nlr)
        sim_lds_lr_first(g);
    sim_lrange *r = &g->lr[g->nlr];
    uint32_t b0 = lo >> SIM_LDS_BLK_SHIFT;
    if (__builtin_expect(b0 == (hi - 1) >> SIM_LDS_BLK_SHIFT && b0 < SIM_LDS_MAXBLK, 1)) {
        g->lr_bcnt[b0]++;   /* (an LDS-DMA of 64 dwords at a block's start) */
        r->cb = b0;
    } else {
        sim_lds_lr_count_blocks(g, lo, hi, 1);
        r->cb = UINT32_MAX;
    }
    r->lo = lo;
    r->hi = hi;
    r->t = t;
    r->w = w;
    t->lr_idx = (int16_t)g->nlr++;
}
/* Register an issued LDS-DMA ticket (lds_base, lds_len, lanes) as pending. */
static inline void sim_lds_pend_dma(sim_x *x, sim_ticket *t)
{
    sim_lds_lr_add(x->g, x->w, t, t->lds_base, t->lds_base + t->lds_len);
}
/* sim_lds_lr_add of an LDS-DMA of all lanes, 4 bytes each, at lo (inside the LDS) */
static inline __attribute__((always_inline)) void sim_lds_pend_nl(sim_wg *g, struct sim_wave *w,
                                                                  sim_ticket *t, uint32_t lo)
{
    sim_lds_lr_add(g, w, t, lo, lo + 4 * NL);
}
/* sim_lds_overlap of the 4 * NL bytes at a0 (a coalesced access of all lanes inside the LDS:
 * block a0's, and the next one when a0 is not at a block's start) */
static inline __attribute__((always_inline)) int sim_lds_overlap_nl(const sim_wg *g, uint32_t a0)
{
    if (!g->nlr)
        return 0;
    uint32_t b = a0 >> SIM_LDS_BLK_SHIFT;
    if (!g->lr_nbig && !(g->lr_bcnt[b] | ((a0 & ((1u << SIM_LDS_BLK_SHIFT) - 1)) ? g->lr_bcnt[b + 1] : 0)))
        return 0;
    return sim_lds_overlap(g, a0, a0 + 4 * NL);
}
/* One row of 64 lanes (256 bytes) from src to dst, any alignment, in 32-byte moves (a plain
 * memcpy of 256 bytes is expanded to 16-byte moves by GCC even in an AVX2 clone). */
static inline __attribute__((always_inline)) void sim_row_copy(void *dst, const void *src)
{
    typedef uint32_t u32x8 __attribute__((vector_size(32), aligned(4)));
#pragma GCC unroll 8
    for (unsigned k = 0; k < NL; k += 8) {
        u32x8 v;
        memcpy(&v, (const uint8_t *)src + 4 * k, sizeof v);
        memcpy((uint8_t *)dst + 4 * k, &v, sizeof v);
    }
}

/* Cross-wave race detection (workgroups of more than one wave): mark bytes
 * [a, a+n) as written by this wave in the current barrier epoch; check a
 * lane's read against writes of other waves in the same epoch; note the
 * instruction's written box [lo, hi) for the reports. */
/* Mark the blocks of LDS bytes [lo, hi) (lo < hi) in a tag summary (sim_wg.lds_bw or lds_br)
 * with wave bit `bit` of epoch tag ep ((epoch & 0xffff) << 16). */
static inline void sim_lds_bmark(uint32_t *sum, uint32_t ep, uint32_t bit, uint32_t lo, uint32_t hi)
{
    for (uint32_t b = lo >> SIM_LDS_BLK_SHIFT; b <= (hi - 1) >> SIM_LDS_BLK_SHIFT; b++) {
        uint32_t v = sum[b];
        sum[b] = ((v & 0xffff0000u) == ep ? v : ep) | bit;
    }
}

/* Whether the summary shows a wave of `others` with a tag of epoch ep in a block of LDS
 * bytes [lo, hi) (lo < hi). */
static inline int sim_lds_bany(const uint32_t *sum, uint32_t ep, uint32_t others, uint32_t lo,
                               uint32_t hi)
{
    for (uint32_t b = lo >> SIM_LDS_BLK_SHIFT; b <= (hi - 1) >> SIM_LDS_BLK_SHIFT; b++)
        if ((sum[b] & 0xffff0000u) == ep && (sum[b] & others))
            return 1;
    return 0;
}
/* sim_lds_bany and sim_lds_bmark of the 4 * NL bytes at lo (a coalesced access of all lanes:
 * block lo's, and the next one when lo is not at a block's start) */
_Static_assert(4 * NL == 1u << SIM_LDS_BLK_SHIFT, "a coalesced dword access spans one block");
static inline __attribute__((always_inline)) int sim_lds_bany_nl(const uint32_t *sum, uint32_t ep,
                                                                 uint32_t others, uint32_t lo)
{
    uint32_t b = lo >> SIM_LDS_BLK_SHIFT, v = sum[b];
    if ((v & 0xffff0000u) == ep && (v & others))
        return 1;
    if (!(lo & ((1u << SIM_LDS_BLK_SHIFT) - 1)))
        return 0;
    v = sum[b + 1];
    return (v & 0xffff0000u) == ep && (v & others);
}
static inline __attribute__((always_inline)) void sim_lds_bmark_nl(uint32_t *sum, uint32_t ep,
                                                                  uint32_t bit, uint32_t lo)
{
    uint32_t b = lo >> SIM_LDS_BLK_SHIFT, v = sum[b];
    sum[b] = ((v & 0xffff0000u) == ep ? v : ep) | bit;
    if (lo & ((1u << SIM_LDS_BLK_SHIFT) - 1)) {
        v = sum[b + 1];
        sum[b + 1] = ((v & 0xffff0000u) == ep ? v : ep) | bit;
    }
}
/* Forget the whole-block writer tags (sim_wg.lds_bfw) of the blocks of LDS bytes [lo, hi)
 * (lo < hi): a partial write of tags there. */
static inline void sim_lds_bfw_clear(sim_wg *g, uint32_t lo, uint32_t hi)
{
    uint32_t b1 = (hi - 1) >> SIM_LDS_BLK_SHIFT;
    if (b1 >= sizeof g->lds_bfw / sizeof g->lds_bfw[0])
        b1 = sizeof g->lds_bfw / sizeof g->lds_bfw[0] - 1;
    for (uint32_t b = lo >> SIM_LDS_BLK_SHIFT; b <= b1; b++)
        g->lds_bfw[b] = 0;
}
static inline void sim_lds_wmark(sim_x *x, uint32_t a, uint32_t n, unsigned lane)
{
    sim_wg *g = x->g;
    if (!g || g->nwaves < 2 || !g->lds_tag)
        return;
    uint32_t me = x->w->idx + 1, tag = g->epoch << 5 | me;
    uint32_t ep = (g->epoch & 0xffff) << 16, mybit = 1u << (me - 1);
    int atom = g->atom_epoch == g->epoch + 1;
    g->tag_epoch = g->epoch + 1;
    if (g->nrdefer)
        sim_lds_rflush(g);
    for (uint32_t d = a / 4; d < (a + n + 3) / 4; d++) {
        uint32_t rt = g->lds_rtag[d];
        if ((rt & 0xffff0000u) == ep && (rt & 0xffff & ~mybit) && !x->race_lanes) {
            x->race_lanes |= 1ull << lane;
            x->race_w = g->waves[__builtin_ctz(rt & 0xffff & ~mybit)];
            x->race_addr = d * 4;
            x->race_war = 1;
        }
        uint32_t at = atom ? g->lds_atag[d] : 0;
        if ((at & 0xffff0000u) == ep && (at & 0xffff & ~mybit) && !x->race_lanes) {
            x->race_lanes |= 1ull << lane;      /* a plain write meets another wave's atomic */
            x->race_w = g->waves[__builtin_ctz(at & 0xffff & ~mybit)];
            x->race_addr = d * 4;
            x->race_atom = 2;
        }
        g->lds_tag[d] = tag;
    }
    sim_lds_bmark(g->lds_bw, ep, mybit, a & ~3u, a + n);
    sim_lds_bfw_clear(g, a & ~3u, a + n);
}
static inline void sim_lds_rcheck(sim_x *x, uint32_t a, uint32_t n, unsigned lane)
{
    sim_wg *g = x->g;
    if (!g || g->nwaves < 2 || !g->lds_tag)
        return;
    uint32_t me = x->w->idx + 1, ep = (g->epoch & 0xffff) << 16, mybit = 1u << (me - 1);
    int atom = g->atom_epoch == g->epoch + 1;
    if (g->nrdefer)
        sim_lds_rflush(g);
    for (uint32_t d = a / 4; d < (a + n + 3) / 4; d++) {
        uint32_t t = g->lds_tag[d];
        if (t && (t & 31) != me && (t >> 5) == g->epoch && !x->race_war && !x->race_atom) {
            x->race_lanes |= 1ull << lane;
            x->race_w = g->waves[(t & 31) - 1];
            x->race_addr = d * 4;
        }
        uint32_t at = atom ? g->lds_atag[d] : 0;
        if ((at & 0xffff0000u) == ep && (at & 0xffff & ~mybit) && !x->race_lanes) {
            x->race_lanes |= 1ull << lane;      /* a plain read meets another wave's atomic */
            x->race_w = g->waves[__builtin_ctz(at & 0xffff & ~mybit)];
            x->race_addr = d * 4;
            x->race_atom = 2;
        }
        uint32_t rt = g->lds_rtag[d];
        g->lds_rtag[d] = ((rt & 0xffff0000u) == ep ? rt : ep) | mybit;
    }
    sim_lds_bmark(g->lds_br, ep, mybit, a & ~3u, a + n);
}
/* An LDS atomic of one lane on bytes [a, a+n): a race with another wave's plain write or
 * plain read of this epoch (either order), none with another wave's atomic.  It leaves an
 * atomic tag, not a reader or writer tag. */
static inline void sim_lds_amark(sim_x *x, uint32_t a, uint32_t n, unsigned lane)
{
    sim_wg *g = x->g;
    if (!g || g->nwaves < 2 || !g->lds_tag)
        return;
    uint32_t me = x->w->idx + 1, ep = (g->epoch & 0xffff) << 16, mybit = 1u << (me - 1);
    if (g->atom_epoch != g->epoch + 1) {
        /* first atomic of this epoch: tags of older epochs are stale anyway (they carry
         * their epoch); only the 16-bit epoch wrap needs them cleared, done at the barrier */
        g->atom_epoch = g->epoch + 1;
    }
    if (g->nrdefer)
        sim_lds_rflush(g);
    for (uint32_t d = a / 4; d < (a + n + 3) / 4; d++) {
        uint32_t t = g->lds_tag[d], rt = g->lds_rtag[d], at = g->lds_atag[d];
        if (!x->race_lanes && t && (t & 31) != me && (t >> 5) == g->epoch) {
            x->race_lanes |= 1ull << lane;      /* another wave's plain write */
            x->race_w = g->waves[(t & 31) - 1];
            x->race_addr = d * 4;
            x->race_atom = 1;
        } else if (!x->race_lanes && (rt & 0xffff0000u) == ep && (rt & 0xffff & ~mybit)) {
            x->race_lanes |= 1ull << lane;      /* another wave's plain read */
            x->race_w = g->waves[__builtin_ctz(rt & 0xffff & ~mybit)];
            x->race_addr = d * 4;
            x->race_atom = 1;
            x->race_war = 1;
        } else if (x->race_lanes && x->race_atom == 1 && t && (t & 31) != me &&
                   (t >> 5) == g->epoch) {
            x->race_lanes |= 1ull << lane;
        }
        g->lds_atag[d] = ((at & 0xffff0000u) == ep ? at : ep) | mybit;
    }
}
/* Note the LDS-writing instruction's box [lo, hi) in the wave's ring (w->lw), for the
 * reports of the races it makes (workgroups of several waves). */
static inline __attribute__((always_inline)) void sim_lds_wnote(sim_x *x, uint32_t lo, uint32_t hi)
{
    sim_wave *w = x->w;
    if (!x->g || x->g->nwaves < 2 || lo >= hi)
        return;
    unsigned n = sizeof w->lw / sizeof w->lw[0];
    unsigned i = w->lw_next++ % n;
    if (w->nlw < n)
        w->nlw++;
    w->lw[i].si = x->i;
    w->lw[i].lo = lo;
    w->lw[i].hi = hi;
    w->lw[i].atom = x->atomic;
}
/* (sim_lds_rnote, the note of a read's box [lo, hi), is below the race records' functions,
 * inline: every DS read of a workgroup of several waves takes one) */

/* ---- races on LDS reads wait for the use of the value (racyreg.c) ---------------- */
unsigned sim_rz_give_up(sim_x *x);              /* every record in use: one freed (1 + index) */
void sim_rz_free(sim_wave *w, unsigned k);
/* a register ticket lands: rk its record (0: none, or no longer the one linked), some row of
 * it followed already or not below 64 (or none: a record with no lane) */
void sim_rz_land_rows(gcn_sim *s, sim_wave *w, sim_ticket *t, unsigned rk);
void sim_rz_after(sim_x *x, const sim_insn *si);    /* uses and overwrites of instruction si */
void sim_rz_barrier(sim_wave *w);               /* the barrier released: epoch over */
void sim_rz_wave_end(sim_wave *w);
void sim_rz_reset(sim_wave *w);

/* The current read's record (1 + index): a read always issues its register ticket, which
 * takes x->rz_cur (one left over by a fault belongs to another instruction); a DS
 * instruction of two address ranges notes both with one record. */
static inline unsigned sim_rz_note(sim_x *x)
{
    sim_wave *w = x->w;
    unsigned k = x->rz_cur;
    if (!k || w->rz[k - 1].si != x->i || w->rz[k - 1].landed) {
        /* a new record: the first free slot from rz_next on, round */
        uint64_t f = ~w->rz_busy;
        if (__builtin_expect(f != 0, 1)) {
            uint64_t h = f & (~0ull << w->rz_next);
            k = (unsigned)__builtin_ctzll(h ? h : f) + 1;
        } else {
            k = sim_rz_give_up(x);
        }
        w->rz_next = k % SIM_RZ_NREC;
        w->rz_busy |= 1ull << (k - 1);
        sim_rzrec *c = &w->rz[k - 1];
        /* dreg, dn, nrows, landed, used, dead and nocc 0, nlink 1: one 8-byte and one 4-byte
         * store */
        _Static_assert(__builtin_offsetof(sim_rzrec, dreg) == 12 &&
                       __builtin_offsetof(sim_rzrec, dead) == 20 &&
                       __builtin_offsetof(sim_rzrec, nlink) == 21 &&
                       __builtin_offsetof(sim_rzrec, nocc) == 22 &&
                       __builtin_offsetof(sim_rzrec, occ) == 24, "the record's fields");
        static const uint8_t fresh[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
        memcpy(&c->dreg, fresh, sizeof fresh);
        if (!++w->rz_gen)
            w->rz_gen = 1;
        c->gen = w->rz_gen;
        c->si = x->i;
        x->rz_cur = k;
        return k;
    }
    w->rz[k - 1].nlink++;
    return k;
}
/* a note naming record rz (gen) is forgotten */
static inline void sim_rz_unlink(sim_wave *w, unsigned rz, uint32_t gen)
{
    if (!rz || w->rz[rz - 1].gen != gen)
        return;
    sim_rzrec *c = &w->rz[rz - 1];
    if (c->nlink && !--c->nlink && !c->nocc && (c->landed || c->dead || c->used)) {
        if (c->nrows) {
            sim_rz_free(w, rz);     /* (its rows released too) */
        } else {
            c->gen = 0;
            w->rz_busy &= ~(1ull << (rz - 1));
        }
    }
}
/* the current read's register ticket */
static inline __attribute__((always_inline)) void sim_rz_issue(sim_x *x, sim_ticket *t)
{
    sim_rzrec *c = &x->w->rz[x->rz_cur - 1];
    t->rz = (uint8_t)x->rz_cur;
    t->rz_gen = c->gen;
    c->dreg = t->dreg;
    c->dn = t->dn;
    x->rz_cur = 0;
}
/* sim_tk_issue's report of a register load whose registers another pending load still
 * writes (fifo.c; the common issue has none) */
void sim_tk_issue_pending(sim_x *x, sim_ticket *t);
/* sim_tk_new (TK_VREG), one row dreg for every lane with the 256 bytes at src (any
 * alignment) as payload, sim_tk_issue: inline, the coalesced DS read's whole ticket
 * (sim_tk_row; sim_tk_row_c with the counters a constant) */
static inline __attribute__((always_inline)) sim_ticket *sim_tk_row_c(sim_x *x, unsigned dreg,
                                                                     unsigned counters,
                                                                     const void *src)
{
    sim_ticket *t = sim_tk_take(x, TK_VREG, counters);
    sim_wave *w = x->w;
    t->dreg = (uint16_t)dreg;
    t->dn = 1;
    sim_row_copy(t->data, src);
    /* sim_tk_issue for this ticket */
    if (x->rz_cur)
        sim_rz_issue(x, t);
    int in = dreg < w->nvrows;
    if (w->npend && in && w->vpend[dreg])
        sim_tk_issue_pending(x, t);
    if (counters & TC_VM)
        sim_fifo_push(&w->vm, t);
    if (counters & TC_LGKM)
        sim_fifo_push(&w->lgkm, t);
    if (in)
        sim_tk_pend_row(w, dreg);
    w->npend++;
    if (__builtin_expect(w->traced, 0))
        sim_tk_trace(x, t);
    return t;
}
static inline __attribute__((always_inline)) sim_ticket *sim_tk_row(sim_x *x, unsigned dreg,
                                                                   unsigned counters,
                                                                   const void *src)
{
    if (__builtin_expect(counters == TC_LGKM, 1))
        return sim_tk_row_c(x, dreg, TC_LGKM, src);     /* (a DS read's: its tests folded) */
    return sim_tk_row_c(x, dreg, counters, src);
}
/* A register ticket lands.  Inline: rows below 64 of which none is followed yet (nothing
 * ends; the read's rows are taken in its lanes). */
static inline void sim_rz_land(gcn_sim *s, sim_wave *w, sim_ticket *t)
{
    unsigned rk = t->rz, d = t->dreg, n = t->dn;
    t->rz = 0;
    if (rk && w->rz[rk - 1].gen != t->rz_gen)
        rk = 0;
    uint64_t m = t->lanes;
    if (n && d + n <= 64 && d + n <= w->nvrows && !(((2ull << (n - 1)) - 1) << d & w->rz_m[0]) &&
        (m || !rk)) {
        if (!rk)
            return;
        sim_rzrec *c = &w->rz[rk - 1];
        c->landed = 1;
        for (unsigned r = d; r < d + n; r++) {
            w->rz_own[r] = (uint8_t)rk;
            w->rz_lanes[r] = m;
        }
        w->rz_m[0] |= ((2ull << (n - 1)) - 1) << d;
        w->rz_n += n;
        c->nrows = (uint16_t)(c->nrows + n);
        return;
    }
    sim_rz_land_rows(s, w, t, rk);
}
/* sim_rz_land of a ticket of one row (dreg, below the wave's rows) for every lane: its row,
 * when below 64 and not followed yet, is taken in every lane (else sim_rz_land_rows). */
static inline __attribute__((always_inline)) void sim_rz_land1(gcn_sim *s, sim_wave *w,
                                                              sim_ticket *t)
{
    unsigned rk = t->rz, d = t->dreg;
    t->rz = 0;
    if (rk && w->rz[rk - 1].gen != t->rz_gen)
        rk = 0;
    if (d < 64 && !(w->rz_m[0] >> d & 1)) {
        if (!rk)
            return;
        sim_rzrec *c = &w->rz[rk - 1];
        c->landed = 1;
        w->rz_own[d] = (uint8_t)rk;
        w->rz_lanes[d] = ~0ull;
        w->rz_m[0] |= 1ull << d;
        w->rz_n++;
        c->nrows++;
        return;
    }
    sim_rz_land_rows(s, w, t, rk);
}
/* A race of the current instruction (sim_lds_check_done): count it now, when the read's
 * value is used, or never.  read: the race is on this instruction's read (its record
 * x->rz_cur); war: on a read of wave ow covering byte addr (its notes, newest first); else
 * it counts now.  *prod: the producer, which the choice of the read may change.  Returns
 * 0: count now; 1: defer on record *rec of the reading wave (sim_rz_defer); 2: drop (the
 * read's value is dead already). */
int sim_rz_race(sim_x *x, int read, int war, sim_wave *ow, uint32_t addr,
                const sim_insn **prod, unsigned *rec);
/* An occurrence of finding fi (sim_finding_site) of the current wave, lanes, waiting on
 * record rec of wave rw: counted when rw uses the value in one of rlanes. */
void sim_rz_defer(sim_x *x, sim_wave *rw, unsigned rec, int fi, uint64_t lanes,
                  uint64_t rlanes);

/* Note the LDS-reading instruction's box [lo, hi) in the wave's ring (w->lrd), with its race
 * record (workgroups of several waves). */
static inline __attribute__((always_inline)) void sim_lds_rnote(sim_x *x, uint32_t lo, uint32_t hi)
{
    sim_wave *w = x->w;
    if (!x->g || x->g->nwaves < 2 || lo >= hi)
        return;
    unsigned n = sizeof w->lrd / sizeof w->lrd[0];
    unsigned i = w->lrd_next++ % n;
    if (w->nlrd < n)
        w->nlrd++;
    else
        sim_rz_unlink(w, w->lrd[i].rz, w->lrd[i].rzgen);   /* (the ring forgets it) */
    w->lrd[i].si = x->i;
    w->lrd[i].lo = lo;
    w->lrd[i].hi = hi;
    w->lrd[i].rz = (uint8_t)sim_rz_note(x);
    w->lrd[i].rzgen = w->rz[w->lrd[i].rz - 1].gen;
}


/* ---- the body registry (table.c: the entries' rows by id; the id names are checked) ---- */
typedef struct sim_body_ent {
    const char *name;           /* ISA row id name, e.g. "V_ADD_F32" */
    sim_body fn;
    unsigned id;                /* its row, GCN_ID_<name> */
} sim_body_ent;

/* Each family file (ops_*.c) registers its bodies in one of these, {NULL, NULL, 0} ended. */
extern const sim_body_ent sim_bodies_salu[], sim_bodies_valu[], sim_bodies_vcmp[],
    sim_bodies_vop3p[], sim_bodies_mem[], sim_bodies_cvt[];
extern const sim_body_ent sim_bodies_gfx950[], sim_bodies_cvtmx[];
/* The MAI rows are registered by their flag, not by name: every row with GCN_F_MFMA runs
 * this one body (ops_mfma.c), which reads the shape from the row (gcn_mfma_info_get). */
void sim_mfma_body(sim_x *x);

#define B(ID) {#ID, b_##ID, GCN_ID_##ID}
#define BODY(ID) static void b_##ID(sim_x *x)

/* ---- float helpers (fp.c) ------------------------------------------------ */
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

#endif

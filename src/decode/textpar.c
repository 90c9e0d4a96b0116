/*
 * textpar.c -- the one-instruction-per-line printers (gcndis --llvm-text of
 * a code object, gcndis --raw streams), on several threads for long inputs.
 *
 * Where an instruction starts depends on the sizes of all instructions
 * before it (4, 8, 12 or 16 bytes), so a stream cannot simply be cut in
 * pieces.  llvm-objdump restarts decoding at every symbol; inside one
 * symbol's code this printer guesses.  The code is cut into chunks (more
 * than there are threads); a thread that takes chunk k > 0 starts at its
 * dword boundary b_k, which may be in the middle of an instruction, and
 * records where its first SYNC_N instructions start (and where their text
 * begins).  The chain of chunk k-1, when it reaches b_k, goes on decoding
 * until it reaches an address where chunk k's chain also started an
 * instruction.  Decoding is a function of the address, so from that
 * instruction on both chains are the same: chunk k's text from there is
 * exactly what one thread would have printed.  GCN code falls into step
 * within an instruction or two (all sizes are multiples of 4, most are 4
 * or 8); if it does not within SYNC_N instructions, the chain of chunk k-1
 * goes on to the end of the text on its own.  A chain that reaches a chunk
 * nobody has taken yet takes it and goes on (no guess there).  Either way
 * the output is byte-identical to one thread's (tests/decode/test_textpar.c
 * checks that with cut points on every dword, including ones that fall
 * inside instructions).
 *
 * Threads take chunks in order as they come free, so a thread that starts
 * late or runs slowly takes fewer.  The caller's thread takes chunks too
 * and, between them, writes the text of the chunks that are done, in
 * order.  The threads (a crew) can be started before the text is ready
 * (gcn_text_crew_start).  The decoder's tables are built once and shared
 * (decode_int.h, gcn_once), so decoding is safe on several threads.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gelf.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"
#include "decode_int.h"

#define SYNC_N 64          /* instruction starts a guessing thread records */
#define MAX_JOBS 64
#define CHUNKS_PER_JOB 12  /* chunks a thread takes on average (at most) */
#define MIN_PART_DEFAULT (16u << 10)    /* bytes of code per chunk at least (about
                                           3,000 instructions, 0.2 ms of work) */
/* Without a crew from the caller, threads are started for this much code
 * at least (about 45,000 instructions, 2.5 ms of work on one thread): a
 * thread's start can take milliseconds here (a virtual CPU to wake), and
 * the text waits for every thread it started to end. */
#define THREADS_MIN (256u << 10)

/* ---- branch-target names -----------------------------------------------------
 * The names gcn_co_label_name() gives (the least name of an STT_NOTYPE
 * symbol of .text at the address), sorted by address once, so that each
 * branch costs a binary search instead of a scan of the symbol table. */
typedef struct label_index {
    struct label { uint64_t addr; const char *name; } *v;
    unsigned n;
} label_index;

/* By address only (the order among equal addresses does not matter): the
 * least name per address is chosen afterwards, one strcmp per symbol.
 * (Code objects also hold thousands of absolute NOTYPE symbols at a few
 * small values, ".num_vgpr", ".private_seg_size", ...: not branch targets
 * for llvm-objdump, so not in the index.) */
static int label_cmp(const void *a, const void *b)
{
    const struct label *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Returns 0, or -1 when out of memory. */
static int label_index_build(label_index *li, const gcn_codeobj *co)
{
    li->n = 0;
    li->v = malloc((co->nsyms ? co->nsyms : 1) * sizeof *li->v);
    if (!li->v)
        return -1;
    for (unsigned i = 0; i < co->nsyms; i++) {
        const gcn_symbol *s = &co->syms[i];
        if (s->type == STT_NOTYPE && s->name[0] && s->shndx == co->text_index)
            li->v[li->n++] = (struct label){s->value, s->name};
    }
    qsort(li->v, li->n, sizeof *li->v, label_cmp);
    unsigned k = 0;                     /* keep the least name per address */
    for (unsigned i = 0; i < li->n; i++) {
        if (k == 0 || li->v[k - 1].addr != li->v[i].addr)
            li->v[k++] = li->v[i];
        else if (strcmp(li->v[i].name, li->v[k - 1].name) < 0)
            li->v[k - 1].name = li->v[i].name;
    }
    li->n = k;
    return 0;
}

static const char *label_lookup(void *ctx, uint64_t target)
{
    const label_index *li = ctx;
    unsigned lo = 0, hi = li->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (li->v[mid].addr < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < li->n && li->v[lo].addr == target ? li->v[lo].name : NULL;
}

/* ---- the text and its lines ------------------------------------------------ */

/* A stretch of code where decoding starts afresh (a symbol's code in .text,
 * or a whole raw stream); offsets into the bytes. */
typedef struct span {
    uint64_t start, end;
} span;

typedef struct text_src {
    const gcn_decoder *d;
    const uint8_t *bytes;
    uint64_t size;              /* bytes[0..size): an instruction may read up to here */
    uint64_t addr;              /* address of bytes[0] */
    const span *sp;             /* code spans in order */
    unsigned nsp;
    int mode;                   /* 0 address, words, text; 1 text; 2 offset, size, text */
} text_src;

/* Decode the instruction at pos, print its line; returns the next pos.
 * (Inline: it is the body of every loop here.) */
static inline __attribute__((always_inline)) uint64_t text_step(const text_src *s,
                                                                gcn_strbuf *sb, uint64_t pos)
{
    gcn_insn in;
    size_t n = gcn_decode_one_inline(s->d, s->bytes + pos, (size_t)(s->size - pos),
                                     s->addr + pos, &in);
    if (n == 0)
        n = 1;
    if (__builtin_expect(s->mode != 1, 0)) {
        /* the digit helpers, not printf: a vsnprintf per line was most of
         * the time of these modes */
        if (s->mode == 2) {
            gcn_sb_putu(sb, pos);                   /* "%llu\t%zu\t" */
            gcn_sb_putc(sb, '\t');
            gcn_sb_putu(sb, n);
            gcn_sb_putc(sb, '\t');
        } else {
            gcn_sb_puthex(sb, s->addr + pos, 8);    /* "%08llx: " */
            gcn_sb_putn(sb, ": ", 2);
            size_t c0 = sb->len;
            for (size_t i = 0; i < n / 4 && i < 3; i++) {
                if (i)
                    gcn_sb_putc(sb, ' ');
                gcn_sb_puthex(sb, in.words[i], 8);
            }
            /* the words padded to 28 columns in one piece (a character at a time
             * was a fifth of this function's own time) */
            if (sb->len - c0 < 28)
                gcn_sb_putn(sb, "                            ", 28 - (sb->len - c0));
        }
    }
    gcn_print_insn_inline(s->d, &in, sb);
    gcn_sb_putc(sb, '\n');
    return pos + n;
}

/* ---- chunks ------------------------------------------------------------------
 * The code is cut into more chunks than there are threads; each thread
 * takes the next chunk nobody has taken (the caller's thread too, which
 * also writes the text), so a thread that starts late or runs slowly (a
 * virtual CPU the host runs late or takes away for a while) just takes
 * fewer, and one that does not come at all has its chunks stolen
 * (chunk_wait, pool_steal).  A chain that
 * reaches the start of the next chunk while nobody has taken it takes that
 * chunk as well and goes on (no guess, no meeting).  Each thread keeps its
 * text in blocks of its own that never move once begun (an arena); a
 * chunk's text is a stretch of its thread's arena. */

enum { CH_FREE, CH_TAKEN, CH_ABSORBED };   /* chunk.state */
#define FROM_START 0xffffffffu             /* chunk.cont_sync: the whole text */

typedef struct tpos {                   /* a place in an arena */
    unsigned blk;
    size_t off;
} tpos;

typedef struct arena {
    gcn_strbuf sb;                      /* the block being filled */
    struct tblock { char *buf; size_t len; } *blk;  /* len final once a later block exists;
                                                       the array under pool.mu */
    unsigned nblk, cap;
    unsigned retired;                   /* blocks before it are written: their memory is
                                           free (under pool.mu) */
    char **mem, **free;                 /* the memory of every block, and that free now */
    unsigned nmem, nfree, mem_cap;      /* (under pool.mu) */
    size_t block;                       /* room of a block (BLOCK, or smaller for tests) */
    size_t mem_block;                   /* the room the memory in mem was made for (>= block) */
    char *region;                       /* blocks are carved from regions */
    size_t region_left;
    char **regions;                     /* every region, to free at the end */
    unsigned nregions;
} arena;

typedef struct chunk {
    uint64_t a, b;                      /* owns the instructions that start in [a, b) */
    unsigned ra;                        /* span holding a */
    int guess;                          /* a is inside span ra: its chain is a guess */
    atomic_int state;
    arena *ar;                          /* the arena of the thread that decodes it */
    tpos begin, end;                    /* its text (end: under pool.mu, with done) */
    /* A guessing chunk's first instruction starts and where their text
     * begins; when the chain reaches the span's end within SYNC_N, the last
     * entry is (span end, its text) and at_end is set.  Final once
     * published is set (under pool.mu). */
    uint64_t sync_pos[SYNC_N + 1];
    tpos sync_at[SYNC_N + 1];
    unsigned nsync;
    int at_end;
    atomic_int published;
    /* results, final once done is set (under pool.mu): the text after this
     * chunk's is that of chunk cont (nch: none) from its sync_at[cont_sync]
     * (FROM_START: all of it) */
    atomic_int done;
    unsigned cont, cont_sync;
    /* taken over by another thread (its text is not written); where its
     * chain last was (under pool.mu) */
    atomic_int stolen;
    int has_prog;
    struct chain { uint64_t pos, b; unsigned r, last; } prog;
    tpos prog_at;
} chunk;

typedef struct pool {
    const text_src *s;
    chunk *ch;
    unsigned nch;
    atomic_uint next;                   /* every chunk before it is taken or absorbed */
    atomic_int abandon;                 /* a chain met none: the rest is one thread's */
    long steal_ns;                      /* wait this long before stealing a chunk */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} pool;

/* Room of an arena block.  Blocks are carved from regions of 2 MB backed
 * by a transparent huge page (one page fault, not 512), and their memory
 * is used again once their text is written: fresh memory costs about
 * 0.15 ms per MB here (the kernel clears it, the host backs it), and
 * memory used again is in the cache.  A short text's blocks are smaller
 * (crew_hand_out), each allocated by itself. */
#define BLOCK ((256u << 10) - GCN_OUT_ROOM)
#define REGION GCN_OUT_BIG
/* Free room kept before each instruction: a line is under 500 bytes, and a
 * printer that reserves GCN_LINE_MAX again in mid-line must find it, so
 * the block is never grown (moved) under the writer's feet. */
#define BLOCK_ROOM (2 * GCN_LINE_MAX + 512)

static tpos arena_pos(const arena *ar)
{
    return (tpos){ar->nblk - 1, ar->sb.len};
}

/* Memory for a block of ar (the caller holds pool.mu). */
static char *arena_mem(arena *ar)
{
    if (ar->nfree)
        return ar->free[--ar->nfree];
    size_t need = (ar->mem_block + GCN_OUT_ROOM + 63) & ~(size_t)63;
    if (ar->region_left < need) {
        /* regions of 2 MB (huge pages) for blocks of the full size; the
         * smaller blocks of a short text are allocated one by one */
        size_t n = ar->mem_block < BLOCK ? need : need > REGION ? need : REGION;
        char *r = gcn_big_alloc(n);
        char **v = realloc(ar->regions, (ar->nregions + 1) * sizeof *v);
        if ((!r && !(r = malloc(n))) || !v)
            abort();                    /* out of memory, as every append */
        ar->regions = v;
        ar->regions[ar->nregions++] = r;
        ar->region = r;
        ar->region_left = n;
    }
    if (ar->nmem == ar->mem_cap) {
        unsigned cap = ar->mem_cap ? 2 * ar->mem_cap : 16;
        char **m = realloc(ar->mem, cap * sizeof *m), **f = m ? realloc(ar->free, cap * sizeof *f)
                                                              : NULL;
        if (!f)
            abort();
        ar->mem = m;
        ar->free = f;
        ar->mem_cap = cap;
    }
    char *m = ar->region;
    ar->region += need;
    ar->region_left -= need;
    ar->mem[ar->nmem++] = m;
    return m;
}

/* Begin a new block (the first, or the next when this one is full). */
static void arena_block_new(pool *P, arena *ar)
{
    pthread_mutex_lock(&P->mu);
    char *m = arena_mem(ar);
    if (ar->nblk == ar->cap) {
        unsigned cap = ar->cap ? 2 * ar->cap : 16;
        struct tblock *v = realloc(ar->blk, cap * sizeof *v);
        if (!v)
            abort();
        ar->blk = v;
        ar->cap = cap;
    }
    if (ar->nblk)
        ar->blk[ar->nblk - 1].len = ar->sb.len;     /* the full block is final */
    ar->blk[ar->nblk++] = (struct tblock){m, 0};
    pthread_mutex_unlock(&P->mu);
    ar->sb = (gcn_strbuf){m, 0, ar->block + GCN_OUT_ROOM};
    m[0] = 0;
}

/* After each instruction: room for the next line, in this block or a new one. */
static inline void arena_after_step(pool *P, arena *ar)
{
    assert(ar->sb.buf == ar->blk[ar->nblk - 1].buf);  /* BLOCK_ROOM kept it in place */
    if (ar->sb.cap - ar->sb.len < BLOCK_ROOM)
        arena_block_new(P, ar);
}

/* Write the text of ar from a to b to k. */
static void arena_write(pool *P, arena *ar, tpos a, tpos b, gcn_sink *k)
{
    for (unsigned i = a.blk; i <= b.blk; i++) {
        pthread_mutex_lock(&P->mu);
        const char *buf = ar->blk[i].buf;
        size_t len = i == b.blk ? b.off : ar->blk[i].len;
        pthread_mutex_unlock(&P->mu);
        size_t from = i == a.blk ? a.off : 0;
        if (len > from)
            gcn_sink_write(k, buf + from, len - from);
    }
}

/* The text of ar before block upto is written (or never will be): its
 * blocks' memory can hold new text. */
static void arena_retire(pool *P, arena *ar, unsigned upto)
{
    pthread_mutex_lock(&P->mu);
    for (; ar->retired < upto; ar->retired++)
        ar->free[ar->nfree++] = ar->blk[ar->retired].buf;
    pthread_mutex_unlock(&P->mu);
}

/* Start a text in ar, its blocks of room block: all its memory is free.
 * Memory made for blocks at least that large serves (a block uses the
 * first part of it); for larger blocks it is given back with its regions
 * and made again at the new size.  (A crew kept for text after text with
 * sizes that alternate grew by every switch, its old blocks left unused in
 * regions kept to the end; then it gave back and made again all its memory
 * at every switch, which for a crew kept for many short texts was most of
 * the allocation per text.) */
static void arena_begin(pool *P, arena *ar, size_t block)
{
    pthread_mutex_lock(&P->mu);
    if (block > ar->mem_block) {
        for (unsigned i = 0; i < ar->nregions; i++)
            free(ar->regions[i]);
        ar->nregions = 0;
        ar->region = NULL;
        ar->region_left = 0;
        ar->nmem = 0;
        ar->mem_block = block;
    }
    ar->block = block;
    ar->nfree = ar->nmem;
    if (ar->nmem)
        memcpy(ar->free, ar->mem, ar->nmem * sizeof *ar->free);
    ar->nblk = 0;
    ar->retired = 0;
    pthread_mutex_unlock(&P->mu);
    arena_block_new(P, ar);
}

static void arena_free(arena *ar)
{
    for (unsigned i = 0; i < ar->nregions; i++)
        free(ar->regions[i]);
    free(ar->regions);
    free(ar->blk);
    free(ar->mem);
    free(ar->free);
}

/* The next free chunk, now taken by the caller; nch when none is left. */
static unsigned chunk_take(pool *P)
{
    if (atomic_load(&P->abandon))
        return P->nch;
    for (unsigned c = atomic_load(&P->next); c < P->nch; c++) {
        int fr = CH_FREE;
        if (atomic_compare_exchange_strong(&P->ch[c].state, &fr, CH_TAKEN)) {
            unsigned n = atomic_load(&P->next);
            while (n < c + 1 && !atomic_compare_exchange_weak(&P->next, &n, c + 1))
                ;
            return c;
        }
    }
    return P->nch;
}

/* A moment's pause in a spin loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    for (int i = 0; i < 32; i++)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void chunk_publish(pool *P, chunk *p)
{
    pthread_mutex_lock(&P->mu);
    atomic_store(&p->published, 1);
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
}

static void chunk_record(chunk *p, uint64_t pos, const arena *ar)
{
    p->sync_pos[p->nsync] = pos;
    p->sync_at[p->nsync++] = arena_pos(ar);
}

/* Where a chain is: at pos in span r, covering the chunks up to last,
 * whose range ends at b. */
typedef struct chain chain;

/* Every PROGRESS_N instructions the chain of a chunk says where it is
 * (the place another thread takes it over from, see pool_write) and learns
 * whether it has been taken over (stolen): then it stops.  Returns 1 when
 * stolen. */
#define PROGRESS_N 64

static int chain_progress(pool *P, chunk *own, const arena *ar, const chain *at)
{
    pthread_mutex_lock(&P->mu);
    int stolen = atomic_load(&own->stolen);
    if (!stolen) {
        own->prog = *at;
        own->prog_at = arena_pos(ar);
        own->has_prog = 1;
    }
    pthread_mutex_unlock(&P->mu);
    return stolen;
}

/* Wait a little for chunk q, taken by another thread, to publish its
 * starts (1); when it does not (its thread is not running: a virtual CPU
 * the host has taken away), steal it (0): the caller's chain covers its
 * range itself, and q's thread stops when it sees this.  Also 0 when
 * somebody else's chain covers q (absorbed into a chain the caller's
 * chain takes the place of, or stolen). */
#define STEAL_WAIT_NS 30000L

/* Spin until *flag is set or P->steal_ns have passed; returns the flag. */
static int pool_spin(const pool *P, atomic_int *flag)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; !atomic_load(flag); i++) {
        if (i % 16 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) >= P->steal_ns)
                return 0;
        }
        cpu_relax();
    }
    return 1;
}

static int chunk_wait(pool *P, chunk *q)
{
    if (atomic_load(&q->state) == CH_ABSORBED)
        return 0;
    pool_spin(P, &q->published);
    pthread_mutex_lock(&P->mu);
    int met = atomic_load(&q->published) && !atomic_load(&q->stolen);
    if (!met)
        atomic_store(&q->stolen, 1);
    pthread_mutex_unlock(&P->mu);
    return met;
}

/* Decode from pos in span r to the end of the text into ar (text_rest()
 * into an arena); stops when own (if any) is stolen. */
static void arena_rest(pool *P, arena *ar, chunk *own, uint64_t pos, unsigned r)
{
    const text_src *s = P->s;
    unsigned n = 0;
    for (unsigned first = 1; r < s->nsp; r++, first = 0) {
        if (!first)
            pos = s->sp[r].start;
        while (pos < s->sp[r].end) {
            if (own && ++n % PROGRESS_N == 0 &&
                chain_progress(P, own, ar, &(chain){pos, s->size, r, P->nch - 1}))
                return;
            pos = text_step(s, &ar->sb, pos);
            arena_after_step(P, ar);
        }
    }
}

/* The chain reached pos inside span r, where chunk qi (published by the
 * thread that took it) guessed its start: decode on until the two chains
 * meet; *cont, *cont_sync say where the text goes on.  When they do not,
 * this chain goes on to the end of the text and no chunk is taken any
 * more. */
static void chain_meet(pool *P, arena *ar, chunk *own, unsigned qi, uint64_t pos, unsigned r,
                       unsigned *cont, unsigned *cont_sync)
{
    const text_src *s = P->s;
    chunk *q = &P->ch[qi];
    uint64_t end = s->sp[r].end;
    unsigned j = 0;
    for (;;) {
        if (pos >= end) {               /* off the span: q's text after it is right */
            if (q->at_end) {
                *cont = qi;
                *cont_sync = q->nsync - 1;
                return;
            }
            break;
        }
        while (j < q->nsync && q->sync_pos[j] < pos)
            j++;
        if (j == q->nsync)
            break;                      /* past all q recorded: no meeting (with
                                         * at_end the last entry is the span end,
                                         * beyond pos) */
        if (q->sync_pos[j] == pos) {
            *cont = qi;
            *cont_sync = j;
            return;
        }
        pos = text_step(s, &ar->sb, pos);
        arena_after_step(P, ar);
    }
    atomic_store(&P->abandon, 1);
    arena_rest(P, ar, own, pos, r);
    *cont = P->nch;
    *cont_sync = FROM_START;
}

/* Decode a chain into ar from at: the spans that start before its end b,
 * taking on the chunks after it as it reaches them: one nobody has taken
 * (absorbed), one whose thread has not published its starts (stolen), one
 * whose chain this one takes the place of; until it meets the chain of a
 * chunk that has published its starts, or the text ends.  own: the chunk
 * whose text this is (NULL for the writer's stolen chains); rec: the chunk
 * whose first starts to record, or NULL.  *cont, *cont_sync: where the
 * text goes on.  Returns 1 when own was stolen meanwhile (the chain
 * stopped; its text is never written). */
static int chain_run(pool *P, arena *ar, chunk *own, chunk *rec, chain at, unsigned *cont,
                     unsigned *cont_sync)
{
    const text_src *s = P->s;
    int recording = rec != NULL;
    unsigned n = 0;
    for (int first = 1; at.r < s->nsp && s->sp[at.r].start < at.b; at.r++, first = 0) {
        if (!first)
            at.pos = s->sp[at.r].start;
        uint64_t end = s->sp[at.r].end;
        for (;;) {
            while (at.pos < end && at.pos < at.b) {
                if (recording) {
                    chunk_record(rec, at.pos, ar);
                    if (rec->nsync == SYNC_N) {
                        chunk_publish(P, rec);
                        recording = 0;
                    }
                }
                if (own && ++n % PROGRESS_N == 0 && chain_progress(P, own, ar, &at))
                    return 1;
                at.pos = text_step(s, &ar->sb, at.pos);
                arena_after_step(P, ar);
            }
            if (at.b >= end)
                break;
            /* The next chunk starts inside this span (even when this
             * chain's last step also left the span). */
            chunk *q = &P->ch[at.last + 1];
            int fr = CH_FREE;
            if (atomic_compare_exchange_strong(&q->state, &fr, CH_ABSORBED)) {
                at.last++;
                at.b = q->b;
                continue;
            }
            if (recording) {
                chunk_publish(P, rec);
                recording = 0;
            }
            if (!chunk_wait(P, q)) {
                at.last++;
                at.b = q->b;
                continue;
            }
            chain_meet(P, ar, own, at.last + 1, at.pos, at.r, cont, cont_sync);
            return own && atomic_load(&own->stolen);
        }
        if (recording) {                /* the chain ran off its first span */
            chunk_record(rec, end, ar);
            rec->at_end = 1;
            chunk_publish(P, rec);
            recording = 0;
        }
    }
    if (recording)
        chunk_publish(P, rec);
    *cont = at.last + 1;
    *cont_sync = FROM_START;
    return 0;
}

/* Decode chunk c (taken by the caller) into ar. */
static void chunk_decode(pool *P, arena *ar, unsigned c)
{
    chunk *p = &P->ch[c];
    p->ar = ar;
    p->begin = arena_pos(ar);
    unsigned cont, cont_sync;
    chain_run(P, ar, p, p->guess ? p : NULL, (chain){p->a, p->b, p->ra, c}, &cont, &cont_sync);
    pthread_mutex_lock(&P->mu);
    p->cont = cont;
    p->cont_sync = cont_sync;
    p->end = arena_pos(ar);
    atomic_store(&p->done, 1);
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
}

/* Take chunks and decode them until none is left. */
static void pool_work(pool *P, arena *ar)
{
    for (unsigned c; (c = chunk_take(P)) < P->nch;)
        chunk_decode(P, ar, c);
}

static int tpos_before(tpos x, tpos y)
{
    return x.blk < y.blk || (x.blk == y.blk && x.off < y.off);
}

/* Take over chunk x from its thread, which has not finished it: write its
 * text from the sync entry from (or its start) up to where its chain last
 * said it was, and decode the rest of that chain into ar (the caller's
 * arena) and write it too.  *cur, *from: where the text goes on. */
static void pool_steal(pool *P, arena *ar, gcn_sink *k, unsigned *cur, unsigned *from)
{
    chunk *x = &P->ch[*cur];
    chain c = {*from == FROM_START ? x->a : x->sync_pos[*from], x->b, x->ra, *cur};
    tpos at = {0, 0}, prog_at = {0, 0};
    int prog = 0;
    pthread_mutex_lock(&P->mu);
    atomic_store(&x->stolen, 1);
    if (x->has_prog) {
        /* (x->begin and x->ar are set before its chain says where it is) */
        at = *from == FROM_START ? x->begin : x->sync_at[*from];
        prog = !tpos_before(x->prog_at, at);
        if (prog) {
            c = x->prog;
            prog_at = x->prog_at;
        }
    }
    pthread_mutex_unlock(&P->mu);
    if (prog) {
        arena_write(P, x->ar, at, prog_at, k);
        /* (x's thread writes no text before prog_at any more) */
    }
    tpos t0 = arena_pos(ar);
    chain_run(P, ar, NULL, NULL, c, cur, from);
    arena_write(P, ar, t0, arena_pos(ar), k);
}

/* Write, in order, the text of the chunks from *cur (from its
 * sync_at[*from], or all of it) on while they are done.  With ar (the
 * caller's arena), until the end of the text: a chunk that is not done
 * after a little while is taken over (pool_steal). */
static void pool_write(pool *P, arena *ar, gcn_sink *k, unsigned *cur, unsigned *from)
{
    while (*cur < P->nch) {
        chunk *p = &P->ch[*cur];
        if (!atomic_load(&p->done)) {
            if (!ar)
                return;
            pool_spin(P, &p->done);
            pthread_mutex_lock(&P->mu);
            int done = atomic_load(&p->done);
            pthread_mutex_unlock(&P->mu);
            if (!done) {
                pool_steal(P, ar, k, cur, from);
                continue;
            }
        }
        arena_write(P, p->ar, *from == FROM_START ? p->begin : p->sync_at[*from], p->end, k);
        /* the arena's later text is that of later chunks */
        arena_retire(P, p->ar, p->end.blk);
        *from = p->cont_sync;
        *cur = p->cont;
    }
}

/* Number of threads for jobs (0 = one per CPU this process may run on:
 * its affinity mask, else the online CPUs). */
static unsigned jobs_of(unsigned jobs)
{
    if (jobs == 0) {
        cpu_set_t cs;
        long n = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs)
                                                           : sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)n : 1;
    }
    return jobs > MAX_JOBS ? MAX_JOBS : jobs;
}

/* ---- the crew ----------------------------------------------------------------
 * The threads that decode chunks besides the caller's.  Started ahead of
 * the text (gcndis starts them before it reads the code object), a thread
 * is often running and has its first memory by the time the text is
 * ready: here a thread's start took 0.1 to 4 ms (a virtual CPU that must
 * be woken) and its first 2 MB of memory 0.3 ms.  gcn_text_crew_ready
 * hands them a code object's text as soon as it is read, before the rest
 * of the object is.  Waiting for a text, a thread spins for a while (a
 * sleeping virtual CPU is slow to wake), then sleeps. */

#define SPIN_NS 5000000L                /* spin this long for work, then sleep */


typedef struct worker {
    struct gcn_text_crew *crew;
    arena ar;
    pthread_t th;
    int threaded;
} worker;

struct gcn_text_crew {
    unsigned jobs;                      /* threads with the caller's */
    pool P;                             /* the text being printed; its mu and cv serve all */
    worker *w;                          /* w[0]: the caller's arena */
    atomic_uint gen;                    /* texts handed out */
    atomic_int quit;
    int yield;                          /* more threads than CPUs: spin yielding */
    long spin_ns;                       /* an idle thread spins this long, then sleeps */
    /* under P.mu: */
    unsigned open;                      /* the text threads may still join (gen), 0: none */
    unsigned inside;                    /* threads on it */
    size_t block;                       /* its arena blocks' room */
    /* a code object's text handed out while the object was still being
     * opened (gcn_text_crew_ready), or NULL */
    struct co_text *early;
};

static void crew_cancel(gcn_text_crew *c);

/* Wait until a text after the seen-th is handed out (1) or the crew ends
 * (0): spinning for the crew's spin_ns (SPIN_NS by default), then asleep.  While it spins, a thread that
 * has a CPU of its own (no more threads than CPUs) only pauses, which
 * leaves the core to a sibling hardware thread; else it yields its CPU to
 * any thread that wants it. */
static int crew_wait(gcn_text_crew *c, unsigned seen)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1;; i++) {
        if (atomic_load(&c->gen) != seen || atomic_load(&c->quit))
            break;
        if (i % 64 == 0 || c->spin_ns == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) >= c->spin_ns) {
                pthread_mutex_lock(&c->P.mu);
                while (atomic_load(&c->gen) == seen && !atomic_load(&c->quit))
                    pthread_cond_wait(&c->P.cv, &c->P.mu);
                pthread_mutex_unlock(&c->P.mu);
                break;
            }
        }
        if (c->yield)
            sched_yield();
        else
            cpu_relax();
    }
    return !atomic_load(&c->quit);
}

static void *worker_run(void *arg)
{
    worker *w = arg;
    gcn_text_crew *c = w->crew;
    arena_begin(&c->P, &w->ar, w->ar.block);  /* its memory, while nothing waits for it */
    for (unsigned seen = 0; crew_wait(c, seen);) {
        seen = atomic_load(&c->gen);
        pthread_mutex_lock(&c->P.mu);
        int join = c->open == seen;     /* (a text already over is left alone) */
        c->inside += join;
        size_t block = c->block;
        pthread_mutex_unlock(&c->P.mu);
        if (!join)
            continue;
        arena_begin(&c->P, &w->ar, block);
        pool_work(&c->P, &w->ar);
        pthread_mutex_lock(&c->P.mu);
        c->inside--;
        pthread_cond_broadcast(&c->P.cv);
        pthread_mutex_unlock(&c->P.mu);
    }
    return NULL;
}

/* The room of the threads' text blocks for text s: the option's, or
 * BLOCK; a short text fits a smaller block: at most 8 bytes of text per
 * byte of code (about 6 in practice), rounded up to a power of two (texts
 * of about one size share a size of block).  Each thread used to take a
 * 2 MB region for a text of a few KiB. */
static size_t text_block(const text_src *s, const gcn_text_opts *o)
{
    size_t block = o && o->block ? o->block : BLOCK;
    size_t fit = BLOCK_ROOM;
    while (fit < BLOCK && fit / 8 < s->size)
        fit *= 2;
    if (block > fit)
        block = fit;
    if (block < BLOCK_ROOM)
        block = BLOCK_ROOM;             /* the room is block + GCN_OUT_ROOM */
    return block;
}

/* A crew whose threads make their first blocks of room block while they
 * wait for a text. */
static gcn_text_crew *crew_start(unsigned jobs, size_t block, long spin_ns)
{
    jobs = jobs_of(jobs);
    if (jobs <= 1)
        return NULL;
    gcn_text_crew *c = calloc(1, sizeof *c);
    worker *w = calloc(jobs, sizeof *w);
    if (!c || !w) {
        free(c);
        free(w);
        return NULL;
    }
    c->w = w;
    pthread_mutex_init(&c->P.mu, NULL);
    pthread_cond_init(&c->P.cv, NULL);
    atomic_init(&c->gen, 0);
    atomic_init(&c->quit, 0);
    c->jobs = 1;
    c->yield = jobs > jobs_of(0);
    c->spin_ns = spin_ns < 0 ? SPIN_NS : spin_ns;
    for (unsigned i = 0; i < jobs; i++) {
        w[i].crew = c;
        w[i].ar.block = block;
    }
    /* (the threads in order: a thread's index is fixed once it runs) */
    for (unsigned i = 1; i < jobs; i++) {
        if (pthread_create(&w[i].th, NULL, worker_run, &w[i]) != 0)
            break;
        w[i].threaded = 1;
        c->jobs++;
    }
    return c;
}

gcn_text_crew *gcn_text_crew_start(unsigned jobs)
{
    return crew_start(jobs, BLOCK, -1);
}

gcn_text_crew *gcn_text_crew_start_opt(unsigned jobs, long spin_ns)
{
    return crew_start(jobs, BLOCK, spin_ns);
}

void gcn_text_crew_end(gcn_text_crew *c)
{
    if (!c)
        return;
    crew_cancel(c);
    pthread_mutex_lock(&c->P.mu);
    atomic_store(&c->quit, 1);
    pthread_cond_broadcast(&c->P.cv);
    pthread_mutex_unlock(&c->P.mu);
    for (unsigned i = 1; i < c->jobs; i++)
        pthread_join(c->w[i].th, NULL);
    for (unsigned i = 0; i < c->jobs; i++)
        arena_free(&c->w[i].ar);
    pthread_mutex_destroy(&c->P.mu);
    pthread_cond_destroy(&c->P.cv);
    free(c->w);
    free(c);
}

/* Printing the chunks of P with crew c: hand the text out (the threads
 * start on it), then take chunks on this thread too and between them
 * write the text of the chunks that are done, in order; then the rest as
 * it is done (crew_finish, which returns when every thread has left the
 * text). */
static void crew_hand_out(gcn_text_crew *c, const text_src *s, chunk *ch, unsigned nch,
                          const gcn_text_opts *o)
{
    pool *P = &c->P;
    P->s = s;
    P->ch = ch;
    P->nch = nch;
    atomic_store(&P->next, 0);
    atomic_store(&P->abandon, 0);
    P->steal_ns = !o || !o->steal_ns ? STEAL_WAIT_NS : o->steal_ns < 0 ? 0 : o->steal_ns;
    size_t block = text_block(s, o);
    pthread_mutex_lock(&P->mu);
    c->block = block;
    c->open = atomic_fetch_add(&c->gen, 1) + 1;
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
}

/* The text handed out, the caller's part: take chunks and write. */
static void crew_finish(gcn_text_crew *c, gcn_sink *k)
{
    pool *P = &c->P;
    arena *ar = &c->w[0].ar;
    arena_begin(P, ar, c->block);
    unsigned cur = 0, from = FROM_START;
    for (unsigned ci; (ci = chunk_take(P)) < P->nch;) {
        chunk_decode(P, ar, ci);
        pool_write(P, NULL, k, &cur, &from);
    }
    pool_write(P, ar, k, &cur, &from);
    pthread_mutex_lock(&P->mu);
    c->open = 0;
    while (c->inside)
        pthread_cond_wait(&P->cv, &P->mu);
    pthread_mutex_unlock(&P->mu);
}

/* Decode from pos in span r to the end of the text into k, on this thread
 * (every later span from its start, even when the last instruction of the
 * span before ran past it). */
static void text_rest(const text_src *s, gcn_sink *k, uint64_t pos, unsigned r)
{
    for (unsigned first = 1; r < s->nsp; r++, first = 0) {
        if (!first)
            pos = s->sp[r].start;
        while (pos < s->sp[r].end) {
            pos = text_step(s, &k->sb, pos);
            gcn_sink_flush(k);
        }
    }
}

/* Bytes of code in the spans of s. */
static uint64_t code_bytes(const text_src *s)
{
    uint64_t total = 0;
    for (unsigned r = 0; r < s->nsp; r++)
        total += s->sp[r].end - s->sp[r].start;
    return total;
}

/* Cut the code into at most n chunks of about equal size (each at least
 * min_part bytes); cut points on dword boundaries of their span.  Returns
 * the number of chunks. */
static unsigned text_cut(const text_src *s, chunk *ch, unsigned n, uint64_t min_part)
{
    uint64_t total = code_bytes(s);
    if (min_part == 0)
        min_part = 1;
    if (total / min_part < n)
        n = (unsigned)(total / min_part);
    if (n == 0)
        n = 1;
    unsigned nch = 0, r = 0;
    uint64_t before = 0;                /* code bytes in spans before r */
    for (unsigned k = 0; k < n && r < s->nsp; k++) {
        uint64_t want = total * k / n;  /* code bytes before the cut */
        while (r < s->nsp && before + (s->sp[r].end - s->sp[r].start) <= want) {
            before += s->sp[r].end - s->sp[r].start;
            r++;
        }
        if (r == s->nsp)
            break;
        uint64_t a = s->sp[r].start + ((want - before) & ~(uint64_t)3);
        if (nch && a <= ch[nch - 1].a)
            continue;
        ch[nch].a = a;
        ch[nch].ra = r;
        ch[nch].guess = a != s->sp[r].start;
        atomic_init(&ch[nch].state, CH_FREE);
        nch++;
    }
    for (unsigned k = 0; k < nch; k++)
        ch[k].b = k + 1 < nch ? ch[k + 1].a : s->size;
    return nch;
}

/* Print every code span of s to f, on up to jobs threads (or the crew's). */
static int text_print(const text_src *s, FILE *f, const gcn_text_opts *o)
{
    gcn_sink k;
    gcn_text_crew *crew = o ? o->crew : NULL;
    unsigned jobs = crew ? crew->jobs : jobs_of(o ? o->jobs : 1);
    uint64_t min_part = o && o->min_part ? o->min_part : MIN_PART_DEFAULT;
    if (!crew && !(o && o->min_part) && code_bytes(s) < THREADS_MIN)
        jobs = 1;
    unsigned most = jobs > 1 && s->nsp ? jobs * CHUNKS_PER_JOB : 0;
    chunk *ch = most ? calloc(most, sizeof *ch) : NULL;
    unsigned nch = ch ? text_cut(s, ch, most, min_part) : 0;
    gcn_text_crew *own = nch > 1 && !crew ? crew_start(jobs, text_block(s, o), -1) : NULL;
    if (!crew)
        crew = own;
    if (nch <= 1 || !crew) {
        free(ch);
        /* at least 4 bytes of text per byte of code (about 6 in practice) */
        gcn_sink_open(&k, f, s->size * 4);
        if (s->nsp)
            text_rest(s, &k, s->sp[0].start, 0);
        return gcn_sink_close(&k);
    }
    gcn_sink_open(&k, f, 0);
    crew_hand_out(crew, s, ch, nch, o);
    crew_finish(crew, &k);
    free(ch);
    gcn_text_crew_end(own);
    return gcn_sink_close(&k);
}

/* ---- entry points ------------------------------------------------------------ */

/* What printing a code object's text needs besides the object: the index
 * of its labels, its code spans, the decoder, and the text source over
 * them (which points into this struct: it must not move). */
typedef struct co_text {
    const gcn_codeobj *co;
    label_index li;
    span *sp;
    gcn_decoder d;
    text_src s;
    chunk *ch;                          /* (an early text's chunks) */
} co_text;

/* Returns 0, or -1 when out of memory. */
static int co_text_make(co_text *t, const gcn_codeobj *co)
{
    memset(t, 0, sizeof *t);
    t->co = co;
    if (label_index_build(&t->li, co))
        return -1;
    t->sp = malloc((co->nregions ? co->nregions : 1) * sizeof *t->sp);
    if (!t->sp) {
        free(t->li.v);
        return -1;
    }
    unsigned nsp = 0;
    for (unsigned r = 0; r < co->nregions; r++) {
        const gcn_text_region *rg = &co->regions[r];
        if (rg->is_data)
            continue;                   /* llvm-objdump dumps it as bytes */
        /* Like llvm-objdump, an instruction may use bytes past the next
         * symbol (up to the section end); decoding restarts there anyway. */
        t->sp[nsp++] = (span){rg->start - co->text_addr, rg->end - co->text_addr};
    }
    t->d = (gcn_decoder){.target = co->target, .label_name = label_lookup, .label_ctx = &t->li};
    t->s = (text_src){.d = &t->d, .bytes = co->text, .size = co->text_size,
                      .addr = co->text_addr, .sp = t->sp, .nsp = nsp, .mode = 1};
    return 0;
}

static void co_text_free(co_text *t)
{
    free(t->sp);
    free(t->li.v);
    free(t->ch);
}

/* Free the crew's early text (its threads have left it). */
static void crew_drop_early(gcn_text_crew *c)
{
    co_text_free(c->early);
    free(c->early);
    c->early = NULL;
}

void gcn_text_crew_ready(const gcn_codeobj *co, void *ctx)
{
    const gcn_text_opts *o = ctx;
    gcn_text_crew *c = o ? o->crew : NULL;
    if (!c || c->early)
        return;
    co_text *t = malloc(sizeof *t);
    if (!t || co_text_make(t, co)) {
        free(t);
        return;                         /* (printed the ordinary way later) */
    }
    unsigned most = c->jobs * CHUNKS_PER_JOB;
    t->ch = t->s.nsp ? calloc(most, sizeof *t->ch) : NULL;
    unsigned nch = t->ch ? text_cut(&t->s, t->ch, most, o->min_part ? o->min_part
                                                                     : MIN_PART_DEFAULT) : 0;
    if (nch <= 1) {
        co_text_free(t);
        free(t);
        return;
    }
    c->early = t;
    crew_hand_out(c, &t->s, t->ch, nch, o);
}

void gcn_text_crew_cancel(void *ctx)
{
    const gcn_text_opts *o = ctx;
    crew_cancel(o ? o->crew : NULL);
}

/* Drop the early text (its threads stop at their next check). */
static void crew_cancel(gcn_text_crew *c)
{
    if (!c || !c->early)
        return;
    pool *P = &c->P;
    pthread_mutex_lock(&P->mu);
    atomic_store(&P->abandon, 1);
    for (unsigned i = 0; i < P->nch; i++)
        atomic_store(&P->ch[i].stolen, 1);
    c->open = 0;
    while (c->inside)
        pthread_cond_wait(&P->cv, &P->mu);
    pthread_mutex_unlock(&P->mu);
    crew_drop_early(c);
}

int gcn_co_print_llvm_text_opt(const gcn_codeobj *co, FILE *f, const gcn_text_opts *o)
{
    gcn_text_crew *c = o ? o->crew : NULL;
    if (c && c->early && c->early->co == co) {
        gcn_sink k;                     /* handed out while co was opened */
        gcn_sink_open(&k, f, 0);
        crew_finish(c, &k);
        crew_drop_early(c);
        return gcn_sink_close(&k);
    }
    crew_cancel(c);                     /* (another object's) */
    co_text t;
    if (co_text_make(&t, co))
        return -1;
    int rc = text_print(&t.s, f, o);
    co_text_free(&t);
    return rc;
}

int gcn_co_print_llvm_text(const gcn_codeobj *co, FILE *f)
{
    return gcn_co_print_llvm_text_opt(co, f, NULL);
}

int gcn_raw_print_opt(gcn_target t, const uint8_t *data, size_t len, int mode, FILE *f,
                      const gcn_text_opts *o)
{
    gcn_decoder d = {.target = t};
    span sp = {0, len};
    text_src s = {.d = &d, .bytes = data, .size = len, .addr = 0, .sp = &sp,
                  .nsp = len ? 1 : 0, .mode = mode};
    return text_print(&s, f, o);
}

int gcn_raw_print(gcn_target t, const uint8_t *data, size_t len, int mode, FILE *f)
{
    return gcn_raw_print_opt(t, data, len, mode, f, NULL);
}

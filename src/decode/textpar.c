/*
 * textpar.c -- the one-instruction-per-line printers (gcndis --llvm-text of
 * a code object, gcndis --raw streams), on several threads for long inputs.
 *
 * Where an instruction starts depends on the sizes of all instructions
 * before it (4, 8, 12 or 16 bytes), so a stream cannot simply be cut in
 * pieces.  llvm-objdump restarts decoding at every symbol; inside one
 * symbol's code this printer guesses: thread k > 0 starts at a dword
 * boundary b_k in the middle of the code and records where its first
 * SYNC_N instructions start (and where their text begins in its buffer).
 * Thread k-1, when its own chain of instructions reaches b_k, goes on
 * decoding until its chain reaches an address where thread k's chain also
 * started an instruction.  Decoding is a function of the address, so from
 * that instruction on both chains are the same: thread k's text from there
 * is exactly what one thread would have printed.  GCN code falls into step
 * within an instruction or two (all sizes are multiples of 4, most are 4
 * or 8); if it does not within SYNC_N instructions, the rest of the text
 * after thread k-1's chain is decoded again on one thread.  Either way the
 * output is byte-identical to one thread's (tests/decode/test_textpar.c
 * checks that with cut points on every dword, including ones that fall
 * inside instructions).
 *
 * Thread 0 is the caller's: it writes its text as it goes; the other
 * threads keep theirs in memory until it is their turn.  The decoder's
 * tables are built once and shared (decode_int.h, gcn_once), so decoding is
 * safe on several threads.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"
#include "decode_int.h"

#define SYNC_N 64          /* instruction starts a guessing thread records */
#define MAX_JOBS 64
#define PART0_SHARE 0.85   /* part 0's size against the others' (see text_cut) */
#define MIN_PART_DEFAULT (64u << 10)    /* bytes of code per thread at least (about
                                           12,000 instructions, 0.8 ms of work) */

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
        if (s->mode == 2) {
            gcn_sb_printf(sb, "%llu\t%zu\t", (unsigned long long)pos, n);
        } else {
            gcn_sb_printf(sb, "%08llx: ", (unsigned long long)(s->addr + pos));
            size_t c0 = sb->len;
            for (size_t i = 0; i < n / 4 && i < 3; i++) {
                if (i)
                    gcn_sb_putc(sb, ' ');
                gcn_sb_puthex(sb, in.words[i], 8);
            }
            while (sb->len - c0 < 28)
                gcn_sb_putc(sb, ' ');
        }
    }
    gcn_print_insn_inline(s->d, &in, sb);
    gcn_sb_putc(sb, '\n');
    return pos + n;
}

/* ---- parts ------------------------------------------------------------------ */

typedef struct part {
    const text_src *s;
    uint64_t a, b;              /* owns the instructions that start in [a, b) */
    unsigned ra;                /* span holding a */
    int guess;                  /* a is inside span ra: its chain is a guess */
    gcn_sink *out;              /* part 0: the stream; others: NULL (text in blocks) */
    /* A thread's text: blocks of fixed room that never move once begun, so
     * the caller can write what a block holds while the thread goes on.
     * sb is the block being filled (the thread's alone); blk[i].pub is how
     * much of block i is final (under mu; the whole block once a later one
     * exists or done is set). */
    gcn_strbuf sb;
    struct tblock { char *buf; size_t pub; } *blk;
    unsigned nblk, blk_cap;
    size_t pub_at;              /* publish again when sb.len reaches this */
    const char *cur;            /* sb.buf as the block began (it must not move) */
    size_t block;               /* room of a block (BLOCK, or smaller for tests) */
    int done;                   /* the thread has finished (under mu) */
    /* A guessing part's first instruction starts and where their text
     * begins in sb; when the chain reaches the span's end within SYNC_N,
     * the last entry is (span end, text length) and at_end is set. */
    uint64_t sync_pos[SYNC_N + 1];
    size_t sync_out[SYNC_N + 1];
    unsigned sync_blk[SYNC_N + 1];  /* the block that sync_out is in */
    unsigned nsync;
    int at_end;
    int published;              /* sync_* final (under mu) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct part *next;
    /* results */
    int met;                    /* next part's text is right from next->skip */
    unsigned skip_blk;          /* this part's text to drop: the blocks */
    size_t skip;                /* before skip_blk and skip bytes of it */
    uint64_t stop;              /* when !met: where this part's chain stopped */
    unsigned stop_span;
    pthread_t th;
    int threaded;
} part;

static void part_publish(part *p)
{
    pthread_mutex_lock(&p->mu);
    p->published = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void part_wait_published(part *p)
{
    pthread_mutex_lock(&p->mu);
    while (!p->published)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static gcn_strbuf *part_sb(part *p)
{
    return p->out ? &p->out->sb : &p->sb;
}

#define BLOCK GCN_OUT_BIG               /* room of a thread's text block */
/* Free room kept before each instruction: a line is under 500 bytes, and a
 * printer that reserves GCN_LINE_MAX again in mid-line must find it, so
 * the block is never grown (moved) under the caller's feet. */
#define BLOCK_ROOM (2 * GCN_LINE_MAX + 512)
#define PUB_STEP (256u << 10)           /* publish a block's text in steps of this */

static size_t pub_step(const part *p)
{
    return p->block / 8 < PUB_STEP ? p->block / 8 : PUB_STEP;
}

/* Begin a new block (the first, or the next when this one is full). */
static void part_block_new(part *p)
{
    gcn_strbuf nb;
    gcn_sb_init(&nb);
    if (p->block != BLOCK || !gcn_sb_big(&nb, BLOCK)) {
        nb.buf = malloc(p->block + GCN_OUT_ROOM);
        if (!nb.buf)
            abort();                    /* out of memory, as every append */
        nb.buf[0] = 0;
        nb.cap = p->block + GCN_OUT_ROOM;
    }
    pthread_mutex_lock(&p->mu);
    if (p->nblk == p->blk_cap) {
        unsigned cap = p->blk_cap ? 2 * p->blk_cap : 8;
        struct tblock *v = realloc(p->blk, cap * sizeof *v);
        if (!v)
            abort();
        p->blk = v;
        p->blk_cap = cap;
    }
    if (p->nblk)
        p->blk[p->nblk - 1].pub = p->sb.len;   /* the full block is final */
    p->blk[p->nblk++] = (struct tblock){nb.buf, 0};
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    p->sb = nb;
    p->cur = nb.buf;
    p->pub_at = pub_step(p);
}

/* Make the text so far visible to the caller (done: and all of it). */
static void part_block_pub(part *p, int done)
{
    pthread_mutex_lock(&p->mu);
    if (p->nblk)
        p->blk[p->nblk - 1].pub = p->sb.len;
    p->done |= done;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    p->pub_at = p->sb.len + pub_step(p);
}

/* After each instruction: part 0 writes what is due; a thread keeps room
 * for the next line in its block and publishes its text in steps. */
static inline void part_after_step(part *p)
{
    if (p->out) {
        gcn_sink_flush(p->out);
        return;
    }
    assert(p->sb.buf == p->cur);        /* BLOCK_ROOM kept the block in place */
    if (p->sb.len >= p->pub_at)
        part_block_pub(p, 0);
    if (p->sb.cap - p->sb.len < BLOCK_ROOM)
        part_block_new(p);
}

/* Write q's text from byte skip of its block skip_blk on to k as the
 * thread produces it; returns when q is done and all of it is written. */
static void part_stream(part *q, gcn_sink *k, unsigned skip_blk, size_t skip)
{
    unsigned j = skip_blk;
    size_t at = skip;                   /* written from block j so far */
    for (;;) {
        pthread_mutex_lock(&q->mu);
        while (!q->done && (j >= q->nblk || (q->blk[j].pub <= at && j + 1 >= q->nblk)))
            pthread_cond_wait(&q->cv, &q->mu);
        const char *buf = j < q->nblk ? q->blk[j].buf : NULL;
        size_t pub = j < q->nblk ? q->blk[j].pub : 0;
        int more = j + 1 < q->nblk, done = q->done;
        pthread_mutex_unlock(&q->mu);
        if (pub > at) {
            gcn_sink_write(k, buf + at, pub - at);
            at = pub;
        }
        if (more) {                     /* block j was final: on to the next */
            j++;
            at = 0;
        } else if (done) {
            return;
        }
    }
}

/* The chain of p reached pos >= p->b inside span r, where the next part
 * guessed its start: decode on until the two chains meet. */
static void part_overrun(part *p, uint64_t pos, unsigned r)
{
    const text_src *s = p->s;
    part *q = p->next;
    uint64_t end = s->sp[r].end;
    gcn_strbuf *sb = part_sb(p);
    part_wait_published(q);
    unsigned j = 0;
    for (;;) {
        if (pos >= end) {               /* off the span: q's text after it is right */
            if (q->at_end) {
                p->met = 1;
                q->skip_blk = q->sync_blk[q->nsync - 1];
                q->skip = q->sync_out[q->nsync - 1];
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
            p->met = 1;
            q->skip_blk = q->sync_blk[j];
            q->skip = q->sync_out[j];
            return;
        }
        pos = text_step(s, sb, pos);
        part_after_step(p);
    }
    p->met = 0;
    p->stop = pos;
    p->stop_span = r;
}

/* Decode p's instructions: the spans from ra on that start before b. */
static void part_decode(part *p)
{
    const text_src *s = p->s;
    gcn_strbuf *sb = part_sb(p);
    int recording = p->guess;
    p->met = 1;
    for (unsigned r = p->ra; r < s->nsp && s->sp[r].start < p->b; r++) {
        uint64_t pos = r == p->ra ? p->a : s->sp[r].start, end = s->sp[r].end;
        while (pos < end && pos < p->b) {
            if (recording) {
                p->sync_pos[p->nsync] = pos;
                p->sync_blk[p->nsync] = p->nblk ? p->nblk - 1 : 0;
                p->sync_out[p->nsync++] = sb->len;
                if (p->nsync == SYNC_N) {
                    part_publish(p);
                    recording = 0;
                }
            }
            pos = text_step(s, sb, pos);
            part_after_step(p);
        }
        if (p->b < end) {
            /* The next part guessed its start in this span: meet its chain
             * (even when this chain's last step also left the span). */
            if (recording)
                part_publish(p);
            part_overrun(p, pos, r);
            return;
        }
        if (recording) {                /* the chain ran off its first span */
            p->sync_pos[p->nsync] = end;
            p->sync_blk[p->nsync] = p->nblk ? p->nblk - 1 : 0;
            p->sync_out[p->nsync++] = sb->len;
            p->at_end = 1;
            part_publish(p);
            recording = 0;
        }
    }
    if (recording)
        part_publish(p);
}

/* A part on its own thread (or, when no thread could start, on the
 * caller's): its text goes into blocks, published as it grows. */
static void *part_run(void *arg)
{
    part *p = arg;
    part_block_new(p);
    part_decode(p);
    part_block_pub(p, 1);
    return NULL;
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

/* Cut the code into at most n parts of about equal size (each at least
 * min_part bytes; part 0 a little smaller); cut points on dword boundaries
 * of their span.  Returns the number of parts. */
static unsigned text_cut(const text_src *s, part *pt, unsigned n, uint64_t min_part)
{
    uint64_t total = 0;
    for (unsigned r = 0; r < s->nsp; r++)
        total += s->sp[r].end - s->sp[r].start;
    if (min_part == 0)
        min_part = 1;
    if (total / min_part < n)
        n = (unsigned)(total / min_part);
    if (n == 0)
        n = 1;
    unsigned np = 0, r = 0;
    uint64_t before = 0;                /* code bytes in spans before r */
    for (unsigned k = 0; k < n && r < s->nsp; k++) {
        /* code bytes before the cut; part 0 is a little smaller (PART0_SHARE
         * of the others): its thread also writes all the text */
        uint64_t want = k ? (uint64_t)((double)total * (PART0_SHARE + k - 1) /
                                       (PART0_SHARE + n - 1))
                          : 0;
        while (r < s->nsp && before + (s->sp[r].end - s->sp[r].start) <= want) {
            before += s->sp[r].end - s->sp[r].start;
            r++;
        }
        if (r == s->nsp)
            break;
        uint64_t a = s->sp[r].start + ((want - before) & ~(uint64_t)3);
        if (np && a <= pt[np - 1].a)
            continue;
        pt[np] = (part){.s = s, .a = a, .ra = r, .guess = a != s->sp[r].start};
        np++;
    }
    for (unsigned k = 0; k < np; k++) {
        pt[k].b = k + 1 < np ? pt[k + 1].a : s->size;
        pt[k].next = k + 1 < np ? &pt[k + 1] : NULL;
        gcn_sb_init(&pt[k].sb);
        pthread_mutex_init(&pt[k].mu, NULL);
        pthread_cond_init(&pt[k].cv, NULL);
    }
    return np;
}

/* Print every code span of s to f, on up to jobs threads. */
static int text_print(const text_src *s, FILE *f, const gcn_text_opts *o)
{
    gcn_sink k;
    unsigned jobs = jobs_of(o ? o->jobs : 1);
    uint64_t min_part = o && o->min_part ? o->min_part : MIN_PART_DEFAULT;
    part *pt = jobs > 1 && s->nsp ? calloc(jobs, sizeof *pt) : NULL;
    unsigned np = pt ? text_cut(s, pt, jobs, min_part) : 0;
    size_t block = o && o->block ? o->block : BLOCK;
    if (block < BLOCK_ROOM)
        block = BLOCK_ROOM;             /* the room is block + GCN_OUT_ROOM */
    for (unsigned i = 0; i < np; i++)
        pt[i].block = block;
    /* Threads for parts np-1 .. 1 first (their buffers are theirs to
     * set up), last first: a part that gets no thread runs here at once,
     * when the part after it is running or done. */
    for (unsigned i = np; i-- > 1;) {
        part *p = &pt[i];
        p->threaded = pthread_create(&p->th, NULL, part_run, p) == 0;
        if (!p->threaded)
            part_run(p);
    }
    /* at least 4 bytes of text per byte of code (about 6 in practice) */
    gcn_sink_open(&k, f, s->size * 4);
    if (np <= 1) {
        if (np == 1) {
            pthread_mutex_destroy(&pt[0].mu);
            pthread_cond_destroy(&pt[0].cv);
        }
        free(pt);
        if (s->nsp)
            text_rest(s, &k, s->sp[0].start, 0);
        return gcn_sink_close(&k);
    }
    pt[0].out = &k;
    part_decode(&pt[0]);
    /* The parts' texts in order, each as its thread produces it.  When a
     * part's chain met no later one, the rest is decoded here instead. */
    for (unsigned i = 1; i < np; i++) {
        const part *prev = &pt[i - 1];  /* done: its results are final */
        if (!prev->met) {
            text_rest(s, &k, prev->stop, prev->stop_span);
            break;
        }
        gcn_sink_write(&k, k.sb.buf, k.sb.len);     /* what k holds comes first */
        gcn_sb_reset(&k.sb);
        part_stream(&pt[i], &k, pt[i].skip_blk, pt[i].skip);
    }
    for (unsigned i = 1; i < np; i++) {
        part *p = &pt[i];
        if (p->threaded)
            pthread_join(p->th, NULL);
        for (unsigned j = 0; j < p->nblk; j++)
            free(p->blk[j].buf);
        free(p->blk);
    }
    for (unsigned i = 0; i < np; i++) {
        pthread_mutex_destroy(&pt[i].mu);
        pthread_cond_destroy(&pt[i].cv);
    }
    free(pt);
    return gcn_sink_close(&k);
}

/* ---- entry points ------------------------------------------------------------ */

int gcn_co_print_llvm_text_opt(const gcn_codeobj *co, FILE *f, const gcn_text_opts *o)
{
    label_index li;
    if (label_index_build(&li, co))
        return -1;
    span *sp = malloc((co->nregions ? co->nregions : 1) * sizeof *sp);
    if (!sp) {
        free(li.v);
        return -1;
    }
    unsigned nsp = 0;
    for (unsigned r = 0; r < co->nregions; r++) {
        const gcn_text_region *rg = &co->regions[r];
        if (rg->is_data)
            continue;                   /* llvm-objdump dumps it as bytes */
        /* Like llvm-objdump, an instruction may use bytes past the next
         * symbol (up to the section end); decoding restarts there anyway. */
        sp[nsp++] = (span){rg->start - co->text_addr, rg->end - co->text_addr};
    }
    gcn_decoder d = {.target = co->target, .label_name = label_lookup, .label_ctx = &li};
    text_src s = {.d = &d, .bytes = co->text, .size = co->text_size, .addr = co->text_addr,
                  .sp = sp, .nsp = nsp, .mode = 1};
    int rc = text_print(&s, f, o);
    free(sp);
    free(li.v);
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

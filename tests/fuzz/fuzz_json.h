/*
 * fuzz_json.h -- for the fuzz targets that parse what a writer produced
 * (fuzz_lint: the JSON and SARIF reports; fuzz_sim: the Chrome trace):
 * fuzz_json_loadb() parses with jansson, its allocations taken from one
 * arena, and fuzz_json_drop() frees the tree by dropping the arena whole.
 * A parsed report is thousands of small blocks; under AddressSanitizer each
 * malloc records a stack trace and each free goes through the quarantine,
 * which made the parsing most of a run.  jansson is not under test here
 * (it is not instrumented either); the writers are, and what they write is
 * still parsed completely.  One tree at a time.
 */
#ifndef FUZZ_JSON_H
#define FUZZ_JSON_H

#include <jansson.h>
#include <stdlib.h>

typedef struct fuzz_arena_chunk {
    struct fuzz_arena_chunk *next;
    size_t cap, used;
    _Alignas(16) unsigned char mem[];
} fuzz_arena_chunk;

static fuzz_arena_chunk *fuzz_arena;

static void *fuzz_arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!fuzz_arena || fuzz_arena->cap - fuzz_arena->used < n) {
        size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
        fuzz_arena_chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = fuzz_arena;
        c->cap = cap;
        c->used = 0;
        fuzz_arena = c;
    }
    void *p = fuzz_arena->mem + fuzz_arena->used;
    fuzz_arena->used += n;
    return p;
}

static void fuzz_arena_free(void *p)
{
    (void)p;                    /* all at once, in fuzz_json_drop */
}

/* json_loadb() with the arena; NULL (and e filled) if text is no JSON. */
static json_t *fuzz_json_loadb(const char *text, size_t n, json_error_t *e)
{
    json_set_alloc_funcs(fuzz_arena_alloc, fuzz_arena_free);
    json_t *r = json_loadb(text, n, 0, e);
    json_set_alloc_funcs(malloc, free);
    return r;
}

/* Free the tree fuzz_json_loadb() made (and keep the newest chunk). */
static void fuzz_json_drop(void)
{
    if (!fuzz_arena)
        return;
    fuzz_arena_chunk *c = fuzz_arena->next;
    while (c) {
        fuzz_arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    fuzz_arena->next = NULL;
    fuzz_arena->used = 0;
}

#endif

/*
 * sink.c -- text output for the listings: a gcn_strbuf that is written to a
 * FILE in large pieces (gcn_sink), and buffers backed by transparent huge
 * pages (gcn_sb_big) for large outputs.
 *
 * Large outputs go out in writes of GCN_OUT_BIG bytes from a buffer aligned
 * to GCN_OUT_BIG that the kernel may back with one transparent huge page
 * (madvise): one page fault instead of 512, and the file system gets 2 MB
 * writes at 2 MB offsets (large page-cache folios), which costs the kernel
 * about half of what 64 KB writes do (4.2 MB to an ext4 file on Linux 6.18:
 * 0.6 ms against 1.1 ms).  Without THP a big buffer would cost 512 page
 * faults, more than it saves: then, and for small outputs, the buffer is
 * written every GCN_FLUSH_AT bytes.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "decode_int.h"

static int thp_usable(void)
{
    static atomic_int cached = -1;
    int v = atomic_load(&cached);
    if (v >= 0)
        return v;
    FILE *t = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128];
    v = t && fgets(line, sizeof line, t) != NULL &&
        (strstr(line, "[always]") != NULL || strstr(line, "[madvise]") != NULL);
    if (t)
        fclose(t);
    atomic_store(&cached, v);
    return v;
}

void *gcn_big_alloc(size_t n)
{
#ifdef MADV_HUGEPAGE
    void *p;
    if (n >= GCN_OUT_BIG && thp_usable() && posix_memalign(&p, GCN_OUT_BIG, n) == 0) {
        (void)madvise(p, n / GCN_OUT_BIG * GCN_OUT_BIG, MADV_HUGEPAGE);
        return p;
    }
#else
    (void)n;
#endif
    return NULL;
}

int gcn_sb_big(gcn_strbuf *sb, size_t cap)
{
    size_t blocks = (cap + GCN_OUT_BIG - 1) / GCN_OUT_BIG;
    char *p = gcn_big_alloc(blocks * GCN_OUT_BIG + GCN_OUT_ROOM);
    if (!p)
        return 0;
    sb->buf = p;
    sb->buf[0] = 0;
    sb->len = 0;
    sb->cap = blocks * GCN_OUT_BIG + GCN_OUT_ROOM;
    return 1;
}

void gcn_sink_open(gcn_sink *k, FILE *f, uint64_t expect)
{
    gcn_sb_init(&k->sb);
    k->f = f;
    k->rc = 0;
    k->big = expect >= GCN_OUT_BIG && gcn_sb_big(&k->sb, GCN_OUT_BIG);
    k->flush_at = k->big ? GCN_OUT_BIG : GCN_FLUSH_AT;
    /* A small buffer takes all it will need at once: GCN_FLUSH_AT and a line
     * (72 KiB), where growing by doubling from 128 bytes took ten reallocs and
     * ended at 128 KiB, at or past malloc's mmap threshold (glibc; sanitizers'
     * primary allocators), so each text's buffer was fresh memory the kernel
     * cleared.  (No text expected, no buffer: writes go straight to f.) */
    if (!k->big && expect) {
        k->sb.buf = malloc(GCN_FLUSH_AT + GCN_OUT_ROOM);
        if (k->sb.buf) {
            k->sb.buf[0] = 0;
            k->sb.cap = GCN_FLUSH_AT + GCN_OUT_ROOM;
        }
    }
}

void gcn_sink_write(gcn_sink *k, const char *p, size_t n)
{
    if (n && k->rc == 0 && fwrite(p, 1, n, k->f) != n)
        k->rc = -1;
}

void gcn_sink_flush_now(gcn_sink *k)
{
    if (k->big) {
        gcn_sink_write(k, k->sb.buf, GCN_OUT_BIG);
        k->sb.len -= GCN_OUT_BIG;
        memmove(k->sb.buf, k->sb.buf + GCN_OUT_BIG, k->sb.len + 1);
    } else {
        gcn_sink_write(k, k->sb.buf, k->sb.len);
        gcn_sb_reset(&k->sb);
    }
}

int gcn_sink_close(gcn_sink *k)
{
    gcn_sink_write(k, k->sb.buf, k->sb.len);
    gcn_sb_free(&k->sb);
    if (fflush(k->f) != 0 || ferror(k->f))
        k->rc = -1;
    return k->rc;
}

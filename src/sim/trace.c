/*
 * trace.c -- observability of one wave.
 *
 * --trace=fifo prints, after each executed instruction of the traced wave, its
 * pc, source line and text, the vmcnt and lgkmcnt depths and the FIFO
 * entries oldest -> newest with the instruction that made each.
 * --trace-json writes the same as a Chrome / Perfetto trace: one complete
 * event per instruction (timestamp = issue index), counter tracks for the
 * two depths, and one async span per ticket from issue to retirement.
 * --plot draws the FIFO depths of the wave over time as an SVG bar chart,
 * one bar pair per instruction, with every s_waitcnt marked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"
#include "gcn_file.h"

typedef struct tr_ev {
    uint64_t pc;
    const char *text;
    uint16_t vm, lgkm;          /* depths after the instruction */
    uint8_t wait;               /* s_waitcnt */
    uint8_t vmw, lgw;           /* its counts */
    uint8_t retired;            /* tickets it retired */
} tr_ev;

struct sim_trace {
    gcn_sim *s;
    FILE *out;
    tr_ev *ev;
    size_t nev, cap;
    gcn_strbuf json;
    gcn_strbuf line;            /* one instruction's lines of the FIFO text trace */
    int json_on, plot_on, text_on;
    unsigned vm_before, lgkm_before;
    uint64_t nfind;
    unsigned max_depth;
    /* the async spans begun ("ph":"b") and not yet ended: the end event repeats
     * the begin's cat, id and name (Trace Event Format pairing), and spans
     * still open when the trace ends are closed there.  The id is the ticket's
     * sequence number + 1: Chrome DevTools' trace engine drops async events
     * whose id is 0. */
    struct tr_span { uint32_t seq; uint8_t cat; const char *text; } *open;
    size_t nopen, capopen;
};

static const char *const span_cat[] = {"vm", "lgkm", "vm+lgkm"};

/* s as the inside of a JSON string: runs of characters that need no escape
 * are appended whole (the texts rarely have any that do). */
static void json_str_body(gcn_strbuf *sb, const char *s)
{
    if (!s)
        return;
    for (;;) {
        const char *run = s;
        while ((unsigned char)*s >= 0x20 && *s != '"' && *s != '\\')
            s++;
        if (s > run)
            gcn_sb_putn(sb, run, (size_t)(s - run));
        unsigned char c = (unsigned char)*s;
        if (!c)
            return;
        if (c == '"' || c == '\\') {
            gcn_sb_putc(sb, '\\');
            gcn_sb_putc(sb, (char)c);
        } else {
            gcn_sb_putn(sb, "\\u00", 4);
            gcn_sb_puthex(sb, c, 2);
        }
        s++;
    }
}

static void json_str(gcn_strbuf *sb, const char *s)
{
    gcn_sb_putc(sb, '"');
    json_str_body(sb, s);
    gcn_sb_putc(sb, '"');
}

struct sim_trace *sim_trace_new(gcn_sim *s)
{
    struct sim_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->s = s;
    t->out = s->o.trace_out ? s->o.trace_out : stdout;
    t->text_on = s->o.trace_fifo;
    t->json_on = s->o.trace_json != NULL;
    t->plot_on = s->o.plot_svg != NULL;
    gcn_sb_init(&t->json);
    gcn_sb_init(&t->line);
    if (t->json_on)
        gcn_sb_puts(&t->json, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"gcnsim wave\"}},\n"
                    "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"instructions\"}}");
    return t;
}

void sim_trace_free(struct sim_trace *t)
{
    if (!t)
        return;
    gcn_sb_free(&t->json);
    gcn_sb_free(&t->line);
    free(t->ev);
    free(t->open);
    free(t);
}

/* printf's "%s" of a string that may be NULL */
static const char *str_or_null(const char *s)
{
    return s ? s : "(null)";
}

/* Spaces after the text from column c0 on up to WIDTH columns (printf's "%-WIDTHs"). */
static void pad_to(gcn_strbuf *sb, size_t c0, size_t width)
{
    static const char sp[] = "                                                        ";   /* 56 */
    while (sb->len - c0 < width) {
        size_t n = width - (sb->len - c0);
        gcn_sb_putn(sb, sp, n < sizeof sp - 1 ? n : sizeof sp - 1);
    }
}

static void fifo_text(gcn_strbuf *sb, const sim_fifo *q)
{
    gcn_sb_putc(sb, '[');
    for (unsigned i = 0; i < q->n; i++) {
        const sim_ticket *k = q->e[(q->head + i) & 63];
        gcn_sb_puts(sb, i ? " | 0x" : "0x");
        gcn_sb_puthex(sb, k->si->pc, 1);
        gcn_sb_putc(sb, ' ');
        gcn_sb_puts(sb, str_or_null(k->si->text));
    }
    gcn_sb_putc(sb, ']');
}

void sim_trace_before(struct sim_trace *t, sim_x *x, const sim_insn *si)
{
    t->vm_before = x->w->vm.n;
    t->lgkm_before = x->w->lgkm.n;
    (void)si;
}

void sim_trace_after(struct sim_trace *t, sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    if (t->nev == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 1024;
        tr_ev *ne = realloc(t->ev, nc * sizeof *ne);
        if (!ne)
            return;
        t->ev = ne;
        t->cap = nc;
    }
    tr_ev *e = &t->ev[t->nev];
    memset(e, 0, sizeof *e);
    e->pc = si->pc;
    e->text = si->text;
    e->vm = (uint16_t)w->vm.n;
    e->lgkm = (uint16_t)w->lgkm.n;
    if (si->flags & GCN_F_WAITCNT) {
        unsigned imm = (unsigned)si->imm;
        e->wait = 1;
        e->vmw = (uint8_t)((imm & 0xf) | ((imm >> 14) & 3) << 4);
        e->lgw = (uint8_t)((imm >> 8) & 0xf);
    }
    unsigned before = t->vm_before + t->lgkm_before, after = w->vm.n + w->lgkm.n;
    e->retired = (uint8_t)(before > after ? before - after : 0);
    if (w->vm.n > t->max_depth) t->max_depth = w->vm.n;
    if (w->lgkm.n > t->max_depth) t->max_depth = w->lgkm.n;
    if (t->text_on) {
        /* the instruction's lines made in a kept buffer with the digit helpers and written
         * at once (five printf calls per instruction were most of the time of a traced run):
         * "#%-6zu pc 0x%05llx  %s", the text padded to 56 only when a source line follows
         * it (no trailing blanks), then "        vmcnt=%-2u [FIFO]" and the same for lgkmcnt */
        gcn_strbuf *l = &t->line;
        l->len = 0;
        gcn_sb_putc(l, '#');
        size_t c0 = l->len;
        gcn_sb_putu(l, t->nev);
        pad_to(l, c0, 6);
        gcn_sb_puts(l, " pc 0x");
        gcn_sb_puthex(l, si->pc, 5);
        gcn_sb_puts(l, "  ");
        c0 = l->len;
        gcn_sb_puts(l, str_or_null(si->text));
        if (si->where) {
            pad_to(l, c0, 56);
            gcn_sb_puts(l, "  ; ");
            gcn_sb_puts(l, si->where);
        }
        gcn_sb_puts(l, "\n        vmcnt=");
        c0 = l->len;
        gcn_sb_putu(l, w->vm.n);
        pad_to(l, c0, 2);
        gcn_sb_putc(l, ' ');
        fifo_text(l, &w->vm);
        gcn_sb_puts(l, "\n        lgkmcnt=");
        c0 = l->len;
        gcn_sb_putu(l, w->lgkm.n);
        pad_to(l, c0, 2);
        gcn_sb_putc(l, ' ');
        fifo_text(l, &w->lgkm);
        gcn_sb_putc(l, '\n');
        if (x->sim->faulted)
            gcn_sb_puts(l, "        FAULT\n");
        fwrite(l->buf, 1, l->len, t->out);
    }
    if (t->json_on && t->nev < 2000000) {
        /* the digit helpers, not printf: this runs for every instruction */
        gcn_strbuf *j = &t->json;
        gcn_sb_puts(j, ",\n{\"name\":");
        json_str(j, si->text);
        gcn_sb_puts(j, ",\"cat\":\"insn\",\"ph\":\"X\",\"ts\":");
        gcn_sb_putu(j, t->nev);
        gcn_sb_puts(j, ",\"dur\":1,\"pid\":1,\"tid\":1,\"args\":{\"pc\":\"0x");
        gcn_sb_puthex(j, si->pc, 1);
        gcn_sb_puts(j, "\",\"vmcnt\":");
        gcn_sb_putu(j, w->vm.n);
        gcn_sb_puts(j, ",\"lgkmcnt\":");
        gcn_sb_putu(j, w->lgkm.n);
        if (si->where) {
            gcn_sb_puts(j, ",\"line\":");
            json_str(j, si->where);
        }
        const sim_fifo *qs[2] = {&w->vm, &w->lgkm};
        static const char *const qn[2] = {",\"vm_fifo\":[", ",\"lgkm_fifo\":["};
        for (int q = 0; q < 2; q++) {
            gcn_sb_puts(j, qn[q]);
            for (unsigned i = 0; i < qs[q]->n; i++) {
                const sim_ticket *k = qs[q]->e[(qs[q]->head + i) & 63];
                gcn_sb_puts(j, i ? ",\"0x" : "\"0x");     /* "0xPC TEXT" */
                gcn_sb_puthex(j, k->si->pc, 1);
                gcn_sb_putc(j, ' ');
                json_str_body(j, k->si->text);
                gcn_sb_putc(j, '"');
            }
            gcn_sb_putc(j, ']');
        }
        gcn_sb_puts(j, "}},\n{\"name\":\"vmcnt\",\"ph\":\"C\",\"ts\":");
        gcn_sb_putu(j, t->nev);
        gcn_sb_puts(j, ",\"pid\":1,\"args\":{\"vmcnt\":");
        gcn_sb_putu(j, w->vm.n);
        gcn_sb_puts(j, "}},\n{\"name\":\"lgkmcnt\",\"ph\":\"C\",\"ts\":");
        gcn_sb_putu(j, t->nev);
        gcn_sb_puts(j, ",\"pid\":1,\"args\":{\"lgkmcnt\":");
        gcn_sb_putu(j, w->lgkm.n);
        gcn_sb_puts(j, "}}");
    }
    t->nev++;
}

void sim_trace_issue(struct sim_trace *t, sim_wave *w, const sim_ticket *tk)
{
    (void)w;
    if (!t->json_on || t->nev >= 2000000)
        return;
    if (t->nopen == t->capopen) {
        size_t nc = t->capopen ? 2 * t->capopen : 64;
        struct tr_span *no = realloc(t->open, nc * sizeof *no);
        if (!no)
            return;   /* no begin without a record of it: the span is left out whole */
        t->open = no;
        t->capopen = nc;
    }
    unsigned in = tk->in & 3u;
    struct tr_span *sp = &t->open[t->nopen++];
    sp->seq = tk->seq;
    sp->cat = (uint8_t)(in ? in - 1 : 0);
    sp->text = tk->si->text;
    gcn_strbuf *j = &t->json;
    gcn_sb_puts(j, ",\n{\"name\":");
    json_str(j, sp->text);
    gcn_sb_printf(j, ",\"cat\":\"%s\",\"ph\":\"b\",\"id\":%u,\"ts\":%zu,\"pid\":1,\"tid\":2}",
                  span_cat[sp->cat], sp->seq + 1u, t->nev);
}

/* The end event of open span i, at timestamp ts; the span leaves the table. */
static void span_end(struct sim_trace *t, size_t i, size_t ts)
{
    gcn_strbuf *j = &t->json;
    const struct tr_span *sp = &t->open[i];
    gcn_sb_puts(j, ",\n{\"name\":");
    json_str(j, sp->text);
    gcn_sb_printf(j, ",\"cat\":\"%s\",\"ph\":\"e\",\"id\":%u,\"ts\":%zu,\"pid\":1,\"tid\":2}",
                  span_cat[sp->cat], sp->seq + 1u, ts);
    t->open[i] = t->open[--t->nopen];
}

void sim_trace_retire(struct sim_trace *t, sim_wave *w, const sim_ticket *tk, unsigned counter)
{
    (void)w;
    (void)counter;
    if (!t->json_on || tk->in)
        return;   /* the span ends when the ticket leaves its last FIFO */
    for (size_t i = t->nopen; i-- > 0;)
        if (t->open[i].seq == tk->seq) {
            span_end(t, i, t->nev);
            return;
        }
}

void sim_trace_finding(struct sim_trace *t, sim_wave *w, const gcn_sim_finding *f)
{
    if (!w || !w->traced)
        return;
    if (t->text_on)
        fprintf(t->out, "        FINDING %s: %s\n", gcn_sim_finding_name(f->kind),
                f->detail ? f->detail : "");
    if (t->json_on) {
        gcn_sb_puts(&t->json, ",\n{\"name\":");
        json_str(&t->json, gcn_sim_finding_name(f->kind));
        gcn_sb_printf(&t->json, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%zu,\"pid\":1,\"tid\":1,\"args\":{\"detail\":",
                      t->nev);
        json_str(&t->json, f->detail);
        gcn_sb_puts(&t->json, "}}");
    }
}

void sim_trace_barrier(struct sim_trace *t)
{
    if (t->text_on)
        fprintf(t->out, "        -- barrier released --\n");
}

int sim_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    /* a temporary beside path renamed over it, only over a regular file or
     * a missing one (gcn_file.h, docs/reliability.md) */
    return gcn_file_write(path, data, len, err, errlen);
}

static void svg_text(gcn_strbuf *sb, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': gcn_sb_puts(sb, "&lt;"); break;
        case '>': gcn_sb_puts(sb, "&gt;"); break;
        case '&': gcn_sb_puts(sb, "&amp;"); break;
        case '"': gcn_sb_puts(sb, "&quot;"); break;
        default: gcn_sb_putc(sb, *s);
        }
    }
}

/* The FIFO-depth plot. */
static int write_plot(struct sim_trace *t, const char *path, char *err, size_t errlen)
{
    size_t n = t->nev, shown = n > 4000 ? 4000 : n;
    unsigned maxd = t->max_depth < 4 ? 4 : t->max_depth;
    double bw = shown <= 60 ? 16.0 : shown <= 300 ? 6.0 : shown <= 1000 ? 2.5 : 1.0;
    double L = 70, R = 60, T = 110, B = 70, H = 320;
    double W = bw * (double)shown;
    if (W < 640) W = 640;
    double yscale = H / maxd;
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_sb_printf(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
                  L + W + R, T + H + B);
    gcn_sb_puts(&sb, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    const gcn_dispatch *d = t->s->disp;
    gcn_sb_puts(&sb, "<text x=\"70\" y=\"22\" font-size=\"16\" font-weight=\"bold\">Wait-counter FIFO depth of ");
    gcn_sb_printf(&sb, "workgroup %u, wave %u", t->s->o.trace_wg, t->s->o.trace_wave);
    if (d && d->kernel) {
        gcn_sb_puts(&sb, " (");
        svg_text(&sb, d->kernel->name);
        gcn_sb_puts(&sb, ")");
    }
    gcn_sb_puts(&sb, "</text>\n");
    gcn_sb_printf(&sb, "<text x=\"70\" y=\"40\" fill=\"#555\">after each instruction, in issue order; "
                  "%zu instructions%s</text>\n", n, shown < n ? " (first 4000 shown)" : "");
    /* grid and y axis */
    unsigned step = maxd <= 8 ? 1 : maxd <= 20 ? 2 : maxd <= 40 ? 5 : 10;
    for (unsigned v = 0; v <= maxd; v += step) {
        double y = T + H - v * yscale;
        gcn_sb_printf(&sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                      L, y, L + W, y);
        gcn_sb_printf(&sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n", L - 6, y + 4, v);
    }
    /* bars */
    for (size_t i = 0; i < shown; i++) {
        const tr_ev *e = &t->ev[i];
        double x0 = L + bw * (double)i;
        double hv = e->vm * yscale, hl = e->lgkm * yscale;
        if (e->vm)
            gcn_sb_printf(&sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#3b6fb6\">"
                          "<title>#%zu 0x%llx: vmcnt %u</title></rect>\n", x0, T + H - hv,
                          bw > 2 ? bw * 0.5 : bw, hv, i, (unsigned long long)e->pc, e->vm);
        if (e->lgkm)
            gcn_sb_printf(&sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#e69138\">"
                          "<title>#%zu lgkmcnt %u</title></rect>\n", x0 + (bw > 2 ? bw * 0.5 : 0),
                          T + H - hl, bw > 2 ? bw * 0.4 : bw, hl, i, e->lgkm);
        if (e->wait) {
            double cx = x0 + bw / 2;
            gcn_sb_printf(&sb, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#c00\" "
                          "stroke-dasharray=\"3,2\" stroke-width=\"1\"/>\n", cx, T, cx, T + H);
            gcn_sb_printf(&sb, "<path d=\"M %.2f %.1f l -4 -8 l 8 0 z\" fill=\"#c00\"><title>#%zu ",
                          cx, T, i);
            svg_text(&sb, e->text);
            gcn_sb_printf(&sb, " (retired %u)</title></path>\n", e->retired);
            if (bw >= 6 || shown <= 120) {
                char lab[48];
                if (e->vmw < 63 && e->lgw < 15)
                    snprintf(lab, sizeof lab, "vmcnt(%u) lgkmcnt(%u)", e->vmw, e->lgw);
                else if (e->vmw < 63)
                    snprintf(lab, sizeof lab, "vmcnt(%u)", e->vmw);
                else if (e->lgw < 15)
                    snprintf(lab, sizeof lab, "lgkmcnt(%u)", e->lgw);
                else
                    snprintf(lab, sizeof lab, "(no wait)");
                gcn_sb_printf(&sb, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\" fill=\"#c00\" "
                              "transform=\"rotate(-60 %.2f %.1f)\">%s</text>\n",
                              cx + 3, T - 11, cx + 3, T - 11, lab);
            }
        }
    }
    /* axes */
    gcn_sb_printf(&sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  L, T + H, L + W, T + H);
    gcn_sb_printf(&sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  L, T, L, T + H);
    size_t xt = shown <= 20 ? 1 : shown <= 100 ? 10 : shown <= 500 ? 50 : shown <= 2000 ? 200 : 500;
    for (size_t i = 0; i <= shown; i += xt) {
        double x0 = L + bw * (double)i;
        gcn_sb_printf(&sb, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                      x0, T + H, x0, T + H + 4);
        gcn_sb_printf(&sb, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n", x0,
                      T + H + 18, i);
    }
    gcn_sb_printf(&sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">"
                  "instruction of the wave (issue order)</text>\n", L + W / 2, T + H + 40);
    gcn_sb_printf(&sb, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" "
                  "transform=\"rotate(-90 18 %.1f)\">outstanding operations (FIFO depth)</text>\n",
                  T + H / 2, T + H / 2);
    /* legend */
    double lx = L + 10, ly = T + H + 52;
    gcn_sb_printf(&sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"#3b6fb6\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\">vmcnt</text>\n", lx, ly, lx + 16, ly + 9);
    gcn_sb_printf(&sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"#e69138\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\">lgkmcnt</text>\n", lx + 80, ly, lx + 96, ly + 9);
    gcn_sb_printf(&sb, "<path d=\"M %.1f %.1f l -4 -8 l 8 0 z\" fill=\"#c00\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\">s_waitcnt (vmcnt/lgkmcnt it waits for)</text>\n",
                  lx + 176, ly + 10, lx + 186, ly + 9);
    gcn_sb_puts(&sb, "</svg>\n");
    int rc = sim_write_atomic(path, sb.buf, sb.len, err, errlen);
    gcn_sb_free(&sb);
    return rc;
}

int sim_trace_finish(struct sim_trace *t, char *err, size_t errlen)
{
    int rc = 0;
    if (t->json_on) {
        while (t->nopen)      /* tickets still in flight when the wave's trace ends */
            span_end(t, t->nopen - 1, t->nev);
        gcn_sb_puts(&t->json, "\n]}\n");
        if (sim_write_atomic(t->s->o.trace_json, t->json.buf, t->json.len, err, errlen))
            rc = -1;
    }
    if (t->plot_on && rc == 0) {
        if (write_plot(t, t->s->o.plot_svg, err, errlen))
            rc = -1;
    }
    return rc;
}

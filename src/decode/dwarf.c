/*
 * dwarf.c -- the .debug_line table of a code object, via libdw: every row
 * (address, file, line) of every unit, sorted by address, so gcndis can print
 * "file:line" beside each instruction (code assembled with clang-22 -g maps
 * each instruction to its line of the .s).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codeobj_int.h"

const char *gcn_strpool_add(gcn_strpool *p, const char *s)
{
    for (unsigned i = p->n; i-- > 0;)
        if (!strcmp(p->s[i], s))
            return p->s[i];
    if (p->n == p->cap) {
        unsigned cap = p->cap ? p->cap * 2 : 8;
        char **ns = realloc(p->s, cap * sizeof *ns);
        if (!ns)
            return NULL;
        p->s = ns;
        p->cap = cap;
    }
    char *c = strdup(s);
    if (!c)
        return NULL;
    p->s[p->n++] = c;
    return c;
}

void gcn_strpool_free(gcn_strpool *p)
{
    for (unsigned i = 0; i < p->n; i++)
        free(p->s[i]);
    free(p->s);
    p->s = NULL;
    p->n = p->cap = 0;
}

typedef struct row {
    gcn_line l;
    unsigned seq;     /* original order, for a stable sort */
    int end;          /* end_sequence row */
} row;

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->l.addr != y->l.addr)
        return x->l.addr < y->l.addr ? -1 : 1;
    if (x->end != y->end)          /* an end of one sequence before the start of the next */
        return x->end ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int gcn_dwarf_read_lines(Elf *elf, gcn_strpool *pool, gcn_line **lines, unsigned *nlines,
                         char *why, size_t whysz)
{
    *lines = NULL;
    *nlines = 0;
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (!dw) {
        snprintf(why, whysz, "cannot read DWARF: %s", dwarf_errmsg(-1));
        return -1;
    }
    row *rows = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    uint8_t unit_type;
    int r;
    while ((r = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL)) == 0) {
        if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
            continue;
        if (!dwarf_hasattr(&cudie, DW_AT_stmt_list))
            continue;
        /* Relative file names are relative to the unit's compilation
         * directory (DWARF 5, 6.2.4; llvm-objdump joins them the same way). */
        Dwarf_Attribute at;
        const char *comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &at));
        char path[4096];
        Dwarf_Lines *dl;
        size_t nl;
        if (dwarf_getsrclines(&cudie, &dl, &nl) != 0) {
            snprintf(why, whysz, "bad .debug_line: %s", dwarf_errmsg(-1));
            rc = -1;
            break;
        }
        for (size_t i = 0; i < nl; i++) {
            Dwarf_Line *l = dwarf_onesrcline(dl, i);
            Dwarf_Addr a;
            int lineno = 0;
            bool end = false;
            if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &lineno) ||
                dwarf_lineendsequence(l, &end))
                continue;
            const char *f = end ? NULL : dwarf_linesrc(l, NULL, NULL);
            if (f && f[0] != '/' && comp_dir && comp_dir[0]) {
                snprintf(path, sizeof path, "%s/%s", comp_dir, f);
                f = path;
            }
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 256;
                row *nr = realloc(rows, nc * sizeof *nr);
                if (!nr) {
                    snprintf(why, whysz, "out of memory reading .debug_line");
                    rc = -1;
                    goto out;
                }
                rows = nr;
                cap = nc;
            }
            row *w = &rows[n];
            w->l.addr = a;
            w->l.line = (end || lineno < 0) ? 0 : (unsigned)lineno;
            w->l.file = NULL;
            if (f && !end) {
                w->l.file = gcn_strpool_add(pool, f);
                if (!w->l.file) {
                    snprintf(why, whysz, "out of memory reading .debug_line");
                    rc = -1;
                    goto out;
                }
            }
            w->end = end;
            w->seq = (unsigned)n;
            n++;
            if (n >= 0xFFFFFFF0u)
                goto done;
        }
    }
    if (r < 0 && rc == 0) {
        snprintf(why, whysz, "bad .debug_info: %s", dwarf_errmsg(-1));
        rc = -1;
    }
done:
    if (rc == 0 && n) {
        qsort(rows, n, sizeof *rows, row_cmp);
        /* Rows at the same address: the last one describes it. */
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (k && rows[k - 1].l.addr == rows[i].l.addr)
                k--;
            rows[k++] = rows[i];
        }
        gcn_line *out = malloc(k * sizeof *out);
        if (!out) {
            snprintf(why, whysz, "out of memory reading .debug_line");
            rc = -1;
            goto out;
        }
        for (size_t i = 0; i < k; i++)
            out[i] = rows[i].l;
        *lines = out;
        *nlines = (unsigned)k;
    }
out:
    free(rows);
    dwarf_end(dw);
    return rc;
}

/*
 * codeobj_int.h -- internals shared by the code-object reader's modules
 * (codeobj.c reads the ELF, dwarf.c the line table, colist.c prints).
 */
#ifndef GCN_CODEOBJ_INT_H
#define GCN_CODEOBJ_INT_H

#include <libelf.h>
#include "gcn_codeobj.h"

/* Interned strings owned by a code object (file names of the line table). */
typedef struct gcn_strpool {
    char **s;
    unsigned n, cap;
} gcn_strpool;

const char *gcn_strpool_add(gcn_strpool *p, const char *s);
void gcn_strpool_free(gcn_strpool *p);

/* Read the DWARF line table of an ELF with libdw into a sorted array (rows
 * that end a sequence are kept with file NULL and line 0, so a lookup can
 * tell that an address lies in no sequence).  Returns 0, or -1 with a reason
 * in why (the caller treats that as a warning, not an error). */
int gcn_dwarf_read_lines(Elf *elf, gcn_strpool *pool, gcn_line **lines, unsigned *nlines,
                         char *why, size_t whysz);

/* Set err->msg to "NAME: <formatted problem>" and return code (strbuf.c;
 * shared by the reader and the bundle parser). */
int gcn_co_fail(gcn_co_err *err, int code, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif

/*
 * mcbytes.c -- tests' assembler: llvm-mc-22 -show-encoding, its
 * "encoding: [0x.., ...]" lines read back as bytes (see mcbytes.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mcbytes.h"

int mc_bytes(const char *cpu, const char *text, unsigned max_insns, uint8_t *bytes, size_t cap,
             size_t *n, FILE *errs)
{
    const char *mc = getenv("LLVM_MC");
    if (!mc || !*mc)
        mc = "llvm-mc-22";
    char tmp[] = "/tmp/mcbytes-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n", text);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -show-encoding %s 2>&1", mc,
             cpu, tmp);
    FILE *p = popen(cmd, "r");
    char line[4096];
    int insns = 0;
    *n = 0;
    while (p && fgets(line, sizeof line, p)) {
        char *e = strstr(line, "encoding: [");
        if (!e) {
            if (errs && strstr(line, "error"))
                fprintf(errs, "llvm-mc: %s", line);
            continue;
        }
        if ((unsigned)insns == max_insns)
            continue;                   /* (read on: llvm-mc must not block) */
        for (e += strlen("encoding: ["); *e && *e != ']' && *n < cap;) {
            bytes[(*n)++] = (uint8_t)strtoul(e, &e, 0);
            if (*e == ',')
                e++;
        }
        insns++;
    }
    if (p)
        pclose(p);
    unlink(tmp);
    return insns;
}

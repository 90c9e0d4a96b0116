/*
 * nsvalu_driver.c -- a line-oriented front end to the simulator's VALU bodies
 * for tests/sim/test_nsvalu.py.  Requests, one per line:
 *
 *   T gfx942|gfx950        target (a fresh wave; registers zeroed)
 *   M HEX                  MODE register
 *   X HEX                  EXEC
 *   S vN H0 .. H63         set the 64 lanes of VGPR vN (hex)
 *   R ASM...               assemble (llvm-mc-22) and execute one instruction;
 *                          answers "ok" or "fault MESSAGE"
 *   G vN                   answers the 64 lanes of vN (hex)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"

int main(void)
{
    char line[8192];
    st_env *e = st_new(GCN_TARGET_GFX950);
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *p = line + 2;
        switch (line[0]) {
        case 'T':
            st_free(e);
            e = st_new(!strcmp(p, "gfx942") ? GCN_TARGET_GFX942 : GCN_TARGET_GFX950);
            break;
        case 'M':
            e->w->hw_mode = (uint32_t)strtoul(p, NULL, 16);
            break;
        case 'X':
            sim_set_exec(e->w, strtoull(p, NULL, 16));
            break;
        case 'S': {
            char *q;
            unsigned r = (unsigned)strtoul(p + 1, &q, 10);
            for (unsigned l = 0; l < 64 && r < e->w->nvrows; l++)
                e->w->v[r][l] = (uint32_t)strtoul(q, &q, 16);
            break;
        }
        case 'R':
            if (st_run(e, p))
                printf("fault %s\n", e->sim->fault[0] ? e->sim->fault : "assembly failed");
            else
                printf("ok\n");
            break;
        case 'G': {
            unsigned r = (unsigned)strtoul(p + 1, NULL, 10);
            for (unsigned l = 0; l < 64; l++)
                printf(l ? " %x" : "%x", r < e->w->nvrows ? e->w->v[r][l] : 0);
            printf("\n");
            break;
        }
        default:
            break;
        }
    }
    st_free(e);
    return 0;
}

/*
 * cli.h -- command-line spellings every tool accepts alike (included by the
 * tool mains only).  --mcpu=X and --mcpu X are getopt_long's (gcnlint parses
 * both itself); LLVM's single-dash forms -mcpu=X and -mcpu X are taken out of
 * argv here, before the tool's own parsing, so that "-mcpu" does not read as
 * the short options -m -c -p -u.
 */
#ifndef GCN_TOOLS_CLI_H
#define GCN_TOOLS_CLI_H

#include <stdio.h>
#include <string.h>

/* Remove -mcpu=X / -mcpu X from argv (up to a "--"), setting *mcpu to X.
 * Returns 0, or -1 after a message when -mcpu has no value. */
static inline int gcn_cli_take_mcpu(const char *prog, int *argc, char **argv, const char **mcpu)
{
    int o = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            while (i < *argc)
                argv[o++] = argv[i++];
            break;
        }
        if (!strncmp(a, "-mcpu=", 6)) {
            *mcpu = a + 6;
            continue;
        }
        if (!strcmp(a, "-mcpu")) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "%s: -mcpu needs a value (gfx942 or gfx950)\n", prog);
                return -1;
            }
            *mcpu = argv[++i];
            continue;
        }
        argv[o++] = argv[i];
    }
    argv[o] = NULL;
    *argc = o;
    return 0;
}

#endif

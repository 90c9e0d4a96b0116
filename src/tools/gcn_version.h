/*
 * gcn_version.h -- what every tool prints for --version: the package version
 * (configure.ac) and, when built from a git checkout, `git describe --always
 * --dirty` of it (gcn_git_rev.h, written by the Makefile; empty in a tarball build).
 */
#ifndef GCN_VERSION_H
#define GCN_VERSION_H

#include <stdio.h>
#include "config.h"
#include "gcn_git_rev.h"

/* Print "TOOL VERSION" or "TOOL VERSION (git REV)" and a newline on f. */
static inline void gcn_version_print(FILE *f, const char *tool)
{
    if (GCN_GIT_REV[0])
        fprintf(f, "%s %s (git %s)\n", tool, PACKAGE_VERSION, GCN_GIT_REV);
    else
        fprintf(f, "%s %s\n", tool, PACKAGE_VERSION);
}

#endif

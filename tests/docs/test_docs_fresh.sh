#!/bin/sh
# test_docs_fresh.sh -- the tool outputs in README.md and docs/**/*.md (FIFO traces,
# findings, lint diagnostics, SVG plots) are what the tools print now: tools/gendocs.py
# --check reruns every marked command and fails on any difference (run `make docs` and
# commit the result).  Every command quoted in those blocks is run here, so each works as
# written.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
for p in gcndis gcnsim gcnlint kernels/vector_add/ref; do
    [ -x "$builddir/$p" ] || { echo "$p not built: skipped"; exit 77; }
done
exec "${PYTHON3:-python3}" "$srcdir/tools/gendocs.py" --srcdir "$srcdir" --builddir "$builddir" --check

#!/bin/sh
# test_real.sh -- the real-kernel suite (tests/real/real.py, docs/real-kernels.md): AITER's
# prebuilt kernels in gcnsim against numpy references.  Runs when GCN_AITER_HSA names AITER's
# extracted hsa/ directory; SKIPs (77) with the reason otherwise, or without a python3 that has
# numpy (Debian: apt-get install python3-numpy).  By hand:
#   GCN_AITER_HSA=/path/to/hsa tests/real/test_real.sh [-v] [CASE...]
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
export top_builddir=$builddir
if [ -z "${GCN_AITER_HSA:-}" ]; then
    echo "GCN_AITER_HSA is not set (it names AITER's extracted hsa/ directory; docs/real-kernels.md): skipped"
    exit 77
fi
py=
for p in ${PYTHON3:-} python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
    echo "no python3 with numpy (apt-get install python3-numpy): skipped"
    exit 77
fi
exec "$py" "$srcdir/tests/real/real.py" "$@"

#!/bin/sh
# test_schemas.sh -- docs/schemas/*.schema.json (manifest, gcnsim run.json and --json,
# gcnlint --format=json) against every bundled manifest and real outputs of the tools,
# with python3-jsonschema (tests/docs/check_schemas.py); SKIP without it.
srcdir=${top_srcdir:-.}
bld=${top_builddir:-.}
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -x "$bld/gcnsim" ] && [ -x "$bld/gcnlint" ] || { echo "SKIP: gcnsim/gcnlint not built"; exit 77; }
if [ -z "$CLANG22" ] || ! command -v "$CLANG22" >/dev/null 2>&1; then
    echo "SKIP: clang-22 (CLANG22) is needed to assemble the kernels"; exit 77
fi
export GCN_CLANG=$CLANG22
T=$(mktemp -d /tmp/gcn-schemas-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$py" "$srcdir/tests/docs/check_schemas.py" "$srcdir" "$bld" "$T"

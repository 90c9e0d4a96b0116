#!/bin/sh
# reproducer.sh -- pack one cross-check case into a tarball for a bug report
# (docs/gcnrun.md "Capturing a reproducer"): the manifest and the code object that ran, its
# source, both dump directories, the comparison report, a gcndis listing and an
# llvm-objdump-22 listing of the code, the commands that reproduce the case, and the versions
# of everything involved (gcnrun --list-devices, ROCm, kernel, LLVM, the gcnsim commit).
#
#   tests/device/reproducer.sh CASE_DIR OUT.tar.gz
#
# CASE_DIR is a case directory of the cross-check, e.g.
# tests/device/work/cases/gfx942/vector_add/vector_add/0 (it holds gcnsim/, device/ and
# compare.json).  Tools are taken from $top_builddir (default: the current directory).
set -eu
[ $# = 2 ] || { echo "usage: $0 CASE_DIR OUT.tar.gz" >&2; exit 1; }
case_dir=$1
out=$2
builddir=${top_builddir:-$(pwd)}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${PYTHON3:-python3}
[ -f "$case_dir/compare.json" ] || { echo "$0: $case_dir/compare.json: no such case" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gcnrun-repro-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
r=$tmp/gcnrun-reproducer
mkdir -p "$r"
cp -R "$case_dir/gcnsim" "$r/gcnsim" 2>/dev/null || true
cp -R "$case_dir/device" "$r/device" 2>/dev/null || true
cp "$case_dir/compare.json" "$r/"
[ -f "$case_dir/compare.txt" ] && cp "$case_dir/compare.txt" "$r/"
# the manifest, code object and source named by the case
eval "$("$py" - "$case_dir/compare.json" <<'PYEOF'
import json, os, shlex, sys
c = json.load(open(sys.argv[1]))
m = c.get("manifest", "")
mj = json.load(open(m)) if m and os.path.exists(m) else {}
code = os.path.join(os.path.dirname(m), mj.get("code", "")) if mj else ""
params = c.get("params", {})
sets = " ".join("--set %s=%d" % kv for kv in sorted(params.items()))
for k, v in (("manifest", m), ("code", code), ("kernel", c.get("kernel", "")),
             ("target", c.get("target", "")), ("sets", sets),
             ("source_manifest", c.get("source_manifest", ""))):
    print("%s=%s" % (k, shlex.quote(v)))
PYEOF
)"
[ -n "$manifest" ] && [ -f "$manifest" ] && cp "$manifest" "$r/manifest.json"
[ -n "$code" ] && [ -f "$code" ] && cp "$code" "$r/"
if [ -n "$source_manifest" ] && [ -f "$srcdir/$source_manifest" ]; then
    sdir=$(dirname "$srcdir/$source_manifest")
    mkdir -p "$r/source"
    cp "$srcdir/$source_manifest" "$r/source/"
    for f in "$sdir"/*.s "$sdir"/*.hip "$sdir"/ref.c; do
        [ -f "$f" ] && cp "$f" "$r/source/"
    done
fi
# listings
codename=$(basename "${code:-none}")
if [ -f "$r/$codename" ]; then
    "$builddir/gcndis" "$r/$codename" >"$r/gcndis.txt" 2>&1 || true
    "${LLVM_OBJDUMP:-llvm-objdump-22}" -d "$r/$codename" >"$r/llvm-objdump.txt" 2>&1 || true
    "${LLVM_READELF:-llvm-readelf-22}" --notes "$r/$codename" >"$r/metadata.txt" 2>&1 || true
fi
# how to run it again: gcnsim dumps every buffer and its inputs, as gcnrun does
outs=$([ -f "$r/manifest.json" ] && "$py" -c 'import json,sys; print(" ".join("--output " + b for b in sorted(json.load(open(sys.argv[1]))["buffers"])))' "$r/manifest.json" 2>/dev/null)
cat >"$r/README.txt" <<EOF
gcnrun cross-check reproducer: kernel $kernel on $target, params: ${sets:-(defaults)}
Produced by tests/device/reproducer.sh (docs/gcnrun.md).

  compare.txt / compare.json   the comparison (first differing element, both values)
  gcnsim/  device/             the dumps (NAME.in.bin, NAME.bin, run.json) of gcnsim and gcnrun
  manifest.json, $codename     what ran; source/ the kernel source and its C reference
  gcndis.txt, llvm-objdump.txt, metadata.txt   listings of the code object
  versions.txt                 devices, ROCm, kernel, LLVM, gcnsim

Run again, in this directory (BUILD = a gcnsim build directory):
  BUILD/gcnsim --manifest manifest.json --mcpu $target $sets --dump-dir sim --dump-inputs $outs
  BUILD/gcnrun --manifest manifest.json --mcpu $target $sets --dump-dir dev
  BUILD/tests/device/devcmp sim dev
EOF
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -a)"
    echo "gcnsim commit: $(git -C "$srcdir" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "--- gcnrun --list-devices"
    if [ -x "$builddir/gcnrun" ]; then "$builddir/gcnrun" --list-devices 2>&1 || true
    else echo "(gcnrun not built)"; fi
    echo "--- ROCm"
    cat /opt/rocm/.info/version 2>/dev/null || echo "(no /opt/rocm/.info/version)"
    dpkg-query -W 'libamdhip64*' 'rocm-core*' 'hip-runtime-amd*' 2>/dev/null || true
    echo "--- amdgpu kernel driver"
    cat /sys/module/amdgpu/version 2>/dev/null || modinfo -F version amdgpu 2>/dev/null || echo "(unknown)"
    echo "--- LLVM"
    "${CLANG22:-clang-22}" --version 2>&1 | head -n 2 || true
    echo "--- rocminfo (agents)"
    (rocminfo 2>/dev/null || /opt/rocm/bin/rocminfo 2>/dev/null) | grep -E 'Marketing Name|^  Name:' || echo "(rocminfo not available)"
} >"$r/versions.txt" 2>&1
tar -C "$tmp" -czf "$out" gcnrun-reproducer
echo "reproducer: $out"

#!/usr/bin/env bash
# quickstart.sh -- install what is missing (Debian 12), build gcnsim, and run
# the main job on a bundled kernel.   `./quickstart.sh check` runs the whole
# test suite instead (this is what .ci/run calls).
set -euo pipefail
cd "$(dirname "$0")"

PKGS="clang-22 llvm-22 llvm-22-dev lld-22 libelf-dev libdw-dev libmsgpack-dev libjansson-dev
      libcunit1-dev autoconf automake libtool pkg-config make gcc python3
      hipcc libamdhip64-dev"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "quickstart: installing:$missing"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# (re)configure after installing packages too: configure looks for the optional HIP runtime
if [ ! -f Makefile ] || [ -n "$missing" ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
    autoreconf -fi >/dev/null
    ./configure -q
fi
make -j"$(nproc)" >/dev/null

case "${1:-run}" in
check)
    make -j"$(nproc)" check
    ;;
run)
    k=kernels/vector_add/vector_add.s
    if [ -f "$k" ]; then
        clang-22 -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -g "$k" -o /tmp/quickstart_vadd.hsaco
        ./gcndis /tmp/quickstart_vadd.hsaco
    else
        echo "quickstart: built; no bundled kernel yet"
    fi
    ;;
*)
    echo "usage: $0 [run|check]" >&2
    exit 1
    ;;
esac

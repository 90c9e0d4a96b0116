#!/usr/bin/env python3
"""readme_tour.py -- run the README's five-minute tour as a user would after the quick start.

The commands are taken from the console blocks of README.md's "A five-minute tour" section
(the lines starting with "$ "), exactly as printed there, and run one after the other in the
top of a tree that looks like the build tree of a fresh clone after ./quickstart.sh: the
entries of the build directory, then those of the source directory, as symbolic links, with
real directories only where the tour writes (out/, docs/img/), so a run never writes into
the source tree.  Each command must print what the README shows and exit with the status
shown ("[exit status N]", else 0).  Every program a command runs by path (./gcnsim,
kernels/vector_add/ref) must be one that `make` builds (`make list-programs`), not only
`make check`: the tour runs after the quick start, which runs `make`.

Usage: readme_tour.py --srcdir DIR --builddir DIR [--make MAKE]
Exit: 0 all as shown, 1 a difference, 2 a usage or setup error.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
from gendocs import PIPE_STATUS  # noqa: E402  (pipefail, SIGPIPE of early writers excepted)


def tour_commands(readme):
    """[(command, expected output lines, expected status)] of the tour's console blocks."""
    text = open(readme, encoding='utf-8').read()
    m = re.search(r'^## A five-minute tour\n(.*?)(?=^## )', text, re.M | re.S)
    if not m:
        raise SystemExit('readme_tour: no "## A five-minute tour" section in %s' % readme)
    cmds = []
    for block in re.findall(r'^```console\n(.*?)^```', m.group(1), re.M | re.S):
        for line in block.split('\n'):
            if line.startswith('$ '):
                cmds.append([line[2:], [], 0])
            elif cmds:
                st = re.fullmatch(r'\[exit status (\d+)\]', line)
                if st:
                    cmds[-1][2] = int(st.group(1))
                elif line or cmds[-1][1]:
                    cmds[-1][1].append(line)
    for c in cmds:
        while c[1] and not c[1][-1]:
            c[1].pop()
    return cmds


def programs_run(cmd):
    """The programs a command runs by a path (a word with a slash first in a stage)."""
    lex = shlex.shlex(cmd, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    out, first = [], True
    for tok in lex:
        if tok in ('|', '||', '&&', ';', '&'):
            first = True
            continue
        if first and '/' in tok:
            out.append(os.path.normpath(tok))
        first = False
    return out


def merged_tree(srcdir, builddir, top):
    """top/: the union of builddir and srcdir (builddir first), as links; a directory in
    both is a real directory holding the union of its entries.  out/ and docs/img/ are
    real directories whose files the tour writes itself (never through a link)."""
    def merge(rel):
        names = {}
        for d in (builddir, srcdir):
            full = os.path.join(d, rel)
            if os.path.isdir(full):
                for e in os.listdir(full):
                    names.setdefault(e, []).append(os.path.join(full, e))
        for e, paths in sorted(names.items()):
            r = os.path.join(rel, e) if rel else e
            dst = os.path.join(top, r)
            if r in ('out', os.path.join('docs', 'img')) or r == 'docs':
                os.mkdir(dst)
                if r != 'out':
                    merge(r)
                continue
            if r.startswith(os.path.join('docs', 'img') + os.sep) or r == 'out':
                continue
            if len(paths) > 1 and all(os.path.isdir(p) for p in paths) and len(set(map(os.path.realpath, paths))) > 1:
                os.mkdir(dst)
                merge(r)
            else:
                os.symlink(paths[0], dst)
    merge('')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--srcdir', required=True)
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--make', default='make')
    a = ap.parse_args()
    srcdir, builddir = os.path.abspath(a.srcdir), os.path.abspath(a.builddir)
    cmds = tour_commands(os.path.join(srcdir, 'README.md'))
    if len(cmds) < 5:
        print('readme_tour: only %d commands found in the tour (parser broken?)' % len(cmds))
        return 2
    p = subprocess.run(shlex.split(a.make) + ['-s', '-C', builddir, 'list-programs'],
                       capture_output=True, text=True)
    if p.returncode:
        print('readme_tour: make list-programs failed:\n' + p.stdout + p.stderr)
        return 2
    built = {os.path.normpath(x) for x in p.stdout.split()}
    fail = 0
    for cmd, _, _ in cmds:
        for prog in programs_run(cmd):
            if prog not in built:
                print('FAIL: the tour runs %s, which `make` does not build (only `make check` '
                      'or nothing): %s' % (prog, cmd))
                fail = 1
    top = tempfile.mkdtemp(prefix='gcn-tour-')
    try:
        merged_tree(srcdir, builddir, top)
        env = dict(os.environ, LC_ALL='C')
        for cmd, want, want_st in cmds:
            r = subprocess.run(['bash', '-c', cmd + PIPE_STATUS], cwd=top, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=300)
            got = [ln.rstrip() for ln in r.stdout.rstrip('\n').split('\n')] if r.stdout.strip() else []
            if got != want or r.returncode != want_st:
                fail = 1
                print('FAIL: $ %s\n  exit %d (README: %d)' % (cmd, r.returncode, want_st))
                for ln in difflib_lines(want, got):
                    print('  ' + ln)
            else:
                print('ok: $ %s  (%d lines, exit %d, as shown)' % (cmd, len(got), r.returncode))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return fail


def difflib_lines(want, got):
    import difflib
    return list(difflib.unified_diff(want, got, 'README', 'run', lineterm='', n=1))[:40]


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""gendocs.py -- regenerate the tool outputs shown in gcnsim's Markdown documents.

Every FIFO trace, finding, lint diagnostic and plot that the tutorial and the README show is
produced by running the project's tools, never typed by hand.  A Markdown source marks each
such output with a block:

    <!-- run: ./gcnlint --explain docs/tutorial/kernels/naive_vmcnt1.s -->
    ...generated text: a fenced console block holding "$ COMMAND" and its output...
    <!-- end -->

or, for several commands shown together, one per line:

    <!-- run:
    ./gcnsim -q --manifest docs/tutorial/kernels/lds_dma.json --dump-dir out/lds_dma
    kernels/vector_add/ref out/lds_dma
    -->
    ...
    <!-- end -->

Options in parentheses after "run", comma-separated:

    run(exit=1 3): these exit statuses are expected too (0 and 4, "clean" and "findings" in
                   every tool of the project, always are; any other status is an error, so a
                   command that stops working cannot slip into the documents);
    run(image=docs/img/fifo.svg): the commands write this file (a path from the top of the
                   tree, committed beside the Markdown); after the console block an image link
                   to it is inserted (relative to the Markdown file);
    run(quiet): show the commands but not their output (for commands that only write files);
    run(nostatus): do not show "[exit status N]" (for diff, whose status 1 only means that
                   the files differ; the status must still be allowed with exit=);
    run(requires=NAME): run the commands only if the probe NAME succeeds; otherwise the
                   block shows the commands and says which probe failed.  A probe is declared once per file:
                   <!-- probe NAME: SHELL COMMAND -->  (e.g. whether gcnsim has an option yet;
                   probes run without pipefail, so `prog | grep -q X` works).

Commands run as with bash -o pipefail (a SIGPIPE of an early writer excepted), stdout and stderr merged (as a terminal shows them),
LC_ALL=C, stdin from /dev/null, from the top of a tree that looks like the build tree: a
temporary directory of symbolic links to the entries of the build directory and the source
directory (build first), with real directories only where a command writes an image.  So
commands never write into the source tree (except images in "make docs" mode, copied back at
the end), the same text comes out in a VPATH build, and absolute paths that tools print
(gcnlint names files by the DWARF line table: /tmp/.../docs/...) are shown relative to the top
of the tree, which is the only rewriting of output there is.  Trailing blanks are stripped.
A nonzero exit status is shown as "[exit status N]" after the command's output.

In a document with run blocks, commands quoted outside the blocks (in `inline code` or
indented code lines) that start with ./gcndis, ./gcnsim or ./gcnlint must be run by some
block of the documents too (as a
whole command or as the first stage of a pipeline): a quoted command that no block runs is
an error, so every command the documents show works as written.

Usage:
    gendocs.py [--srcdir DIR] [--builddir DIR] [--check] [--list] [FILE.md ...]

Without FILEs: README.md and every docs/**/*.md.  Without --check the files (and images) in
srcdir are rewritten; with --check nothing is written and the exit status is 1 when a document
is not what a fresh run gives (a diff is printed), 2 on errors (a command failed, bad marker).
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

RUN_RE = re.compile(r'^<!-- run(?:\((?P<opts>[^)]*)\))?:(?P<rest>.*)$')
PROBE_RE = re.compile(r'^<!-- probe (?P<name>[A-Za-z0-9_.-]+): (?P<cmd>.*) -->\s*$')
END = '<!-- end -->'
DEFAULT_OK = {0, 4}
# Appended to a command: exit with the status of the first command of its last pipeline
# that failed (pipefail), except that a writer killed by SIGPIPE (141) before the last
# command is normal when a reader such as `head -n 3` stops early (it depends on timing).
PIPE_STATUS = ('\nps=("${PIPESTATUS[@]}"); n=${#ps[@]}\n'
               'for ((i = 0; i < n; i++)); do\n'
               '  if [ "${ps[i]}" != 0 ] && { [ "${ps[i]}" != 141 ] || [ $i = $((n - 1)) ]; }; then\n'
               '    exit "${ps[i]}"; fi\n'
               'done\n')
TIMEOUT = 300


class DocError(Exception):
    pass


class Block:
    """One marked block of a Markdown file."""

    def __init__(self, path, lineno, opts, cmds, header):
        self.path, self.lineno, self.cmds, self.header = path, lineno, cmds, header
        self.ok = set(DEFAULT_OK)
        self.image = None
        self.quiet = False
        self.nostatus = False
        self.requires = None
        for o in [x.strip() for x in opts.split(',') if x.strip()]:
            k, _, v = o.partition('=')
            if k == 'exit':
                try:
                    self.ok |= {int(x) for x in v.split()}
                except ValueError:
                    raise DocError('%s:%d: bad exit=%s' % (path, lineno, v))
            elif k == 'image' and v:
                self.image = v
            elif k == 'quiet' and not v:
                self.quiet = True
            elif k == 'nostatus' and not v:
                self.nostatus = True
            elif k == 'requires' and v:
                self.requires = v
            else:
                raise DocError('%s:%d: unknown option %r' % (path, lineno, o))
        if not cmds:
            raise DocError('%s:%d: a run block without a command' % (path, lineno))


def parse(path, text):
    """Split a document into literal pieces and Blocks (in order); also the probes."""
    lines = text.split('\n')
    out, probes, i = [], {}, 0
    while i < len(lines):
        ln = lines[i]
        pm = PROBE_RE.match(ln)
        if pm:
            probes[pm.group('name')] = pm.group('cmd')
        m = RUN_RE.match(ln)
        if not m:
            out.append(ln)
            i += 1
            continue
        start = i
        rest = m.group('rest').strip()
        header = [ln]
        if rest.endswith('-->'):
            cmds = [rest[:-3].strip()]
            i += 1
        else:
            if rest:
                raise DocError('%s:%d: a multi-line run marker has its commands on the '
                               'following lines' % (path, i + 1))
            cmds = []
            i += 1
            while i < len(lines) and lines[i].strip() != '-->':
                header.append(lines[i])
                if lines[i].strip():
                    cmds.append(lines[i].strip())
                i += 1
            if i == len(lines):
                raise DocError('%s:%d: run marker without -->' % (path, start + 1))
            header.append(lines[i])
            i += 1
        # the old generated text runs to the end marker
        j = i
        while j < len(lines) and lines[j].strip() != END:
            if RUN_RE.match(lines[j]):
                break
            j += 1
        if j == len(lines) or lines[j].strip() != END:
            raise DocError('%s:%d: run block without %s' % (path, start + 1, END))
        blk = Block(path, start + 1, m.group('opts') or '', cmds, header)
        blk.endline = j + 1
        out.append(blk)
        i = j + 1
    return out, probes


QUOTED_RE = re.compile(r'`(\./gcn(?:dis|sim|lint)\b[^`]*)`|^ {4,}(\./gcn(?:dis|sim|lint)\b.*)$')


def quoted_commands(pieces):
    """Commands quoted in the literal text of a document: (line number, command)."""
    out, lineno, fenced = [], 0, False
    for p in pieces:
        if isinstance(p, Block):
            lineno = p.endline
            continue
        lineno += 1
        if p.lstrip().startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in QUOTED_RE.finditer(p):
            out.append((lineno, (m.group(1) or m.group(2)).strip()))
    return out


def fence_for(text):
    runs = [len(r) for r in re.findall(r'`+', text)]
    return '`' * max(3, max(runs, default=0) + 1)


class Runner:
    def __init__(self, srcdir, builddir, images):
        self.srcdir = os.path.realpath(srcdir)
        self.builddir = os.path.realpath(builddir)
        self.tmp = tempfile.mkdtemp(prefix='gendocs.')
        self.top = os.path.join(self.tmp, 'top')
        os.mkdir(self.top)
        real = set()
        for img in images:
            parts = os.path.normpath(img).split(os.sep)[:-1]
            for k in range(1, len(parts) + 1):
                real.add(os.sep.join(parts[:k]))
        # the images are the commands' outputs: no link to the committed file stands in their
        # place (the tools refuse to replace a symbolic link, docs/reliability.md)
        self.outputs = {os.path.normpath(i) for i in images}
        self._shadow('', real)
        self.env = dict(os.environ)
        self.env.update({'LC_ALL': 'C', 'LANG': 'C', 'TZ': 'UTC', 'TERM': 'dumb',
                         'COLUMNS': '100'})
        self.probe_cache = {}
        self.skipped_images = set()     # images of blocks whose probe failed: not compared

    def _shadow(self, rel, real):
        """Link the union of srcdir/rel and builddir/rel into top/rel (build entries first)."""
        dst = os.path.join(self.top, rel)
        names = {}
        for base in dict.fromkeys((self.builddir, self.srcdir)):
            d = os.path.join(base, rel)
            if os.path.isdir(d):
                for n in os.listdir(d):
                    names.setdefault(n, []).append(os.path.join(d, n))
        for n, paths in sorted(names.items()):
            r = os.path.join(rel, n) if rel else n
            if r in self.outputs:
                continue
            dirs = [p for p in paths if os.path.isdir(p) and not os.path.islink(p)]
            if r in real or len(dirs) > 1:
                os.mkdir(os.path.join(dst, n))
                self._shadow(r, real)
            else:
                os.symlink(paths[0], os.path.join(dst, n))

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def normalize(self, out):
        for p in sorted({self.top, os.path.realpath(self.top), self.srcdir, self.builddir},
                        key=len, reverse=True):
            out = out.replace(p + '/', '')
        return '\n'.join(l.rstrip() for l in out.split('\n')).rstrip('\n')

    def sh(self, cmd, pipefail=True):
        try:
            p = subprocess.run(['bash', '-c', cmd + PIPE_STATUS if pipefail else cmd],
                               cwd=self.top, env=self.env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return 124, '(timed out after %d s)' % TIMEOUT
        return p.returncode, self.normalize(p.stdout.decode('utf-8', 'replace'))

    def probe(self, name, probes, where):
        if name not in probes:
            raise DocError('%s: requires=%s, but the file declares no such probe' % (where, name))
        if name not in self.probe_cache:
            # without pipefail: `prog | grep -q X` must not fail because prog got SIGPIPE
            self.probe_cache[name] = self.sh(probes[name], pipefail=False)[0] == 0
        return self.probe_cache[name]


def render(runner, blk, probes, md_dir):
    where = '%s:%d' % (blk.path, blk.lineno)
    body = []
    if blk.requires and not runner.probe(blk.requires, probes, where):
        runner.skipped_images.add(blk.image)
        text = '\n'.join('$ ' + c for c in blk.cmds)
        fence = fence_for(text)
        body += [fence + 'console', text, fence, '',
                 '*(Output not generated in this build: the probe `%s` (`%s`) fails. '
                 '`make docs` fills this block once it succeeds.)*' % (
                     blk.requires, probes[blk.requires])]
        return blk.header + body + [END]
    shown = []
    for cmd in blk.cmds:
        rc, out = runner.sh(cmd)
        if rc not in blk.ok:
            raise DocError('%s: `%s` exited with status %d (allowed: %s):\n%s' % (
                where, cmd, rc, ' '.join(map(str, sorted(blk.ok))), out[-3000:]))
        shown.append('$ ' + cmd)
        if out and not blk.quiet:
            shown.append(out)
        if rc and not blk.quiet and not blk.nostatus:
            shown.append('[exit status %d]' % rc)
    text = '\n'.join(shown)
    fence = fence_for(text)
    body += [fence + 'console', text, fence]
    if blk.image:
        if not os.path.isfile(os.path.join(runner.top, blk.image)):
            raise DocError('%s: the commands did not write %s' % (where, blk.image))
        rel = os.path.relpath(os.path.join(runner.srcdir, blk.image),
                              os.path.join(runner.srcdir, md_dir))
        body += ['', '![%s](%s)' % (os.path.basename(blk.image), rel)]
    return blk.header + body + [END]


def find_docs(srcdir):
    files = []
    if os.path.isfile(os.path.join(srcdir, 'README.md')):
        files.append('README.md')
    for root, _dirs, names in os.walk(os.path.join(srcdir, 'docs')):
        for n in names:
            if n.endswith('.md'):
                files.append(os.path.relpath(os.path.join(root, n), srcdir))
    return sorted(files, key=lambda f: (f != 'README.md', f))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--srcdir', default='.')
    ap.add_argument('--builddir', default='.')
    ap.add_argument('--check', action='store_true',
                    help='write nothing; exit 1 if a document differs from a fresh run')
    ap.add_argument('--list', action='store_true', help='list the commands and exit')
    ap.add_argument('files', nargs='*', help='documents, relative to srcdir')
    a = ap.parse_args()
    srcdir = os.path.realpath(a.srcdir)
    files = a.files or find_docs(srcdir)
    docs = []
    try:
        for f in files:
            f = os.path.relpath(os.path.realpath(os.path.join(srcdir, f)), srcdir) \
                if os.path.isabs(f) or os.path.exists(os.path.join(srcdir, f)) else f
            with open(os.path.join(srcdir, f), encoding='utf-8') as fh:
                text = fh.read()
            pieces, probes = parse(f, text)
            if any(isinstance(p, Block) for p in pieces):
                docs.append((f, text, pieces, probes))
    except (OSError, DocError) as e:
        print('gendocs: %s' % e, file=sys.stderr)
        return 2
    run_cmds = set()
    for _f, _t, pieces, _p in docs:
        for p in pieces:
            if isinstance(p, Block):
                for c in p.cmds:
                    run_cmds.add(c)
                    run_cmds.add(c.split(' | ')[0].strip())
    unrun = []
    for f, _t, pieces, _p in docs:
        unrun += ['%s:%d: `%s`' % (f, n, c) for n, c in quoted_commands(pieces) if c not in run_cmds]
    if unrun:
        print('gendocs: quoted commands that no run block runs:\n  ' + '\n  '.join(unrun),
              file=sys.stderr)
        return 2
    if a.list:
        for f, _t, pieces, _p in docs:
            for p in pieces:
                if isinstance(p, Block):
                    for c in p.cmds:
                        print('%s:%d: %s' % (f, p.lineno, c))
        return 0
    images = [p.image for _f, _t, pieces, _p in docs for p in pieces
              if isinstance(p, Block) and p.image]
    runner = Runner(srcdir, a.builddir, images)
    stale, status = [], 0
    try:
        results = []
        for f, text, pieces, probes in docs:
            out = []
            for p in pieces:
                if isinstance(p, Block):
                    out += render(runner, p, probes, os.path.dirname(f))
                else:
                    out.append(p)
            results.append((f, text, '\n'.join(out)))
        for f, old, new in results:
            if old != new:
                stale.append(f)
                if a.check:
                    sys.stdout.writelines(difflib.unified_diff(
                        old.splitlines(True), new.splitlines(True),
                        'committed/' + f, 'fresh/' + f, n=2))
                else:
                    with open(os.path.join(srcdir, f) + '.tmp', 'w', encoding='utf-8') as fh:
                        fh.write(new)
                    os.replace(os.path.join(srcdir, f) + '.tmp', os.path.join(srcdir, f))
        for img in images:
            if img in runner.skipped_images:
                continue
            fresh = os.path.join(runner.top, img)
            with open(fresh, 'rb') as fh:
                new = fh.read()
            dst = os.path.join(srcdir, img)
            old = open(dst, 'rb').read() if os.path.isfile(dst) else None
            if old != new:
                stale.append(img)
                if a.check:
                    print('gendocs: %s differs from a fresh run' % img)
                else:
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    shutil.copyfile(fresh, dst + '.tmp')
                    os.replace(dst + '.tmp', dst)
    except DocError as e:
        print('gendocs: %s' % e, file=sys.stderr)
        status = 2
    finally:
        runner.close()
    if status:
        return status
    nblocks = sum(isinstance(p, Block) for _f, _t, pieces, _p in docs for p in pieces)
    if a.check:
        if stale:
            print('gendocs: stale: %s\n  (run `make docs` and commit the result)' % ' '.join(stale))
            return 1
        print('gendocs: %d documents, %d blocks, %d images: up to date' % (
            len(docs), nblocks, len(images)))
    else:
        print('gendocs: %d documents, %d blocks, %d images; rewritten: %s' % (
            len(docs), nblocks, len(images), ' '.join(stale) or 'none'))
    return 0


if __name__ == '__main__':
    sys.exit(main())

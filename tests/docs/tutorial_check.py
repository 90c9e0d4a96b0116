#!/usr/bin/env python3
"""tutorial_check.py -- checks of the tutorial's kernels and exercises (tests/docs).

  tutorial_check.py kernels   --srcdir S --builddir B
      Every .s under docs/tutorial assembles with clang-22 for gfx942 and gfx950.  Every run
      manifest under docs/tutorial runs in gcnsim on each of its targets and test sizes:
      a correct kernel (one whose "description" does not say "broken on purpose" and that is
      not an exercise) must run clean (exit 0) and its "reference" must accept the dump;
      a broken one or an exercise must not fault (exit 0 or 4).
  tutorial_check.py exercises --srcdir S --builddir B
      For each docs/tutorial/exercises/exN_*.s with a header line "// check: CHECK":
      gcnlint (with --suggest when CHECK is waitcnt-stronger) must report [CHECK] for the
      exercise (exit 4 unless CHECK is a note) and must not for solutions/exN_*.s (exit 0);
      gcnsim must report a finding for the exercise when CHECK is an error it can see
      (exit 4), and run the solution clean.

A kernel that gcnsim cannot run yet ("... is not simulated", exit 3) and a hazard rule that
gcnlint does not have yet are reported as "known gap" and skipped, so the checks tighten by
themselves when those land.  Exit 0 if all pass, 1 otherwise.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGETS = ('gfx942', 'gfx950')


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    return p.returncode, p.stdout.decode('utf-8', 'replace')


class Ctx:
    def __init__(self, srcdir, builddir):
        self.src = os.path.realpath(srcdir)
        self.build = os.path.realpath(builddir)
        self.gcnsim = os.path.join(self.build, 'gcnsim')
        self.gcnlint = os.path.join(self.build, 'gcnlint')
        self.clang = os.environ.get('CLANG22') or 'clang-22'
        self.tmp = tempfile.mkdtemp(prefix='tutcheck.')
        self.fails = 0
        self.n = 0

    def fail(self, msg):
        print('FAIL: ' + msg)
        self.fails += 1

    def gap(self, msg):
        print('known gap: ' + msg)

    def reference(self, mdir, ref):
        """The reference program of a manifest: in the build tree if it was built there."""
        p = os.path.normpath(os.path.join(mdir, ref))
        rel = os.path.relpath(p, self.src)
        b = os.path.join(self.build, rel)
        return b if os.path.exists(b) else p

    def sim(self, manifest, target, sets=(), extra=()):
        d = os.path.join(self.tmp, 'dump%d' % self.n)
        self.n += 1
        cmd = [self.gcnsim, '-q', '--no-progress', '--manifest', manifest, '--mcpu', target,
               '--dump-dir', d, '--dump-inputs'] + ['--set=%s=%s' % kv for kv in sets] + list(extra)
        rc, out = run(cmd)
        return rc, out, d


def tutorial_manifests(src):
    pats = ('docs/tutorial/kernels/*.json', 'docs/tutorial/exercises/*.json',
            'docs/tutorial/exercises/solutions/*.json')
    return sorted(m for p in pats for m in glob.glob(os.path.join(src, p)))


def check_kernels(c):
    for s in sorted(glob.glob(os.path.join(c.src, 'docs/tutorial/**/*.s'), recursive=True)):
        for t in TARGETS:
            rc, out = run([c.clang, '-x', 'assembler', '-target', 'amdgcn-amd-amdhsa',
                           '-mcpu=' + t, '-c', s, '-o', os.path.join(c.tmp, 'a.o')])
            if rc:
                c.fail('%s does not assemble for %s:\n%s' % (s, t, out))
    for m in tutorial_manifests(c.src):
        rel = os.path.relpath(m, c.src)
        with open(m) as f:
            man = json.load(f)
        broken = ('broken on purpose' in man.get('description', '') or
                  ('/exercises/' in rel and '/solutions/' not in rel))
        sizes = man.get('test_sizes') or [{}]
        ok = True
        for t in man.get('targets', TARGETS):
            for size in sizes:
                rc, out, d = c.sim(m, t, sorted(size.items()))
                what = '%s on %s %s' % (rel, t, size or '')
                if rc == 3 and 'is not simulated' in out:
                    c.gap('%s: %s' % (what, out.strip().split('\n')[0]))
                    ok = False
                    break
                if broken:
                    if rc not in (0, 4):
                        c.fail('%s: exit %d (a fault):\n%s' % (what, rc, out))
                        ok = False
                    continue
                if rc != 0:
                    c.fail('%s: exit %d, expected a clean run:\n%s' % (what, rc, out))
                    ok = False
                    continue
                if 'reference' in man:
                    ref = c.reference(os.path.dirname(m), man['reference'])
                    rrc, rout = run([ref, d])
                    if rrc != 0:
                        c.fail('%s: the reference %s does not accept the output:\n%s' % (
                            what, man['reference'], rout))
                        ok = False
            else:
                continue
            break
        if ok:
            print('ok: %s (%s)' % (rel, 'runs without a fault' if broken else 'clean, reference equal'))


def header_check(path):
    with open(path) as f:
        for line in f:
            m = re.match(r'^// check: ([A-Za-z0-9_-]+)\s*$', line)
            if m:
                return m.group(1)
            if not line.startswith('//'):
                break
    return None


def check_exercises(c):
    rc, checks = run([c.gcnlint, '--list-checks'])
    known = {l.split()[0] for l in checks.splitlines() if l.strip()}
    rc, shelp = run([c.gcnsim, '--help'])
    sim_hazards = '--hazard-effect' in shelp
    exs = sorted(glob.glob(os.path.join(c.src, 'docs/tutorial/exercises/ex*.s')))
    if not exs:
        c.fail('no exercises found')
    for ex in exs:
        rel = os.path.relpath(ex, c.src)
        sol = os.path.join(os.path.dirname(ex), 'solutions', os.path.basename(ex))
        chk = header_check(ex)
        if not chk:
            c.fail('%s: no "// check: CHECK" header line' % rel)
            continue
        if not os.path.exists(sol):
            c.fail('%s: no solution %s' % (rel, os.path.relpath(sol, c.src)))
            continue
        hazard = chk.startswith('hazard')
        note = chk.startswith('waitcnt-')
        opts = ['--suggest'] if note else []
        if hazard and chk not in known:
            c.gap('%s: gcnlint has no rule %s yet: lint check skipped' % (rel, chk))
        else:
            erc, eout = run([c.gcnlint] + opts + [ex])
            src, sout = run([c.gcnlint] + opts + [sol])
            tag = '[%s]' % chk
            if tag not in eout or (not note and erc != 4):
                c.fail('%s: gcnlint does not report %s (exit %d):\n%s' % (rel, tag, erc, eout))
            elif tag in sout or src != 0:
                c.fail('%s: the solution is not clean for gcnlint (exit %d):\n%s' % (rel, src, sout))
            else:
                print('ok: %s: gcnlint reports %s, not for the solution' % (rel, tag))
        # the simulator's view
        m, msol = ex[:-2] + '.json', sol[:-2] + '.json'
        if note:
            continue
        extra = ['--hazard-effect=stale'] if hazard else []
        if hazard and not sim_hazards:
            c.gap('%s: gcnsim has no hazard checks yet: simulator check skipped' % rel)
            continue
        t = json.load(open(m)).get('targets', TARGETS)[0]
        erc, eout, _d = c.sim(m, t, extra=extra)
        src, sout, _d = c.sim(msol, t, extra=extra)
        if (erc == 3 and 'is not simulated' in eout) or (src == 3 and 'is not simulated' in sout):
            c.gap('%s: %s' % (rel, (eout if erc == 3 else sout).strip().split('\n')[0]))
        elif erc != 4:
            c.fail('%s: gcnsim exit %d, expected findings (4):\n%s' % (rel, erc, eout))
        elif src != 0:
            c.fail('%s: gcnsim on the solution: exit %d, expected 0:\n%s' % (rel, src, sout))
        else:
            print('ok: %s: gcnsim reports findings, not for the solution' % rel)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('what', choices=('kernels', 'exercises'))
    ap.add_argument('--srcdir', default='.')
    ap.add_argument('--builddir', default='.')
    a = ap.parse_args()
    c = Ctx(a.srcdir, a.builddir)
    try:
        (check_kernels if a.what == 'kernels' else check_exercises)(c)
    finally:
        shutil.rmtree(c.tmp, ignore_errors=True)
    return 1 if c.fails else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""layers.py -- the layering of gcnsim's libraries (Makefile.am, docs/library.md "Layers"),
read from the symbols of the built archives with nm.

usage: layers.py [--nm NM] LIB...      the libraries in layer order, lowest first
                                       (libgcndecode.a libgcnanalyze.a libgcnsim.a libgcnrun.a)
       layers.py --selftest CC AR NM   checks that each rule fails where it must

Fails (exit 1), printing each case with the objects and symbols, when
  * a library needs a symbol that only a later library defines (a wrong-way reference:
    decode may use nothing of analyze, sim or run; analyze nothing of sim or run; sim
    nothing of run);
  * a global symbol is defined by two objects (in one library or in two);
  * the objects of one library form a cycle of references (A uses B and B uses A, directly
    or through others): each file of a layer must be readable on top of the ones it uses.
Exit 0 with a summary line otherwise.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

DEFINED = set("TDBRCVGSiu")     # global definitions (nm type letters; lowercase = local)
POSIX = re.compile(r"^(.*)\[(.*)\]: (\S+) (\S)")


def read(nm, lib):
    """(defs {sym: obj}, uses {obj: set(sym)}, dups [(sym, obj, obj)]) of one archive."""
    p = subprocess.run([nm, "-A", "-P", lib], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s -A -P %s: exit %d: %s" % (nm, lib, p.returncode, p.stderr.strip()))
    defs, uses, dups = {}, collections.defaultdict(set), []
    for ln in p.stdout.splitlines():
        m = POSIX.match(ln)
        if not m:
            continue
        obj, sym, t = m.group(2), m.group(3), m.group(4)
        uses[obj]
        if t == "U":
            uses[obj].add(sym)
        elif t in DEFINED:
            if sym in defs and defs[sym] != obj:
                dups.append((sym, defs[sym], obj))
            defs[sym] = obj
    return defs, uses, dups


def sccs(graph):
    """Strongly connected components of {node: {node: [syms]}} with more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(nm, libs):
    bad = []
    layers = [(os.path.basename(l), read(nm, l)) for l in libs]
    owner = {}                  # sym -> (layer index, lib, obj)
    for k, (name, (defs, uses, dups)) in enumerate(layers):
        for sym, a, b in dups:
            bad.append("%s: %s is defined in %s and in %s" % (name, sym, a, b))
        for sym, obj in defs.items():
            if sym in owner:
                bad.append("%s is defined in %s (%s) and in %s (%s)" %
                           (sym, owner[sym][1], owner[sym][2], name, obj))
            else:
                owner[sym] = (k, name, obj)
    nsyms = 0
    for k, (name, (defs, uses, dups)) in enumerate(layers):
        wrong = collections.defaultdict(list)
        graph = {o: collections.defaultdict(list) for o in uses}
        for obj, syms in uses.items():
            for sym in syms:
                nsyms += 1
                if sym in defs:
                    if defs[sym] != obj:
                        graph[obj][defs[sym]].append(sym)
                elif sym in owner and owner[sym][0] > k:
                    wrong[(obj, owner[sym][1], owner[sym][2])].append(sym)
        for (obj, lib, dobj), syms in sorted(wrong.items()):
            bad.append("%s (%s) uses %s of the later layer %s (%s): a wrong-way reference" %
                       (name, obj, ", ".join(sorted(syms)), lib, dobj))
        for comp in sccs(graph):
            edges = []
            for a in comp:
                for b in sorted(graph[a]):
                    if b in comp:
                        edges.append("    %s -> %s: %s" % (a, b, " ".join(sorted(graph[a][b])[:4])))
            bad.append("%s: the objects %s form a cycle of references:\n%s" %
                       (name, " ".join(comp), "\n".join(edges)))
    return bad, nsyms


def selftest(cc, ar, nm):
    """Three archives that break each rule once: each must be reported."""
    src = {
        "low": {"a.c": "int hi_f(void);\nint lo_f(void) { return hi_f(); }\n",
                "b.c": "int lo_g(void);\nint lo_h(void) { return lo_g(); }\n",
                "c.c": "int lo_h(void);\nint lo_g(void) { return lo_h(); }\n",
                "d.c": "int twice(void) { return 1; }\n"},
        "high": {"e.c": "int lo_f(void);\nint hi_f(void) { return 2; }\n"
                        "int hi_g(void) { return lo_f(); }\n",
                 "f.c": "int twice(void) { return 3; }\n"},
    }
    with tempfile.TemporaryDirectory() as t:
        libs = []
        for lib in ("low", "high"):
            objs = []
            for f, text in src[lib].items():
                c = os.path.join(t, f)
                with open(c, "w") as fh:
                    fh.write(text)
                o = c[:-2] + ".o"
                subprocess.run(cc.split() + ["-c", c, "-o", o], check=True)
                objs.append(o)
            a = os.path.join(t, "lib%s.a" % lib)
            subprocess.run([ar, "cr", a] + objs, check=True)
            libs.append(a)
        bad, _ = check(nm, libs)
    text = "\n".join(bad)
    want = ["uses hi_f of the later layer libhigh.a", "form a cycle of references",
            "twice is defined in liblow.a (d.o) and in libhigh.a (f.o)"]
    missed = [w for w in want if w not in text]
    if missed or len(bad) != 3:
        print("layers.py self-test FAILED: want exactly %s, got:\n%s" % (want, text))
        return 1
    print("layers.py self-test: the wrong-way reference, the cycle and the duplicate are reported")
    return 0


def main(argv):
    nm = "nm"
    if argv[1:2] == ["--nm"]:
        nm, argv = argv[2], argv[:1] + argv[3:]
    if argv[1:2] == ["--selftest"]:
        return selftest(argv[2], argv[3], argv[4])
    libs = argv[1:]
    bad, nsyms = check(nm, libs)
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("ok: %s layered (%d undefined references read, none to a later layer, no cycle, "
              "no symbol defined twice)" % (" -> ".join(os.path.basename(l) for l in libs), nsyms))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

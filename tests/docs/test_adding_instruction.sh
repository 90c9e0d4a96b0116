#!/bin/sh
# test_adding_instruction.sh -- keeps docs/adding-an-instruction.md true: every fenced block
# tagged file=PATH must appear verbatim (line for line, in order) in PATH, every repository
# path the page names in backquotes must exist, every `make TARGET` it names must be a
# target of Makefile.am, and the instruction the page follows (its first INSN block) must be
# run by the semantics test its section 4 names first.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
exec "${PYTHON3:-python3}" - "$srcdir" <<'PY'
import os, re, sys
top = sys.argv[1]
doc = open(os.path.join(top, "docs", "adding-an-instruction.md")).read()
bad, nblocks, npaths = [], 0, 0
for m in re.finditer(r"^```\w* file=(\S+)\n(.*?)^```", doc, re.S | re.M):
    path, body = m.group(1), m.group(2)
    nblocks += 1
    try:
        text = open(os.path.join(top, path)).read()
    except OSError:
        bad.append("block names missing file %s" % path)
        continue
    if body not in text:
        bad.append("block not found verbatim in %s:\n%s" % (path, body))
for p in sorted(set(re.findall(r"`((?:src|tools|tests|docs)/[\w./-]+)`", doc))):
    npaths += 1
    if not os.path.exists(os.path.join(top, p)) and not os.path.exists(os.path.join(top, p + ".c")):
        bad.append("path %s does not exist" % p)
mk = open(os.path.join(top, "Makefile.am")).read()
for t in sorted(set(re.findall(r"^\s+make (\w+)$", doc, re.M))):
    if not re.search(r"^%s:" % re.escape(t), mk, re.M):
        bad.append("make %s: no such target in Makefile.am" % t)
ins = re.search(r'^INSN\(\w+, \w+, \w+, \w+, "(\w+)"', doc, re.M)
sec4 = doc[doc.find("## 4."):]
sem = re.search(r"`(tests/sim/test_\w+\.c)`", sec4)
if not ins or not sem:
    bad.append("no INSN block, or no tests/sim/test_*.c in section 4")
elif not re.search(r'"%s ' % ins.group(1), open(os.path.join(top, sem.group(1))).read()):
    bad.append("%s runs no %s (the instruction the page follows)" % (sem.group(1), ins.group(1)))
print("\n".join(bad))
print("%d quoted blocks, %d paths checked: %d problems" % (nblocks, npaths, len(bad)))
sys.exit(1 if bad or nblocks < 4 else 0)
PY

#!/usr/bin/env python3
"""test_no_mnemonics.py -- instruction facts come only from the generated ISA tables
(issue 14): the C sources of the given directories may not test a mnemonic.

Fails (exit 1) on
  * a string literal that is an instruction mnemonic, or a prefix of one ("v_dot",
    "ds_read", "s_cbranch_"), of the rows of src/decode/isa/*.def: such a literal is a
    fact about instructions kept outside the table (text such as "s_waitcnt %s(%u)" in a
    message is not a mnemonic and passes, and so do register names like "flat_scratch_lo");
  * a string function applied to a mnemonic (strcmp/strncmp/strstr/sscanf/... with an
    argument naming `mnem`), which is how suffixes like "_u32" or "st64" were read.
usage: test_no_mnemonics.py SRCDIR DIR...   (DIRs relative to SRCDIR, e.g. src/analyze)
The self-test (--selftest) checks that both rules catch what they must.
"""
import glob
import os
import re
import sys

MNEM = re.compile(r'"([a-z][a-z0-9]*_[a-z0-9_]*)"')
ROWMNEM = re.compile(r'INSN\(\s*\w+\s*,\s*\w+\s*,\s*\w+\s*,\s*\w+\s*,\s*"([^"]*)"')
STROP = re.compile(r'\b(strcmp|strncmp|strstr|strcasecmp|sscanf|starts|eq|memcmp)\s*\(([^;{}]*)')


def mnemonics(srcdir):
    out = set()
    for p in glob.glob(os.path.join(srcdir, "src", "decode", "isa", "*.def")):
        out.update(ROWMNEM.findall(open(p).read()))
    return out


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def check_text(name, text, mnems, prefixes):
    bad = []
    text = strip_comments(text)
    for ln, line in enumerate(text.splitlines(), 1):
        for lit in MNEM.findall(line):
            if lit in prefixes:
                bad.append("%s:%d: mnemonic literal \"%s\"" % (name, ln, lit))
        for m in STROP.finditer(line):
            if re.search(r"\bmnem\b", m.group(2)):
                bad.append("%s:%d: %s() on a mnemonic" % (name, ln, m.group(1)))
    return bad


def main(argv):
    srcdir = argv[1]
    mnems = mnemonics(srcdir)
    if len(mnems) < 1000:
        print("too few mnemonics read from src/decode/isa (%d)" % len(mnems))
        return 1
    prefixes = {m[:i] for m in mnems for i in range(3, len(m) + 1)}
    if argv[2:] == ["--selftest"]:
        probe = ('if (!strncmp(m, "v_dot", 5)) x;\n if (strstr(f->mnem, "_u32")) y;\n'
                 ' s = "s_waitcnt %s"; r = "flat_scratch_lo"; /* "v_mov_b32" */\n')
        got = check_text("probe", probe, mnems, prefixes)
        ok = len(got) == 2 and "v_dot" in got[0] and "strstr" in got[1]
        print("\n".join(got))
        print("selftest", "ok" if ok else "FAILED")
        return 0 if ok else 1
    bad = []
    nfiles = 0
    for d in argv[2:]:
        for p in sorted(glob.glob(os.path.join(srcdir, d, "*.[ch]"))):
            nfiles += 1
            bad += check_text(os.path.relpath(p, srcdir), open(p).read(), mnems, prefixes)
    print("\n".join(bad))
    print("%d files in %s: %d mnemonic tests outside the ISA tables" % (nfiles, " ".join(argv[2:]), len(bad)))
    return 1 if bad or not nfiles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

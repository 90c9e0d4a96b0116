#!/usr/bin/env python3
"""man_options.py -- compare the options a program's --help lists with its man page.

  man_options.py PROGRAM MANPAGE      exit 0 if they agree, 1 (with the differences) if not
  man_options.py --checks GCNLINT MANPAGE
                                      the same for the checks of `gcnlint --list-checks` and
                                      the tags of the man page's CHECKS section (hazard-RULE
                                      stands for the hazard rules)

The options of --help are the option words in the first column of its lines (a line that
starts with blanks and '-', up to the first run of two blanks: "  -q, --quiet   text" gives
-q and --quiet).  The options of the man page are the option words of the tag lines (the
line after .TP) of its OPTIONS section, with roff escapes removed.  They agree when every
--help option has a man page entry and every man page option occurs in the --help text
(some are mentioned only in another option's description, e.g. "--no-progress").
"""
import re
import subprocess
import sys

OPT = re.compile(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)')


def help_options(text):
    first, anywhere = set(), set(OPT.findall(text))
    for line in text.splitlines():
        m = re.match(r'^\s+(-.*?)(\s{2,}|$)', line)
        if m:
            first |= set(OPT.findall(m.group(1)))
    return first, anywhere


def unroff(line):
    """The text a roff line prints: font macros' arguments (alternating-font macros such as
    .BI join theirs without blanks), font escapes and \\- removed."""
    m = re.match(r'^\.([BIR]{1,2})\s*(.*)$', line)
    if m:
        args = [a[1:-1] if a.startswith('"') else a
                for a in re.findall(r'"[^"]*"|\S+', m.group(2))]
        line = ('' if len(m.group(1)) == 2 else ' ').join(args)
    line = re.sub(r'\\f(\[[^]]*\]|.)', '', line)
    return line.replace('\\-', '-').replace('\\e', '\\').replace('\\&', '').replace('\\%', '')


def man_options(text):
    opts, in_opts, after_tp = set(), False, False
    for line in text.splitlines():
        if line.startswith('.SH'):
            in_opts = line.split(None, 1)[1:] == ['OPTIONS']
            continue
        if not in_opts:
            continue
        if line.startswith('.TP'):
            after_tp = True
            continue
        if after_tp:
            opts |= set(OPT.findall(unroff(line)))
            after_tp = False
    return opts


def compare(help_text, man_text):
    first, anywhere = help_options(help_text)
    man = man_options(man_text)
    errs = []
    if not man:
        errs.append('the man page has no OPTIONS section with .TP entries')
    for o in sorted(first - man):
        errs.append('%s is in --help but not in the man page OPTIONS' % o)
    for o in sorted(man - anywhere):
        errs.append('%s is in the man page OPTIONS but not in --help' % o)
    return errs


def section_tags(text, name):
    """The words of the .TP tag lines of section NAME (e.g. CHECKS)."""
    tags, inside, after_tp = set(), False, False
    for line in text.splitlines():
        if line.startswith('.SH'):
            inside = line.split(None, 1)[1:] == [name]
            continue
        if inside and line.startswith('.TP'):
            after_tp = True
        elif inside and after_tp:
            tags |= set(re.findall(r'[a-z][a-z0-9-]*', unroff(line)))
            after_tp = False
    return tags


def compare_checks(list_text, man_text):
    checks = {l.split()[0] for l in list_text.splitlines() if l.strip()}
    checks = {c for c in checks if not c.startswith('hazard')}
    tags = section_tags(man_text, 'CHECKS')
    return ['check %s of --list-checks is not in the man page CHECKS' % c
            for c in sorted(checks - tags)]


def main():
    if sys.argv[1] == '--checks':
        p = subprocess.run([sys.argv[2], '--list-checks'], stdout=subprocess.PIPE)
        with open(sys.argv[3], encoding='utf-8') as f:
            errs = compare_checks(p.stdout.decode(), f.read())
        for e in errs:
            print('%s: %s' % (sys.argv[3], e))
        return 1 if errs or p.returncode else 0
    prog, page = sys.argv[1], sys.argv[2]
    p = subprocess.run([prog, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print('%s --help: exit status %d' % (prog, p.returncode))
        return 1
    with open(page, encoding='utf-8') as f:
        errs = compare(p.stdout.decode(), f.read())
    for e in errs:
        print('%s: %s' % (page, e))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())

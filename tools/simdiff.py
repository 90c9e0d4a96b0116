"""simdiff.py -- the run-and-compare loop shared by gcnsim's differential fuzzers
(tools/hz_diff.py, tools/lds_race_diff.py): for each seed, a random kernel is written and
assembled with clang-22, then run by two gcnsim binaries under each option set; the exit
code, the output with times masked and the --json findings must be equal.  Prints a line per
differing run and a summary; returns the process exit status (0: none differs, 1: some do).
"""
import os
import re
import subprocess
import tempfile

TIMES = re.compile(r"[0-9.]+ s \([0-9.]+ s CPU\)")


def run_one(binary, args, opts, json_path):
    """One gcnsim run: (exit code, output with times masked, --json file or "").  The option
    set ["--json"] writes the findings to json_path."""
    if os.path.exists(json_path):
        os.remove(json_path)
    oo = ["--json", json_path] if opts == ["--json"] else opts
    p = subprocess.run([binary] + args + oo, capture_output=True, text=True)
    js = open(json_path).read() if os.path.exists(json_path) else ""
    return p.returncode, TIMES.sub("T", p.stdout + p.stderr), js


def compare(a, b, first, last, case, opts, word, what):
    """Seeds first..last: case(seed, path) writes kernel `seed` (assembly) to path and returns
    (target, gcnsim arguments before the options, with "{co}" standing for the code object);
    every option set of opts is run by binaries a and b.  `word` is counted in a's output and
    reported as `what` (e.g. the findings the kernels raised: a fuzzer that finds nothing
    checks little)."""
    runs = diffs = count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, last + 1):
            s, co = os.path.join(tmp, "k.s"), os.path.join(tmp, "k.hsaco")
            target, args = case(seed, s)
            if subprocess.run([os.environ.get("CLANG22", "clang-22"), "-x", "assembler",
                               "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, s, "-o", co],
                              capture_output=True).returncode:
                print("seed %d: does not assemble" % seed)
                continue
            args = [co if x == "{co}" else x for x in args]
            for o in opts:
                res = [run_one(binary, args, o, os.path.join(tmp, tag + ".json"))
                       for tag, binary in (("a", a), ("b", b))]
                runs += 1
                count += res[0][1].count(word)
                if res[0] != res[1]:
                    diffs += 1
                    print("DIFF seed %d, options %s" % (seed, " ".join(o)))
    print("%d runs, %d differ, %d %s" % (runs, diffs, count, what))
    return 1 if diffs else 0

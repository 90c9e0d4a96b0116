#!/usr/bin/env python3
"""trace_check.py -- check a Chrome/Perfetto trace (gcnsim --trace-json) against the
pairing rules of the Trace Event Format (the "Trace Event Format" document of the
Chromium catapult project):

  B/E (duration events): per (pid, tid) a stack; an E closes the innermost open B of
      its thread (its name, when given, is that B's), never before it; none left open.
  b/e (async nestable events): matched by (cat, id, name) -- an e closes the latest
      open b with the same cat, id and name, at or after its timestamp; none left open.
  X: a non-negative dur.  C: numeric args.  i/I: scope s in g, p, t.  M: a known
      metadata name.  Every event: a known ph, a pid, a numeric ts (M excepted).

Events are taken in timestamp order (stable: file order within a timestamp, as the
viewers sort them).  Usage: trace_check.py TRACE.json...  Exit 0 when every trace
keeps the rules, 1 (with every violation printed) when one does not, 2 on unreadable
input.  --self-test breaks a good trace in each way and requires each to be caught.
"""
import json
import sys

KNOWN_PH = set("BEXbeniICMsftPOND(R)") - set("()")
META = {"process_name", "process_labels", "process_sort_index", "thread_name",
        "thread_sort_index"}


def check(events):
    errs = []
    if not isinstance(events, list):
        return ["traceEvents is not a list"]
    order = sorted(range(len(events)),
                   key=lambda i: (events[i].get("ts", -1) if events[i].get("ph") != "M" else -1, i))
    stacks = {}          # (pid, tid) -> [B events]
    open_async = {}      # (cat, id, name) -> [b events]
    for i in order:
        e = events[i]
        ph = e.get("ph")
        where = "event %d (%s %r)" % (i, ph, e.get("name"))
        if ph not in KNOWN_PH:
            errs.append("%s: unknown ph" % where)
            continue
        if "pid" not in e:
            errs.append("%s: no pid" % where)
        if ph != "M" and not isinstance(e.get("ts"), (int, float)):
            errs.append("%s: no numeric ts" % where)
            continue
        if ph == "B":
            stacks.setdefault((e.get("pid"), e.get("tid")), []).append(e)
        elif ph == "E":
            st = stacks.get((e.get("pid"), e.get("tid")), [])
            if not st:
                errs.append("%s: E with no open B on pid %s tid %s" % (where, e.get("pid"), e.get("tid")))
            else:
                b = st.pop()
                if "name" in e and e["name"] != b.get("name"):
                    errs.append("%s: E named %r closes B %r" % (where, e["name"], b.get("name")))
                if e["ts"] < b["ts"]:
                    errs.append("%s: E before its B" % where)
        elif ph == "b":
            if "id" not in e or "cat" not in e:
                errs.append("%s: async begin without cat and id" % where)
            open_async.setdefault((e.get("cat"), e.get("id"), e.get("name")), []).append(e)
        elif ph == "e":
            key = (e.get("cat"), e.get("id"), e.get("name"))
            st = open_async.get(key, [])
            if not st:
                errs.append("%s: async end (cat %r, id %r) matches no open begin" %
                            (where, key[0], key[1]))
            else:
                b = st.pop()
                if e["ts"] < b["ts"]:
                    errs.append("%s: async end before its begin" % where)
        elif ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                errs.append("%s: complete event without a non-negative dur" % where)
        elif ph == "C":
            a = e.get("args")
            if not isinstance(a, dict) or not a or \
                    not all(isinstance(v, (int, float)) for v in a.values()):
                errs.append("%s: counter without numeric args" % where)
        elif ph in "iI":
            if e.get("s", "t") not in ("g", "p", "t"):
                errs.append("%s: instant scope %r" % (where, e.get("s")))
        elif ph == "M":
            if e.get("name") not in META:
                errs.append("%s: unknown metadata name" % where)
    for (pid, tid), st in stacks.items():
        for b in st:
            errs.append("B %r on pid %s tid %s never ends" % (b.get("name"), pid, tid))
    for key, st in open_async.items():
        for b in st:
            errs.append("async span %r (cat %r, id %r) never ends" % (key[2], key[0], key[1]))
    return errs


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def self_test(path):
    good = load(path)
    if check(good):
        print("self-test: the reference trace %s is not clean" % path)
        return 1
    kinds = {e.get("ph") for e in good}
    if not {"b", "e", "X", "C", "M"} <= kinds:
        print("self-test: %s lacks an event kind (has %s)" % (path, sorted(kinds)))
        return 1
    bad = 0

    def broken(label, f):
        nonlocal bad
        ev = json.loads(json.dumps(good))
        f(ev)
        if not check(ev):
            print("self-test FAIL: not caught: %s" % label)
            bad += 1
        else:
            print("self-test ok: caught: %s" % label)

    first_e = lambda ev: next(e for e in ev if e["ph"] == "e" and e["cat"] == "lgkm")
    broken("an lgkm span ending with cat vm (the bug of issue 18)",
           lambda ev: first_e(ev).__setitem__("cat", "vm"))
    broken("an async end with another id", lambda ev: first_e(ev).__setitem__("id", 10 ** 9))
    broken("an async end removed", lambda ev: ev.remove(first_e(ev)))
    broken("an async end before its begin", lambda ev: first_e(ev).__setitem__("ts", -1))
    broken("an unmatched E", lambda ev: ev.append({"ph": "E", "pid": 1, "tid": 9, "ts": 0}))
    broken("an unclosed B", lambda ev: ev.append({"ph": "B", "name": "x", "pid": 1, "tid": 9, "ts": 0}))
    broken("crossed B/E", lambda ev: ev.extend([
        {"ph": "B", "name": "a", "pid": 1, "tid": 9, "ts": 0},
        {"ph": "B", "name": "b", "pid": 1, "tid": 9, "ts": 1},
        {"ph": "E", "name": "a", "pid": 1, "tid": 9, "ts": 2},
        {"ph": "E", "name": "b", "pid": 1, "tid": 9, "ts": 3}]))
    broken("a complete event without dur",
           lambda ev: next(e for e in ev if e["ph"] == "X").pop("dur"))
    return 1 if bad else 0


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return self_test(argv[2])
    rc = 0
    for p in argv[1:]:
        try:
            ev = load(p)
        except (OSError, ValueError, KeyError) as x:
            print("%s: unreadable trace: %s" % (p, x))
            return 2
        errs = check(ev)
        n = {}
        for e in ev:
            n[e.get("ph")] = n.get(e.get("ph"), 0) + 1
        if errs:
            rc = 1
            print("FAIL %s: %d violation(s)" % (p, len(errs)))
            for x in errs[:20]:
                print("    " + x)
        else:
            print("ok   %s: %s" % (p, ", ".join("%s %d" % kv for kv in sorted(n.items()))))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))

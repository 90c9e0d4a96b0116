#!/usr/bin/env python3
"""hazards_doc.py -- the rule table of docs/hazards.md, generated from
src/analyze/hazards.def (the one source of the hazard rules).

usage: hazards_doc.py [--def src/analyze/hazards.def] [--update docs/hazards.md | --check docs/hazards.md]
Without --update/--check the table is printed.  The table sits between the
lines "<!-- BEGIN RULES (tools/hazards_doc.py) -->" and "<!-- END RULES -->".
--check exits 1 when the document's table differs from the .def.
"""
import argparse
import re
import sys

BEGIN = "<!-- BEGIN RULES (tools/hazards_doc.py) -->"
END = "<!-- END RULES -->"

CLASS = {
    "HZC_VALU": "VALU", "HZC_MFMA": "MFMA", "HZC_XDL": "XDL", "HZC_DGEMM": "DGEMM",
    "HZC_DGEMM4": "DGEMM 4x4", "HZC_DGEMM16": "DGEMM 16x16", "HZC_SMFMAC": "SMFMAC",
    "HZC_DOT": "dot", "HZC_TRANS": "trans", "HZC_VMEM": "VMEM/FLAT", "HZC_DS": "DS",
    "HZC_SMEM": "SMEM", "HZC_SALU": "SALU", "HZC_DPP": "DPP",
    "HZC_READLANE": "v_readlane/v_readfirstlane", "HZC_WRITELANE": "v_writelane",
    "HZC_RWLANE": "v_readlane/v_writelane", "HZC_DIVFMAS": "v_div_fmas",
    "HZC_SETREG": "s_setreg", "HZC_GETREG": "s_getreg", "HZC_RFE": "s_rfe_b64",
    "HZC_M0READ": "M0 reader", "HZC_FMA64": "v_fma_f64/v_fmac_f64",
    "HZC_PERMSWAP": "v_permlane16/32_swap", "HZC_VCMP": "VALU compare",
    "HZC_WREXEC": "writes EXEC", "HZC_DSTSEL": "partial-dst VALU",
    "HZC_WIDESTORE": ">64-bit store", "HZC_MAYSTORE": "store",
    "HZC_PKSEL": "packed VOP3P (op_sel_hi)", "HZC_LDSDMA": "LDS DMA",
}

REL = {
    "REL_USE": "reads its result (explicit source)",
    "REL_USE_ALL": "reads its scalar result (incl. implicit EXEC, M0)",
    "REL_USE_SGPR": "reads its SGPR/VCC result",
    "REL_USE_VGPR": "reads its VGPR result",
    "REL_SRC0": "reads its result as src0",
    "REL_LANESEL": "uses its SGPR result as lane select",
    "REL_USE_VDST": "reads its vdst",
    "REL_ANY_VDST": "touches its vdst",
    "REL_DEF": "overwrites its result (WAW)",
    "REL_DEF_SRCC": "overwrites its srcC (WAR)",
    "REL_DEF_SDATA": "overwrites its store data (WAR)",
    "REL_EXEC": "after it wrote EXEC",
    "REL_VCC": "after it wrote VCC",
    "REL_M0": "after it wrote M0",
    "REL_HWREG": "same hardware register",
    "REL_TRAPSTS": "after it wrote TRAPSTS",
    "REL_NONE": "(no register relation)",
    "REL_CLAUSE": "soft clause",
}

MATCH = {
    "M_SRCC": "srcC", "M_NOTSRCC": "not srcC", "M_FULL": "same registers",
    "M_PARTIAL": "overlapping", "M_SAMEOP": "same opcode", "M_DIFFOP": "other opcode",
    "M_P2": "2-pass producer", "M_P4": "4-pass producer",
    "M_VCC": "VCC", "M_EXEC": "EXEC", "M_NOTEXEC": "not EXEC", "M_SRC0": "src0",
    "M_NOTSRC0": "not src0", "M_READ": "read", "M_WRITE": "overwritten", "M_CARRY": "carry-in",
}

SRC = {"S_ISA": "ISA", "S_RR": "rocRoller", "S_LLVM": "LLVM"}


def split_args(s):
    """Split a macro argument list at top-level commas."""
    out, depth, cur, q = [], 0, "", False
    for ch in s:
        if ch == '"':
            q = not q
        if not q and ch == "(":
            depth += 1
        if not q and ch == ")":
            depth -= 1
        if not q and depth == 0 and ch == ",":
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def parse(path):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    groups, rows = {}, []
    for m in re.finditer(r"\b(HZ_GROUP|HAZARD)\((.*?)\)\s*(?=HZ_GROUP|HAZARD|$)", text, re.S):
        kind, args = m.group(1), split_args(" ".join(m.group(2).split()))
        if kind == "HZ_GROUP":
            gid, tg, cons, prod, rel, limit, func = args
            groups[gid] = dict(targets=tg, cons=cons, prod=prod, rel=rel, limit=int(limit),
                               func=func.strip('"'))
        else:
            name, gid, tg, psel, csel, match, wait, src, cite, desc = args
            rows.append(dict(name=name, gid=gid, targets=tg, psel=psel, csel=csel, match=match,
                             wait=wait, src=src, cite=cite.strip('"').replace('\\"', '"'),
                             desc=desc.strip('"')))
    return groups, rows


def pred(p):
    p = p.strip()
    if p == "PANY":
        return "any"
    m = re.match(r"PRED\((.*)\)$", p)
    anyof, allof, noneof = split_args(m.group(1))
    parts = []
    names = lambda e: [CLASS.get(x.strip(), x.strip()) for x in e.split("|") if x.strip() != "0"]
    if anyof != "0":
        parts.append(" or ".join(names(anyof)))
    if allof != "0":
        parts.append(" and ".join(names(allof)))
    if noneof != "0":
        parts.append("not " + "/".join(names(noneof)))
    return ", ".join(parts) or "any"


def both(a, b):
    """Combine a group predicate and a row predicate for display."""
    if b == "any":
        return a
    if a == "any":
        return b
    return a + "; " + b


def wait(w):
    """(formula text, function(target, passes))"""
    m = re.match(r"(WS|WS2|WNP|WNP950|WNP950N2)\((.*)\)$", w.strip())
    k, a = m.group(1), [int(x) for x in split_args(m.group(2))]
    if k == "WS":
        return str(a[0]), lambda t, p: a[0]
    if k == "WS2":
        return "%d (gfx950: %d)" % (a[0], a[1]), lambda t, p: a[1] if t == "gfx950" else a[0]
    base = "passes" + ("%+d" % a[0] if a[0] else "")
    if k == "WNP":
        return base, lambda t, p: p + a[0]
    if k == "WNP950":
        return base + " (+1 on gfx950)", lambda t, p: p + a[0] + (t == "gfx950")
    return (base + " (+1 on gfx950 unless 2 passes)",
            lambda t, p: p + a[0] + (t == "gfx950" and p != 2))


def targets(t):
    out = []
    if "T942" in t:
        out.append("942")
    if "T950" in t:
        out.append("950")
    s = "gfx" + "/".join(out)
    if "TX" in t:
        s += ", xnack"
    return s


def source(r, g):
    """(class, provenance text) of a row."""
    if r["src"].strip() == "LLVMC":
        return "llvm-conservative (off)", "**LLVM only**: " + r["cite"] + \
            "; LLVM GCNHazardRecognizer " + g["func"]
    bits = [SRC[x.strip()] for x in r["src"].split("|")]
    text = "+".join(bits) + ": " + r["cite"]
    if "LLVM" in bits:
        text += "; LLVM GCNHazardRecognizer " + g["func"]
    return "error", text


def table(groups, rows):
    lines = ["| # | Rule | Class | Source | Producer | Consumer | Relation | Wait states | "
             "2/4/8/16 passes (gfx942; gfx950) | Window, targets |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(rows):
        g = groups[r["gid"]]
        text, fn = wait(r["wait"])
        per = ""
        if "passes" in text:
            per = "%s; %s" % ("/".join(str(fn("gfx942", p)) for p in (2, 4, 8, 16)),
                              "/".join(str(fn("gfx950", p)) for p in (2, 4, 8, 16)))
        rel = REL[g["rel"]]
        if r["match"] != "0":
            rel += " [" + ", ".join(MATCH[x.strip()] for x in r["match"].split("|")) + "]"
        cls, src = source(r, g)
        lines.append("| %d | `%s`<br>%s | %s | %s | %s | %s | %s | %s | %s | %d, %s |" % (
            i, r["name"], r["desc"], cls, src.replace("|", "\\|"),
            both(pred(g["prod"]), pred(r["psel"])),
            both(pred(g["cons"]), pred(r["csel"])), rel, text, per, g["limit"],
            targets(r["targets"])))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--def", dest="deffile", default="src/analyze/hazards.def")
    ap.add_argument("--update")
    ap.add_argument("--check")
    a = ap.parse_args()
    groups, rows = parse(a.deffile)
    t = table(groups, rows)
    doc = a.update or a.check
    if not doc:
        sys.stdout.write(t)
        return 0
    text = open(doc).read()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        sys.stderr.write("%s: no %s ... %s markers\n" % (doc, BEGIN, END))
        return 2
    new = text[:i + len(BEGIN)] + "\n" + t + text[j:]
    if a.check:
        if new != text:
            sys.stderr.write("%s: the rule table is out of date (tools/hazards_doc.py --update)\n" % doc)
            return 1
        return 0
    open(doc, "w").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""corpus_triage.py -- summarise gcnlint JSON outputs of a code-object corpus
by check, target and kernel family, and pick findings to triage.

usage: corpus_triage.py DIR                 table: check x family (sites)
       corpus_triage.py DIR CHECK [N]       N sample findings of CHECK, one per
                                            (family, target) round-robin
DIR holds gcnlint --format=json files: one per object, named after the object's
path with '/' replaced by '_' (e.g. hsa_gfx942_fmoe_2stages_x.co.json), or
batch files of several objects (the family then comes from each finding's
"input" path).
Used for docs/gcnlint-corpus.md; the corpus itself is never committed."""
import collections, glob, json, os, sys

def family(name):
    parts = name[:-len('.co.json')].split('_')
    if len(parts) < 3:
        return '-', name
    # hsa_gfx942_<dir>_<file> or hsa_gfx942_<file>
    tgt = parts[1]
    rest = '_'.join(parts[2:])
    for fam in ('fmoe_2stages', 'fmha_v3_fwd', 'fmha_v3_bwd', 'fmha_v4_fwd',
                'fp8gemm_blockscale', 'topk_per_row', 'mla_v4', 'bf16gemm',
                'i8gemm', 'f4gemm', 'fmoe', 'mla', 'pa', 'topksoftmax'):
        if rest.startswith(fam + '_'):
            return tgt, fam
    return tgt, rest.split('_')[0]

def load(d):
    for f in sorted(glob.glob(os.path.join(d, '*.json'))):
        try:
            j = json.load(open(f))
        except ValueError:
            continue
        tgt, fam = family(os.path.basename(f))
        for x in j['findings']:
            if x['severity'] in ('error', 'warning'):
                inp = x.get('input', '')
                if '/hsa/' in inp:
                    name = 'hsa_' + inp.split('/hsa/', 1)[1].replace('/', '_') + '.json'
                    tgt, fam = family(name)
                    yield tgt, fam, name, x
                else:
                    yield tgt, fam, f, x

def main():
    d = sys.argv[1]
    if len(sys.argv) == 2:
        c = collections.Counter(); fams = set()
        for tgt, fam, f, x in load(d):
            c[(x['check'], fam)] += x.get('count', 1); fams.add(fam)
        checks = sorted({k for k, _ in c}, key=lambda k: -sum(v for (kk, _), v in c.items() if kk == k))
        for k in checks:
            row = {fam: c[(k, fam)] for fam in fams if c[(k, fam)]}
            print(k, sum(row.values()), dict(sorted(row.items(), key=lambda kv: -kv[1])))
        return
    check = sys.argv[2]; n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    by = collections.defaultdict(list)
    for tgt, fam, f, x in load(d):
        if x['check'] == check:
            by[(fam, tgt)].append((f, x))
    keys = sorted(by, key=lambda k: -len(by[k])); out = 0; i = 0
    while out < n and any(i < len(by[k]) for k in keys):
        for k in keys:
            if i < len(by[k]) and out < n:
                f, x = by[k][i * 7919 % len(by[k])] if i else by[k][len(by[k]) // 2]
                pa = (x.get('producer') or {}).get('address', '')
                if os.environ.get('TRIAGE_ADDR'):
                    print(x['input'], x['address'][2:], pa[2:] if pa else '-', x['location'])
                else:
                  print(f"{k[0]}/{k[1]} ({len(by[k])}) {f.split('/')[-1]} {x['location']} @{x['address']}: {x['message'][:300]}")
                out += 1
        i += 1

if __name__ == '__main__':
    main()

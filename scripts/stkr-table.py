"""Summarises the JSON outputs of scripts/bench-stkr.sh as Markdown tables.

  python3 scripts/stkr-table.py OUT_DIR

Prints the paper-protocol table (table-*.json and images-*.json: mean ± std of test accuracy in
%, fit seconds, chosen hyperparameters) and the side-by-side rows
(go-sidebyside-*.json against peer-*.jsonl "stkr-random-splits" lines).
"""
import glob
import json
import os
import sys
from collections import Counter

out = sys.argv[1]


def load(path):
    with open(path) as f:
        text = f.read().strip()
    return json.loads(text) if text else None


def mode(xs):
    if not xs:
        return "–"
    return ", ".join(f"{v:g}×{c}" for v, c in Counter(xs).most_common())


names = {"inverse-laplacian": "SP-Lap", "poly": "SP-poly (λ^8)", "topd": "SP-topd (d = 128)", "krr": "KRR (s = λ)"}
settings = {"transductive": "t", "inductive": "i", "inductive-strict": "i-strict", "inductive-test-only": "i, val visible"}
rows = {}
for path in glob.glob(os.path.join(out, "table-*.json")) + glob.glob(os.path.join(out, "images-*.json")) + glob.glob(os.path.join(out, "table", "*.json")):
    d = load(path)
    if d:
        rows[(d["dataset"], d["transform"].split(":")[0], d["setting"])] = d
order = ["cora", "pubmed", "amazon_photo", "coauthor_cs", "coauthor_physics"]
datasets = sorted({k[0] for k in rows}, key=lambda x: (order.index(x) if x in order else len(order), x))
print("| data set (N, test nodes) | method | setting | test acc. % (mean ± std) | val % | i − t | chosen η | chosen β "
      "| products/fit | s/fit | run s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for ds in datasets:
    first = True
    for tr in names:
        base = rows.get((ds, tr, "transductive"))
        for st in settings:
            d = rows.get((ds, tr, st))
            if d is None:
                continue
            label = f"{ds} ({d['nodes']}, {d['test_nodes']})" if first else ""
            first = False
            diff = f"{100 * (d['test_accuracy_mean'] - base['test_accuracy_mean']):+.2f}" if base and d is not base else ""
            print(f"| {label} | {names[tr]} | {settings[st]} | {100*d['test_accuracy_mean']:.2f} ± {100*d['test_accuracy_std']:.2f} "
                  f"| {100*d['val_accuracy_mean']:.2f} | {diff} | {mode(d.get('eta') or [])} | {mode(d['beta'])} | {d['matvecs']:.0f} "
                  f"| {d['fit_seconds']:.3f} | {d['seconds']:.0f} |")

print()
print("| data set | method | gssl acc. % | stkr.py acc. % | gssl s/fit | stkr.py s/fit |")
print("|---|---|---|---|---|---|")
peers = {}
for path in sorted(glob.glob(os.path.join(out, "peer-*.jsonl"))):
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            if d["task"] == "stkr-random-splits":
                peers.setdefault((d["dataset"], d["params"]["method"]), []).append(d)
names = {"inverse": "SP-Lap", "poly": "SP-poly"}
for path in sorted(glob.glob(os.path.join(out, "go-sidebyside-*.json"))):
    d = load(path)
    if not d:
        continue
    method = names.get(d["transform"].split(":")[0].split("-")[0], d["transform"])
    p = peers.get((d["dataset"], method), [])
    pa = f"{100*p[0]['value']:.2f} ± {100*p[0]['test_accuracy_std']:.2f}" if p else "–"
    ps = f"{sorted(x['seconds'] for x in p)[len(p)//2]:.3f}" if p else "–"
    print(f"| {d['dataset']} | {method} | {100*d['test_accuracy_mean']:.2f} ± {100*d['test_accuracy_std']:.2f} | {pa} | {d['fit_seconds']:.3f} | {ps} |")

"""Summarises the JSON outputs of scripts/bench-stkr.sh as Markdown tables.

  python3 scripts/stkr-table.py OUT_DIR

Prints the paper-protocol table (table-*.json: mean ± std of test accuracy in
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


print("| data set | transform | setting | test acc. % (mean ± std) | val % | chosen η | chosen β | products/fit | s/fit | run s |")
print("|---|---|---|---|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(out, "table-*.json")) + glob.glob(os.path.join(out, "table", "*.json"))):
    d = load(path)
    if not d:
        continue
    print(f"| {d['dataset']} | {d['transform']} | {d['setting']} | {100*d['test_accuracy_mean']:.2f} ± {100*d['test_accuracy_std']:.2f} "
          f"| {100*d['val_accuracy_mean']:.2f} | {mode(d.get('eta') or [])} | {mode(d['beta'])} | {d['matvecs']:.0f} "
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

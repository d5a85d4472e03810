"""Summarise scripts/bench-stkr.sh step 4 (Cora's largest component) as Markdown tables.

    python3 scripts/stkr-lcc-table.py OUT_DIR
"""
import glob
import json
import math
import os
import sys
from collections import Counter

OUT = sys.argv[1]


def load(name):
    p = os.path.join(OUT, name)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        return None
    return json.load(open(p))


def ms(xs):
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def pct(xs):
    m, s = ms(xs)
    return f"{100 * m:.2f} ± {100 * s:.2f}"


def counts(xs):
    return ", ".join(f"{k:g}×{v}" for k, v in Counter(xs).most_common())


peer = {}
for line in open(os.path.join(OUT, "peer-lcc.jsonl")):
    r = json.loads(line)
    if r["task"] == "stkr-lcc":
        peer[r["method"]] = r

names = {"inverse-laplacian": ("SP-Lap", "SP-Lap"), "poly": ("SP-poly (λ^8)", "SP-poly"),
         "topd": ("SP-topd (d = 128)", None), "krr": ("KRR (s = λ)", None)}
short = {"transductive": "t", "inductive": "i", "inductive-strict": "i (strict)", "inductive-test-only": "i, val visible"}
print("| method | setting | gssl test % (25 nodes) | stkr.py test % (same 25 nodes) | gssl val % | chosen η | chosen β "
      "| no-evidence val+test | gssl s/fit | stkr.py s/fit | gssl run s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for tr, (label, pm) in names.items():
    for setting in ("transductive", "inductive", "inductive-strict", "inductive-test-only"):
        r = load(f"lcc-{tr}-{setting}-p0.01.json")
        if r is None:
            continue
        p = peer.get(pm) if setting == "transductive" and pm else None
        pcell = pct(p["test_ptest"]) if p else "–"
        psec = f"{p['seconds_mean']:.3f}" if p else "–"
        eta = counts(r["eta"]) if r.get("eta") else "–"
        print(f"| {label} | {short[setting]} | {pct(r['test_accuracies'])} | {pcell} | {100 * r['val_accuracy_mean']:.2f} "
              f"| {eta} | {counts(r['beta'])} | {r['no_evidence']} | {r['fit_seconds']:.3f} | {psec} | {r['seconds']:.1f} |")
lp_cut = [load(f"lp-random20_seed{s}_ptest0.01.json") for s in range(10)]
lp_all = [load(f"lp-random20_seed{s}.json") for s in range(10)]
if all(lp_cut) and "LP" in peer:
    print(f"| LP (label spreading, a on val) | t | {pct([r['test_accuracy'] for r in lp_cut])} | {pct(peer['LP']['test_ptest'])} "
          f"| {100 * ms([r['val_accuracy'] for r in lp_cut])[0]:.2f} | – | a: {counts([r['alpha'] for r in lp_cut])} | | "
          f"{ms([r['fit_seconds'] for r in lp_cut])[0]:.3f} | {peer['LP']['seconds_mean']:.3f} | |")

print()
for tr, pm in (("inverse-laplacian", "SP-Lap"), ("poly", "SP-poly")):
    g = load(f"lcc-{tr}-transductive-p0.01.json")
    if g and pm in peer:
        p = peer[pm]
        acc = sum(abs(a - b) < 1e-12 for a, b in zip(g["test_accuracies"], p["test_ptest"]))
        hp = sum(b == c["beta"] and (e is None or e == c.get("eta"))
                 for b, e, c in zip(g["beta"], g.get("eta") or [None] * 10, p["chosen"]))
        print(f"{pm}(t): {acc}/10 splits with equal test accuracy, {hp}/10 with the same η and β chosen.  ")
if all(lp_cut) and "LP" in peer:
    acc = sum(abs(a["test_accuracy"] - b) < 1e-12 for a, b in zip(lp_cut, peer["LP"]["test_ptest"]))
    hp = sum(a["alpha"] == c["alpha"] for a, c in zip(lp_cut, peer["LP"]["chosen"]))
    print(f"LP(t): {acc}/10 splits with equal test accuracy, {hp}/10 with the same a chosen.")
print()
print("All the split's test nodes (transductive), both sides:")
print()
print("| method | gssl `--lcc --p-test 0` | gssl on the written folder | stkr.py / LP on the written folder | splits where gssl ≠ peer |")
print("|---|---|---|---|---|")
for tr, pm in (("inverse-laplacian", "SP-Lap"), ("poly", "SP-poly")):
    r, w = load(f"lcc-{tr}-transductive-p0.json"), load(f"written-{tr}-p0.json")
    if r is None or pm not in peer:
        continue
    diff = sum(abs(a - b) > 1e-12 for a, b in zip(r["test_accuracies"], peer[pm]["test_all"]))
    wcell = pct(w["test_accuracies"]) if w else "–"
    print(f"| {pm} | {pct(r['test_accuracies'])} | {wcell} | {pct(peer[pm]['test_all'])} | {diff} |")
if all(lp_all) and "LP" in peer:
    diff = sum(abs(a["test_accuracy"] - b) > 1e-12 for a, b in zip(lp_all, peer["LP"]["test_all"]))
    print(f"| LP | – | {pct([r['test_accuracy'] for r in lp_all])} (gssl labelprop) | {pct(peer['LP']['test_all'])} | {diff} |")

print()
print("Low noise (every test node of the split scored), paired against transductive on the same seeds:")
print()
print("| method | setting | hidden at fit time | test % | val % | minus transductive (mean ± std over seeds, s.e.) "
      "| independent scipy (SP-Lap) | no-evidence val+test | fits |")
print("|---|---|---|---|---|---|---|---|---|")
peer_files = {"transductive": "transductive", "i, val visible": "inductive-test-only",
              "i (refit with val)": "inductive", "i (strict)": "inductive-strict"}
for tr, label in (("inverse-laplacian", "SP-Lap"), ("poly", "SP-poly (λ^8)")):
    base = load(f"lcc-{tr}-transductive-p0.json")
    if base is None:
        continue
    rows = [("transductive", "nothing (val labels)", base),
            ("i, val visible", "25 test at a time", load(f"chunks-{tr}-inductive-test-only.json")),
            ("i (refit with val)", "val + 25 test to choose; 25 test to predict", load(f"chunks-{tr}-inductive.json")),
            ("i (strict)", "val + 25 test at a time", load(f"chunks-{tr}-inductive-strict.json")),
            ("i, val visible, p_test 0", "all test (~915)", load(f"lcc-{tr}-inductive-test-only-p0.json")),
            ("i (refit with val), p_test 0", "val + all test to choose; all test to predict", load(f"lcc-{tr}-inductive-p0.json")),
            ("i (strict), p_test 0", "val + all test (~1375)", load(f"lcc-{tr}-inductive-strict-p0.json"))]
    for name, hidden, r in rows:
        if r is None:
            continue
        pcell = "–"
        pr = load(f"peer-inductive-{peer_files[name]}.json") if tr == "inverse-laplacian" and name in peer_files else None
        if pr:
            same = sum(abs(a - b) < 1e-12 for a, b in zip(pr["test_accuracies"], r["test_accuracies"]))
            pcell = f"{pct(pr['test_accuracies'])} ({same}/10 seeds equal)"
        d = [a - b for a, b in zip(r["test_accuracies"], base["test_accuracies"])]
        m, s = ms(d)
        dcell = "" if r is base else f"{100 * m:+.2f} ± {100 * s:.2f} (s.e. {100 * s / math.sqrt(len(d) - 1):.2f})"
        print(f"| {label} | {name} | {hidden} | {pct(r['test_accuracies'])} | {100 * r['val_accuracy_mean']:.2f} | {dcell} "
              f"| {pcell} | {r['no_evidence']} | {r.get('fits', len(r['test_accuracies']))} |")

print()
print("SP-Lap accuracy by group of test nodes (independent scipy implementation, all chunks, 10 seeds pooled):")
print()
groups = ("val_neighbour", "no_val_neighbour", "isolated_when_val_hidden")
print("| setting | " + " | ".join(groups) + " |")
print("|---|" + "---|" * len(groups))
for name, f in peer_files.items():
    pr = load(f"peer-inductive-{f}.json")
    if pr:
        print(f"| {name} | " + " | ".join(
            f"{100 * pr['groups'][g]['accuracy']:.2f} ({pr['groups'][g]['nodes']} nodes)" for g in groups) + " |")

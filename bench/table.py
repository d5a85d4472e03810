"""Markdown tables from the JSON lines of bench/*.sh: per area and data set, every gssl and peer entry with the
median seconds over the rounds, the spread (min–max), the median test accuracy (or the check the area uses),
the median validation accuracy and the model a selection chose (its most frequent choice over the rounds) where
the entry reports them, and for each gssl entry the ratio to the fastest peer.

  table.py OUT.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
groups = defaultdict(lambda: defaultdict(list))
for r in rows:
    groups[(r["area"], r["dataset"])][(bool(r.get("gssl")), r["peer"])].append(r)


def quality(rs):
    for key in ("test_accuracy", "recall", "ari", "rmse", "max_residual", "gram_max_abs_diff"):
        v = [r[key] for r in rs if r.get(key) is not None]
        if v:
            m = statistics.median(v)
            if key == "ari":
                return f"ARI {m:.3f}"
            if key == "rmse":
                return f"RMSE {m:.3f}°"
            return f"{m:.3f}" if key in ("test_accuracy", "recall") else f"{key.split('_')[0]} {m:.1e}"
    return "–"


def chosen(rs):
    v = [r["val_accuracy"] for r in rs if r.get("val_accuracy") is not None]
    val = f"{statistics.median(v):.3f}" if v else "–"
    models = [str(r["model"]) for r in rs if r.get("model")]
    return val, (statistics.mode(models) if models else "–")


def fmt(s):
    return f"{s:.3f}" if s < 10 else f"{s:.1f}"


for (area, ds), entries in groups.items():
    print(f"\n{area} · {ds}\n")
    print("| who | seconds (median) | spread | runs | accuracy | val | model chosen | ratio to fastest peer |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    peers = {k: v for k, v in entries.items() if not k[0]}
    fastest = min((statistics.median(r["seconds"] for r in v), k[1]) for k, v in peers.items()) if peers else None
    for (is_gssl, who), rs in sorted(entries.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
        sec = [r["seconds"] for r in rs]
        med = statistics.median(sec)
        ratio = f"**{med / fastest[0]:.2f}** ({fastest[1]})" if is_gssl and fastest else ""
        val, model = chosen(rs)
        print(f"| {who} | {fmt(med)} | {fmt(min(sec))}–{fmt(max(sec))} | {len(sec)} | {quality(rs)} | {val} | {model} | {ratio} |")

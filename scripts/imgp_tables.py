"""Markdown tables from the JSON written by scripts/bench-imgp.sh (IMGP section of BENCHMARKS.md).
Run:  python3 scripts/imgp_tables.py OUT_DIR
"""
import json
import math
import os
import statistics as st
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def med(v):
    return st.median(v) if v else float("nan")


def main():
    out = sys.argv[1]
    p = os.path.join(out, "side10.jsonl")
    if os.path.exists(p):
        rows = lines(p)
        sk = [r for r in rows if r.get("peer") == "sklearn-GPR-Matern52"]
        go = [r for r in rows if "euclidean_rmse" in r]
        print("### 10 %% labelled, side by side (medians of %d interleaved runs)\n" % len(go))
        print("| model | RMSE | NLL | seconds (fit + predict) |")
        print("|---|---:|---:|---:|")
        if sk:
            print("| scikit-learn GPR Matérn 5/2 + white | %.4f | %.3f | %.1f |" % (sk[0]["rmse"], sk[0]["nll"], med([r["seconds"] for r in sk])))
        if go:
            g = go[0]
            eu = med([r["seconds_euclidean"] + r["seconds_euclidean_predict"] for r in go])
            print("| gssl gp.Regressor Matérn 5/2 + noise | %.4f | %.3f | %.1f |" % (g["euclidean_rmse"], g["euclidean_nll"], eu))
            fit = med([r["seconds_fit"] for r in go])
            print("| gssl IMGP (paper: GMRF training, rank-L prediction) | %.4f | %.3f | %.1f (fit incl. Euclidean GP) |" % (g["rmse"], g["nll"], fit + med([r["seconds_predict"] for r in go])))
            print("| gssl IMGP, rank-L refit | %.4f | %.3f | same run |" % (g["refined_rmse"], g["refined_nll"]))
            if sk:
                print("\nGo / scikit-learn time ratio for the Euclidean GP: %.2f" % (eu / med([r["seconds"] for r in sk])))
            print("\nIMGP stage medians: graph %.1f s, training %.1f s (%d Adam steps, %d CG iterations), eigenpairs %.1f s, Euclidean GP %.1f s, prediction %.1f s" % (
                med([r["seconds_graph"] for r in go]), med([r["seconds_train"] for r in go]), g["adam_steps"], g["cg_iterations"],
                med([r["seconds_eigen"] for r in go]), med([r["seconds_euclidean"] for r in go]), med([r["seconds_predict"] for r in go])))
            print("\nfitted: α %.4g, κ %.4g, σ² %.4g, σ_ε² %.4g; refit κ %.4g, σ_ε² %.4g; Euclidean amplitude %.4g, length %.4g, noise %.3g" % (
                g["alpha"], g["kappa"], g["variance"], g["noise"], g["refined_kappa"], g["refined_noise"], g["euclidean_amplitude"], g["euclidean_length_scale"], g["euclidean_noise"]))
    for name, title in (("sweep.json", "srmnist"), ("curve.json", "synthetic curve")):
        p = os.path.join(out, name)
        if not os.path.exists(p):
            continue
        d = json.load(open(p))
        skl = {}
        sp = os.path.join(out, "sklearn-sweep.jsonl")
        if name == "sweep.json" and os.path.exists(sp):
            for r in lines(sp):
                skl.setdefault(r["params"]["frac"], []).append(r)
        print("\n### Few labels: %s (%d nodes, %d test points; mean ± std over seeds)\n" % (title, d["nodes"], d["test"]))
        hdr = "| labelled | IMGP RMSE | IMGP NLL | IMGP refit RMSE | refit NLL | Euclidean RMSE | Euclidean NLL | Eucl./IMGP | Eucl./refit |"
        if skl:
            hdr += " scikit-learn RMSE | scikit-learn NLL |"
        print(hdr)
        print("|" + "---|" * (hdr.count("|") - 1))
        for s in d["summary"]:
            row = "| %g %% | %.4f ± %.4f | %.3f ± %.3f | %.4f ± %.4f | %.3f ± %.3f | %.4f ± %.4f | %.3f ± %.3f | %.2f | %.2f |" % (
                100 * s["fraction"], s["rmse_mean"], s["rmse_std"], s["nll_mean"], s["nll_std"], s["refined_rmse_mean"], s["refined_rmse_std"],
                s["refined_nll_mean"], s["refined_nll_std"], s["euclidean_rmse_mean"], s["euclidean_rmse_std"], s["euclidean_nll_mean"],
                s["euclidean_nll_std"], s["euclidean_over_imgp_rmse"], s["euclidean_over_refined_rmse"])
            if skl:
                k = min(skl, key=lambda f: abs(f - s["fraction"]))
                rm = [r["rmse"] for r in skl[k]]
                nl = [r["nll"] for r in skl[k]]
                row += " %.4f ± %.4f | %.3f ± %.3f |" % (st.mean(rm), st.pstdev(rm), st.mean(nl), st.pstdev(nl))
            print(row)
    p = os.path.join(out, "scaling.jsonl")
    if os.path.exists(p):
        rows = lines(p)
        by = {}
        for r in rows:
            if "nodes" in r:
                by.setdefault(r["nodes"], {"go": [], "sk": []})["go"].append(r)
            else:
                n = round(r["params"]["n_fit"] / 0.1)
                by.setdefault(n, {"go": [], "sk": []})["sk"].append(r)
        print("\n### Scaling (medians)\n")
        print("| N | graph s | training s | eigenpairs s | IMGP fit s (graph + training + eigen) | CG iterations | IMGP RMSE | scikit-learn GP s (10 %) | scikit-learn RMSE |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        pts = []
        for n in sorted(by):
            go, sk = by[n]["go"], by[n]["sk"]
            if not go:
                continue
            gr, tr, ei = med([r["seconds_graph"] for r in go]), med([r["seconds_train"] for r in go]), med([r["seconds_eigen"] for r in go])
            pts.append((n, gr, tr, ei))
            print("| %d | %.1f | %.1f | %.1f | %.1f | %d | %.4f | %s | %s |" % (n, gr, tr, ei, gr + tr + ei, go[0]["cg_iterations"], go[0]["rmse"],
                  "%.1f" % med([r["seconds"] for r in sk]) if sk else "-", "%.4f" % sk[0]["rmse"] if sk else "-"))
        if len(pts) >= 2:
            def slope(idx):
                xs = [math.log(p[0]) for p in pts]
                ys = [math.log(sum(p[i] for i in idx)) for p in pts]
                mx, my = st.mean(xs), st.mean(ys)
                return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            print("\nslopes of log time against log N (least squares): graph %.2f, training %.2f, eigenpairs %.2f, fit %.2f" % (
                slope([1]), slope([2]), slope([3]), slope([1, 2, 3])))


if __name__ == "__main__":
    main()

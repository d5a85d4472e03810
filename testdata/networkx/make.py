#!/usr/bin/python3
"""Regenerates the NetworkX and pandas fixtures of the edge and label table tests.

Run from this folder with Debian's python3 (networkx, pandas, numpy):

    cd testdata/networkx && /usr/bin/python3 make.py

Every file is written by the tool a user would export with; expected.json
holds the graph they describe. Deterministic: fixed graphs and seeds, gzip
without a time stamp.
"""
import gzip
import json

import networkx as nx
import numpy as np
import pandas as pd

expected = {}


def edges_of(g):
    return sorted([[str(u), str(v), float(d.get("weight", 1.0))] for u, v, d in g.edges(data=True)])


# Integer nodes 0..7, some edges weighted and some not, node 7 isolated (it
# appears in no edge list: the files cannot say it exists).
gi = nx.Graph()
gi.add_nodes_from(range(8))
gi.add_edge(0, 1)
gi.add_edge(1, 2, weight=0.5)
gi.add_edge(2, 3, weight=2.0, color="red")
gi.add_edge(3, 0)
gi.add_edge(4, 5, weight=1.25)
gi.add_edge(5, 6)
nx.write_edgelist(gi, "int_data.edgelist", data=True)      # "0 1 {}", "1 2 {'weight': 0.5}"
nx.write_edgelist(gi, "int_nodata.edgelist", data=False)   # "0 1"
nx.write_edgelist(gi, "int_weight.edgelist", data=["weight"])  # only edges' weight values; missing ones omitted
expected["int"] = {"edges": edges_of(gi), "nodes_in_edges": 7}

# Weighted edge list: every edge has a weight.
gw = nx.Graph()
for u, v, w in [(0, 1, 0.5), (1, 2, 1.5), (2, 0, 3.0), (2, 3, 1e-3), (3, 4, 10.0)]:
    gw.add_edge(u, v, weight=w)
nx.write_weighted_edgelist(gw, "weighted.edgelist")         # "0 1 0.5"
expected["weighted"] = {"edges": edges_of(gw)}

# String node names: users of a social network, weighted.
rng = np.random.default_rng(15)
names = ["user_%d" % i for i in range(12)]
gs = nx.Graph()
gs.add_nodes_from(names)
for i in range(12):
    for j in (i + 1, i + 3):
        if j < 12:
            gs.add_edge(names[i], names[j], weight=float(np.round(rng.uniform(0.1, 2.0), 2)))
nx.write_edgelist(gs, "names_data.edgelist", data=True)    # "user_0 user_1 {'weight': 0.87}"
nx.write_weighted_edgelist(gs, "names_weighted.edgelist")  # "user_0 user_1 0.87"
expected["names"] = {"edges": edges_of(gs), "nodes": names}

# The same graph as pandas exports it: source,target,weight with a header.
df = nx.to_pandas_edgelist(gs)[["source", "target", "weight"]]
df.to_csv("edges.csv", index=False)
df.to_csv("edges_bom.csv", index=False, encoding="utf-8-sig")
df.to_csv("edges_crlf.csv", index=False, lineterminator="\r\n")
df.to_csv("edges.csv.gz", index=False, compression={"method": "gzip", "mtime": 0})
df.to_csv("edges.tsv", index=False, sep="\t")

# Labels with class names; nodes user_3, user_7 and user_10 unlabelled
# (pandas writes NaN as an empty field), user_11 absent from the table.
classes = ["bot", "human", "organisation"]
lab = pd.DataFrame({"id": names[:11], "label": [classes[i % 3] for i in range(11)]})
lab.loc[[3, 7, 10], "label"] = np.nan
lab.to_csv("labels.csv", index=False)
expected["labels"] = {row.id: (None if pd.isna(row.label) else row.label) for row in lab.itertuples()}

# Dense features aligned to a nodes list: row k of features.npy is the node
# on line k of nodes.txt (an order that is not the edge list's).
order = sorted(names, key=lambda s: (len(s), s), reverse=True)
with open("nodes.txt", "w") as f:
    f.write("\n".join(order) + "\n")
feat = np.round(rng.normal(size=(len(order), 5)), 4)
np.save("features.npy", feat)
expected["features"] = {"nodes": order, "values": feat.ravel().tolist(), "dims": list(feat.shape)}

with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")

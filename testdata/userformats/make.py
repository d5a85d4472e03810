#!/usr/bin/python3
"""Regenerates the fixtures of the graph-format and explicit-table tests
(loaders/userformats_test.go).

Every file is written by the tool a user exports with (networkx, numpy,
pandas); expected.json holds the graph each describes, as networkx reads it
back. Run from this folder in a throwaway venv with networkx, pandas, numpy:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install networkx pandas numpy
    cd testdata/userformats && /tmp/venv/bin/python make.py

Deterministic arrays and graphs: fixed graphs and seeds; gzip without a time
stamp (the .npz members carry the time they were written); the
adjacency lists' time-stamp comment is fixed after writing.
"""
import gzip
import json
import re

import networkx as nx
import numpy as np
import pandas as pd

expected = {}


def edges_of(g):
    return sorted(
        [sorted([str(u), str(v)]) + [float(d.get("weight", 1.0))] for u, v, d in g.edges(data=True)]
    )


def fix_stamp(path):
    # write_adjlist writes the command line and the time: make them fixed.
    with open(path) as f:
        lines = f.read().split("\n")
    lines[0] = "#make.py"
    lines[1] = "# GMT Thu Jan  1 00:00:00 1970"
    with open(path, "w") as f:
        f.write("\n".join(lines))


# Zachary's karate club with integer weights and named nodes, one isolated.
rng = np.random.default_rng(29)
g = nx.karate_club_graph()
g = nx.relabel_nodes(g, {i: "member_%d" % i for i in g.nodes})
for u, v in g.edges:
    g[u][v].clear()
    g[u][v]["weight"] = float(rng.integers(1, 6))
g.add_node("loner")
g.graph["name"] = "karate"

nx.write_graphml(g, "karate.graphml")
with open("karate.graphml", "rb") as f, gzip.GzipFile("karate.graphml.gz", "wb", mtime=0) as z:
    z.write(f.read())
nx.write_gml(g, "karate.gml")
expected["karate"] = {
    "edges": edges_of(nx.read_graphml("karate.graphml")),
    "nodes": sorted(str(n) for n in nx.read_graphml("karate.graphml").nodes),
}
assert edges_of(nx.read_gml("karate.gml")) == expected["karate"]["edges"]

# Adjacency lists: write_adjlist has no weights; the multiline one does.
nx.write_adjlist(g, "karate.adjlist")
fix_stamp("karate.adjlist")
nx.write_multiline_adjlist(g, "karate.multiline.adjlist")
fix_stamp("karate.multiline.adjlist")
expected["karate_adjlist"] = {"edges": edges_of(nx.read_adjlist("karate.adjlist"))}
assert edges_of(nx.read_multiline_adjlist("karate.multiline.adjlist")) == expected["karate"]["edges"]

# A directed graph in GraphML with a float weight key and an unweighted edge.
d = nx.DiGraph()
d.add_edge("a", "b", weight=0.5)
d.add_edge("b", "c", weight=2.0)
d.add_edge("c", "a")
nx.write_graphml(d, "directed.graphml")

# PyG-style edge_index arrays of an integer graph (ids 0..9, one self loop
# left out), int64, in both layouts, and a .npz with edge weights.
gi = nx.gnm_random_graph(10, 18, seed=29)
ei = np.array(sorted(gi.edges), dtype=np.int64).T  # (2, E)
np.save("edge_index_2xE.npy", ei)
np.save("edge_index_Ex2.npy", np.ascontiguousarray(ei.T))
np.save("edge_index_fortran.npy", np.asfortranarray(ei))
w = rng.integers(1, 9, size=ei.shape[1]).astype(np.float64)
np.savez_compressed("edge_index.npz", edge_index=ei, edge_weight=w)
expected["edge_index"] = {"edges": sorted([sorted([str(u), str(v)]) + [1.0] for u, v in ei.T.tolist()])}
expected["edge_index_weighted"] = {
    "edges": sorted([sorted([str(u), str(v)]) + [float(x)] for (u, v), x in zip(ei.T.tolist(), w)])
}
# Two edges: the (2, E) and (E, 2) readings differ here...
np.save("edge_index_2x2_ambiguous.npy", np.array([[0, 1], [2, 3]], dtype=np.int64))
# ... and agree here (the edges 0-1 and 1-0 either way).
np.save("edge_index_2x2_same.npy", np.array([[0, 1], [1, 0]], dtype=np.int64))
np.save("edge_index_float.npy", ei.astype(np.float64))

# pandas tables: a weight column named count, labels with a column to choose.
df = nx.to_pandas_edgelist(nx.relabel_nodes(g, {n: n for n in g.nodes}))
df = df.rename(columns={"weight": "count"})
df.to_csv("count.csv", index=False)
expected["count"] = {"edges": expected["karate"]["edges"]}
clubs = nx.get_node_attributes(nx.karate_club_graph(), "club")
lab = pd.DataFrame(
    {
        "name": ["member_%d" % i for i in range(34)],
        "age": rng.integers(18, 70, size=34),
        "club": [clubs[i] for i in range(34)],
    }
)
lab.to_csv("members.csv", index=False)
expected["members"] = {"club": {"member_%d" % i: clubs[i] for i in range(34)}}

# A labels vector one short of the nodes of edge_index_2xE.npy.
np.save("labels_short.npy", np.arange(9, dtype=np.int64) % 3)
np.save("labels_full.npy", np.arange(10, dtype=np.int64) % 3)

with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")

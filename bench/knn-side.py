"""gssl knn against pynndescent (approximate) and scikit-learn brute force (exact) on the first 20 000 MNIST
images, k = 10, alternating in one process, wall and CPU seconds of each search (the CPU seconds say more than the
wall ones on a loaded machine). pynndescent's JIT is warmed up first, untimed; recall against FAISS IndexFlatL2.

  GOMAXPROCS=2 OMP_NUM_THREADS=2 NUMBA_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 .venv-peers/bin/python bench/knn-side.py GSSL_BINARY

One JSON line per run on stdout (3 rounds of the approximate pair, 2 of the exact pair).
"""
import gzip, json, os, resource, subprocess, sys, time
import numpy as np
n, k = 20000, 10
gssl = sys.argv[1]
DATA = os.environ.get("DATA", "/work/shared/data")
with gzip.open(os.path.join(DATA, 'mnist/images_u8.bin.gz'), 'rb') as fh:
    X = np.frombuffer(fh.read(n * 784), dtype=np.uint8).reshape(n, 784).astype(np.float32)
import faiss, pynndescent
faiss.omp_set_num_threads(2)
idx = faiss.IndexFlatL2(784); idx.add(X); _, I = idx.search(X, k + 1)
ref = np.array([[j for j in row if j != i][:k] for i, row in enumerate(I)])
pynndescent.NNDescent(X[:2000], n_neighbors=k + 1, n_jobs=2)  # JIT, not timed
def recall(I):
    I = np.array([[j for j in row if j != i][:k] for i, row in enumerate(I)])
    return float(np.mean([len(set(a) & set(b)) / k for a, b in zip(I, ref)]))
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
print("load before", os.getloadavg(), flush=True)
for r in range(3):
    out = subprocess.run([gssl, "knn", "--images", os.path.join(DATA, "mnist"), "--n", str(n), "--neighbors", str(k),
                          "--approximate", "--json"], capture_output=True, text=True, env=dict(os.environ, GOMAXPROCS="2")).stdout
    o = json.loads(out)
    print(json.dumps(dict(round=r, who="gssl knn --approximate", seconds=o["seconds"], cpu_seconds=o["cpu_seconds"], recall=o["recall"])), flush=True)
    c, t = cpu(), time.perf_counter()
    I, _ = pynndescent.NNDescent(X, n_neighbors=k + 1, n_jobs=2, random_state=0).neighbor_graph
    s, cs = time.perf_counter() - t, cpu() - c
    print(json.dumps(dict(round=r, who=f"pynndescent {pynndescent.__version__ if hasattr(pynndescent,'__version__') else ''} NNDescent", seconds=s, cpu_seconds=cs, recall=recall(I))), flush=True)
import sklearn
from sklearn.neighbors import NearestNeighbors
for r in range(2):
    out = subprocess.run([gssl, "knn", "--images", os.path.join(DATA, "mnist"), "--n", str(n), "--neighbors", str(k), "--recall-sample", "0",
                          "--json"], capture_output=True, text=True, env=dict(os.environ, GOMAXPROCS="2")).stdout
    o = json.loads(out)
    print(json.dumps(dict(round=r, who="gssl knn (exact)", seconds=o["seconds"], cpu_seconds=o["cpu_seconds"])), flush=True)
    c, t = cpu(), time.perf_counter()
    I = NearestNeighbors(n_neighbors=k + 1, algorithm="brute", n_jobs=2).fit(X).kneighbors(X)[1]
    s, cs = time.perf_counter() - t, cpu() - c
    print(json.dumps(dict(round=r, who=f"scikit-learn {sklearn.__version__} NearestNeighbors brute", seconds=s, cpu_seconds=cs, recall=recall(I))), flush=True)
print("load after", os.getloadavg(), flush=True)

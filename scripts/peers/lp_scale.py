"""Label spreading in plain scipy on a node folder (edges.txt, labels.txt, split_planetoid.txt): the scale peer.
Usage: lp_scale.py DIR ALPHA   -> prints {"load": s, "solve": s, "acc": test accuracy} as JSON.
Load = np.fromstring of the edge list + COO->CSR + normalisation; solve = one scipy CG per class, tol 1e-6.
The shared ../shared/bench/peers/lp_scale.py with one change: SciPy 1.12 renamed cg's tol to rtol and 1.14
removed tol, so the shared script fails under the peer venv's SciPy (bench/peers.lock)."""
import json, sys, time, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as sla
d=sys.argv[1]; a=float(sys.argv[2])
t0=time.perf_counter()
e=np.fromstring(open(d+"/edges.txt").read(), dtype=np.int64, sep=" ").reshape(-1,2)
lab=np.fromstring(open(d+"/labels.txt").read(), dtype=np.int64, sep="\n")
n=len(lab)
W=sp.coo_matrix((np.ones(len(e)),(e[:,0],e[:,1])),shape=(n,n)).tocsr(); W=W+W.T; W.data[:]=1
deg=np.asarray(W.sum(1)).ravel(); dm=1/np.sqrt(deg); S=sp.diags(dm)@W@sp.diags(dm); S=S.tocsr()
tr=[];te=[]
for line in open(d+"/split_planetoid.txt"):
    k,i=line.split(); (tr if k=="train" else te if k=="test" else []).append(int(i))
tr=np.array(tr); te=np.array(te)
t1=time.perf_counter()
c=lab.max()+1; Y=np.zeros((n,c)); Y[tr,lab[tr]]=1
A=sp.identity(n,format='csr')-a*S
F=np.zeros((n,c))
for j in range(c):
    F[:,j],info=sla.cg(A,(1-a)*Y[:,j],rtol=1e-6)
t2=time.perf_counter()
print(json.dumps({"load":t1-t0,"solve":t2-t1,"acc":float(np.mean(F[te].argmax(1)==lab[te]))}))

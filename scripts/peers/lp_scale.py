"""Label spreading in plain scipy on a node folder (edges.txt, labels.txt, split_planetoid.txt): the scale peer.
Usage: lp_scale.py DIR ALPHA [--stream]   -> prints {"load": s, "solve": s, "acc": test accuracy} as JSON.
Load = np.fromstring of the edge list + COO->CSR + normalisation; solve = one scipy CG per class, tol 1e-6.
The shared ../shared/bench/peers/lp_scale.py with cg's rtol (SciPy 1.12 renamed cg's tol to rtol and 1.14
removed tol, so the shared script fails under the peer venv's SciPy, bench/peers.lock), phase lines on stderr
and --stream; without --stream its load and solve are the shared script's.

Each phase is announced on stderr ("lp_scale.py: <seconds> s: <phase>"), so that a run stopped from outside (the
memory watchdog of scripts/bench-scale.sh at a billion edges) says where it was.

--stream is what a careful SciPy user does at a size where the text does not fit beside its parse: the edge
list is read in 256 MiB blocks, each parsed into int32 pairs (a block's tail after its last newline carried to
the next), copied into one int32 array as the blocks are freed, and the CSR is built with float32 weights and
int32 indices (SciPy keeps int32 while the stored entries number under 2^31). Same graph, same solve."""
import json, sys, time, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as sla
d=sys.argv[1]; a=float(sys.argv[2]); stream="--stream" in sys.argv[3:]
t0=time.perf_counter()
def phase(what):
    print(f"lp_scale.py: {time.perf_counter()-t0:.1f} s: {what}", file=sys.stderr, flush=True)
def edges_streamed(path, block=1<<28):
    parts=[]; tail=b""
    with open(path,"rb") as f:
        while True:
            buf=f.read(block)
            if not buf: break
            buf=tail+buf; cut=buf.rfind(b"\n")+1; tail=buf[cut:]
            parts.append(np.fromstring(buf[:cut], dtype=np.int32, sep=" "))
            phase(f"parsed {sum(len(p) for p in parts)//2} edges")
    if tail.strip(): parts.append(np.fromstring(tail, dtype=np.int32, sep=" "))
    e=np.empty(sum(len(p) for p in parts), dtype=np.int32); at=0
    parts.reverse()
    while parts:
        p=parts.pop(); e[at:at+len(p)]=p; at+=len(p)
    return e.reshape(-1,2)
if stream:
    phase("reading and parsing the edge list in blocks (int32)")
    e=edges_streamed(d+"/edges.txt")
else:
    phase("reading the edge list into a string")
    s=open(d+"/edges.txt").read()
    phase("parsing it into int64 pairs")
    e=np.fromstring(s, dtype=np.int64, sep=" ").reshape(-1,2); del s
phase(f"{len(e)} edges read; reading the labels")
lab=np.fromstring(open(d+"/labels.txt").read(), dtype=np.int64, sep="\n")
n=len(lab)
phase("COO -> CSR")
wt=np.float32 if stream else np.float64
W=sp.coo_matrix((np.ones(len(e),dtype=wt),(e[:,0],e[:,1])),shape=(n,n)).tocsr(); del e
phase("W + W^T")
W=W+W.T; W.data[:]=1
phase("normalising")
deg=np.asarray(W.sum(1)).ravel(); dm=1/np.sqrt(deg); S=sp.diags(dm)@W@sp.diags(dm); S=S.tocsr()
tr=[];te=[]
for line in open(d+"/split_planetoid.txt"):
    k,i=line.split(); (tr if k=="train" else te if k=="test" else []).append(int(i))
tr=np.array(tr); te=np.array(te)
t1=time.perf_counter()
phase("solving")
c=lab.max()+1; Y=np.zeros((n,c)); Y[tr,lab[tr]]=1
A=sp.identity(n,format='csr')-a*S
F=np.zeros((n,c))
for j in range(c):
    F[:,j],info=sla.cg(A,(1-a)*Y[:,j],rtol=1e-6)
t2=time.perf_counter()
print(json.dumps({"load":t1-t0,"solve":t2-t1,"acc":float(np.mean(F[te].argmax(1)==lab[te]))}))

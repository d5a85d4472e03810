#!/usr/bin/env bash
# Creates the peer environment: a project-local virtual environment .venv-peers/ (gitignored) with the pinned
# versions of bench/peers.lock (scikit-learn, SciPy, numpy, PyTorch, PyTorch Geometric, GraKeL, GPyTorch,
# faiss-cpu, hnswlib, pynndescent and their dependencies), then tries falkon and nash169/manifold-gp from local
# copies of their sources, and writes what it got to bench/peers-versions.txt.
#
#   bench/peers-env.sh [FALKON_SRC] [MANIFOLD_GP_SRC]
#
# FALKON_SRC / MANIFOLD_GP_SRC: git checkouts (or bare git directories) of FalkonML/falkon and
# nash169/manifold-gp; without them those two are recorded as not installed. Nothing of their code is kept in
# this repository. VENV (default .venv-peers of this checkout) chooses the environment, so that a worktree can
# complete a shared one.
#
# falkon is built CPU-only (FORCE_ONLY_CPU=1: its CUDA kernels need nvcc, which is not here) by torch's
# cpp_extension through ninja, MAX_JOBS (default 2) compilers at a time under nice -n 19 (they yield to timed
# runs; 55 min at load average 4-18); the full log is kept in $VENV/falkon-build.log, and an installed falkon
# of the source's version that fits a small model is kept. It is installed without its declared dependencies:
# all but pykeops/keopscore/wheel are in the lock, and falkon uses KeOps only for inputs of at most 50
# dimensions (falkon/kernels/keops_helpers.py), importing it lazily.
#
# PyPI's torch wheel for Linux x86_64 is the CUDA build: it pulls in the nvidia-* and cuda-* wheels (cuDNN,
# cuBLAS, NCCL, triton, ...; see peers.lock), 4.0 GB of the venv's 5.9 GB, although the peers run on the CPU only. PyPI has no
# CPU-only torch wheel; the CPU one lives on another index this project's machines do not reach.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-$(pwd)/.venv-peers}
PY=${PYTHON:-python3}
FALKON_SRC=${1:-${FALKON_SRC:-}}
MGP_SRC=${2:-${MANIFOLD_GP_SRC:-}}
OUT=bench/peers-versions.txt
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --progress-bar off -q -r bench/peers.lock
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# checkout SRC NAME: a work tree of SRC (a checkout, or a bare git directory as the fetch tool leaves them).
checkout() {
	if [ -d "$1/.git" ] || [ -f "$1/setup.py" ]; then
		cp -r "$1" "$tmp/$2"
	else
		git clone -q "$1" "$tmp/$2"
	fi
	echo "$tmp/$2"
}

: > "$tmp/extra.txt"
if [ -n "$FALKON_SRC" ]; then
	src=$(checkout "$FALKON_SRC" falkon)
	rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
	ver=$(cat "$src/falkon/VERSION")
	# falkon_works: the installed falkon is this version and fits a small model on the CPU (its C++ extension
	# is loaded on first use, by the preconditioner's Cholesky).
	falkon_works() {
		(cd "$tmp" && "$VENV/bin/python" -c 'import sys, torch, falkon
assert falkon.__version__ == sys.argv[1], falkon.__version__
m = falkon.Falkon(kernel=falkon.kernels.GaussianKernel(1.0), penalty=1e-3, M=10, maxiter=5,
                  options=falkon.FalkonOptions(use_cpu=True)).fit(torch.randn(50, 3), torch.randn(50, 1))
assert torch.isfinite(m.predict(torch.randn(5, 3))).all()' "$ver" > "$tmp/falkon-import.log" 2>&1)
	}
	if falkon_works; then
		echo "falkon $ver (source $rev): installed, CPU-only C++ extension (kept from an earlier build of this script; its log: $VENV/falkon-build.log); pykeops not installed (unused for d > 50)" >> "$tmp/extra.txt"
	else
		# falkon compiles its C++ extension against the installed torch; no CUDA toolkit here, so a CPU-only build.
		start=$(date +%s)
		if env FORCE_ONLY_CPU=1 MAX_JOBS="${MAX_JOBS:-2}" nice -n 19 "$VENV/bin/python" -m pip install --progress-bar off -v \
			--no-build-isolation --no-deps "$src" > "$VENV/falkon-build.log" 2>&1 && falkon_works; then
			echo "falkon $ver (source $rev): installed, CPU-only C++ extension built in $((($(date +%s) - start) / 60)) min (MAX_JOBS=${MAX_JOBS:-2}, nice 19); pykeops not installed (unused for d > 50)" >> "$tmp/extra.txt"
		else
			echo "falkon (source $rev): did not build or run after $((($(date +%s) - start) / 60)) min: $( (grep -E '\berror:|Error:' "$VENV/falkon-build.log"; tail -1 "$tmp/falkon-import.log" 2>/dev/null) | head -3 | tr '\n' ' ')" >> "$tmp/extra.txt"
		fi
	fi
else
	echo "falkon: not installed (no FALKON_SRC given)" >> "$tmp/extra.txt"
fi
if [ -n "$MGP_SRC" ]; then
	src=$(checkout "$MGP_SRC" manifold-gp)
	rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
	# manifold-gp declares faiss-gpu, torch-scatter and torch-sparse, and imports jaxtyping without declaring it
	# (pinned in the lock); install it without them and see whether its modules import with faiss-cpu and the
	# torch of the lock file.
	if "$VENV/bin/python" -m pip install --progress-bar off -q --no-deps "$src" > "$tmp/mgp.log" 2>&1 &&
		(cd "$tmp" && "$VENV/bin/python" -c 'import manifold_gp.kernels, manifold_gp.models' > "$tmp/mgp-import.log" 2>&1); then
		echo "manifold-gp (source $rev): installed" >> "$tmp/extra.txt"
	else
		echo "manifold-gp (source $rev): does not run: $(tail -1 "$tmp/mgp-import.log" 2>/dev/null || grep -i error "$tmp/mgp.log" | head -2)" >> "$tmp/extra.txt"
	fi
else
	echo "manifold-gp: not installed (no MANIFOLD_GP_SRC given)" >> "$tmp/extra.txt"
fi

{
	echo "# written by bench/peers-env.sh: what the peer environment holds"
	"$VENV/bin/python" - <<'PY'
import importlib, platform
print("python", platform.python_version())
for mod, name in [("numpy", "numpy"), ("scipy", "scipy"), ("sklearn", "scikit-learn"), ("torch", "torch"),
                  ("torch_geometric", "torch-geometric"), ("grakel", "grakel"), ("gpytorch", "gpytorch"),
                  ("faiss", "faiss-cpu"), ("hnswlib", "hnswlib"), ("pynndescent", "pynndescent")]:
    try:
        m = importlib.import_module(mod)
        from importlib.metadata import version
        print(name, getattr(m, "__version__", None) or version(name))
    except Exception as e:
        print(name, "IMPORT FAILED:", repr(e)[:200])
PY
	cat "$tmp/extra.txt"
	echo "venv size: $(du -sh "$VENV" | cut -f1); of it nvidia-*/cuda-*/triton (pulled in by PyPI's torch): $(du -csh "$VENV"/lib/python3*/site-packages/nvidia* "$VENV"/lib/python3*/site-packages/cuda* "$VENV"/lib/python3*/site-packages/triton* 2>/dev/null | tail -1 | cut -f1)"
} > "$OUT"
cat "$OUT"

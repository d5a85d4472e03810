"""Write the labelled subsets of the IMGP few-label experiment (srmnist).

For each fraction f and seed s: numpy.random.default_rng(s).choice(N, round(f*N), replace=False),
the rule shared/bench/peers/gp.py uses (seed 0, f = 0.1 and 0.01 reproduce its
train_subset10_seed0.txt and train_subset1_seed0.txt exactly), written in that order to
OUT/train_subset<100f>_seed<s>.txt. numpy's streams cannot be reproduced in Go, so both
sides read these files.
Run:  /usr/bin/python3 scripts/imgp_subsets.py OUT [N]
"""
import os
import sys

import numpy as np

FRACS = [0.005, 0.01, 0.02, 0.05, 0.1]
SEEDS = range(5)


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10010
    os.makedirs(out, exist_ok=True)
    for f in FRACS:
        for s in SEEDS:
            sub = np.random.default_rng(s).choice(n, int(round(f * n)), replace=False)
            np.savetxt(os.path.join(out, f"train_subset{f * 100:g}_seed{s}.txt"), sub, fmt="%d")


if __name__ == "__main__":
    main()

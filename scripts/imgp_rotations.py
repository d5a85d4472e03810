"""Write rotated-MNIST regression folders of growing size for the IMGP scaling benchmark.

For D base digits (the first D/10 MNIST training images of each label, in label order then
file order, from shared/data/mnist) every digit is rotated by each of A = 500 angles
numpy.linspace(-45, 45, 500) for training (N = 500·D nodes) and by 20 angles
linspace(-45, 45, 20) + 0.09 for testing, with gp.py's rotation (scipy.ndimage.rotate,
order=1, reshape=False, mode='constant', cval=0, then clip(rint(.), 0, 255) as uint8).
N = 2500, 5000, 10000, 20000 use D = 5, 10, 20, 40. Files as in shared/data/srmnist
(train/test_images_u8.bin.gz, train/test_angles.txt) in OUT/N<N>/.
Run:  /usr/bin/python3 scripts/imgp_rotations.py MNIST_DIR OUT [N...]
"""
import gzip
import os
import sys

import numpy as np
from scipy.ndimage import rotate


def load_train(mnist_dir):
    with gzip.open(os.path.join(mnist_dir, "images_u8.bin.gz"), "rb") as f:
        x = np.frombuffer(f.read(), dtype=np.uint8).reshape(-1, 784)
    labels = np.loadtxt(os.path.join(mnist_dir, "labels.txt"), dtype=np.int64)
    part = np.array([l.split()[0] for l in open(os.path.join(mnist_dir, "origin.txt"))])
    return x, labels, part


def main():
    mnist_dir, out = sys.argv[1], sys.argv[2]
    sizes = [int(v) for v in sys.argv[3:]] or [2500, 5000, 10000, 20000]
    x, labels, part = load_train(mnist_dir)
    tr = np.flatnonzero(part == "train")
    for n in sizes:
        d = n // 500
        per = max(1, d // 10)
        base = []
        for k in range(per):
            for lab in range(10):
                if len(base) < d:
                    base.append(x[tr[np.flatnonzero(labels[tr] == lab)[k]]])
        folder = os.path.join(out, f"N{n}")
        os.makedirs(folder, exist_ok=True)
        for name, angles in (("train", np.linspace(-45, 45, 500)), ("test", np.linspace(-45, 45, 20) + 0.09)):
            imgs, angs = [], []
            for img in base:
                im = img.reshape(28, 28).astype(np.float64)
                for a in angles:
                    r = rotate(im, a, reshape=False, order=1, mode="constant", cval=0.0)
                    imgs.append(np.clip(np.rint(r), 0, 255).astype(np.uint8).ravel())
                    angs.append(a)
            with gzip.open(os.path.join(folder, f"{name}_images_u8.bin.gz"), "wb") as f:
                f.write(np.stack(imgs).tobytes())
            np.savetxt(os.path.join(folder, f"{name}_angles.txt"), np.array(angs), fmt="%.6f")
        print(folder, len(base) * 500, file=sys.stderr)


if __name__ == "__main__":
    main()

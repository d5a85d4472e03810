import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gssl_cli(tmp_path_factory):
    """The gssl CLI of this checkout: $GSSL_CLI, or built with go build."""
    if os.environ.get("GSSL_CLI"):
        return os.environ["GSSL_CLI"]
    go = os.environ.get("GO") or shutil.which("go")
    assert go, "the tests compare with the CLI and need Go to build it (or GSSL_CLI=path/to/gssl)"
    out = tmp_path_factory.mktemp("cli") / "gssl"
    subprocess.run([go, "build", "-o", str(out), "./cmd/gssl"], cwd=ROOT, check=True)
    return str(out)


def run_cli(cli, *args, cwd=None):
    r = subprocess.run([cli, *args], capture_output=True, text=True, cwd=cwd)
    assert r.returncode == 0, f"gssl {' '.join(args)} failed:\n{r.stderr}"
    return r.stdout


def shared_path(*parts):
    """A path inside the project's shared folder (data sets), as Go's
    internal/sharedtest finds it: $GSSL_SHARED, else the first "shared"
    directory holding ALGORITHMS.md above the checkout. Without one the test
    skips with one line saying so (fails under GSSL_REQUIRE_SHARED=1)."""
    root = os.environ.get("GSSL_SHARED")
    if not root:
        for d in [ROOT, *ROOT.parents]:
            if (d / "shared" / "ALGORITHMS.md").is_file():
                root = str(d / "shared")
                break
    p = Path(root, *parts) if root else None
    if p is None or not p.exists():
        what = "/".join(parts)
        msg = f"needs shared/{what} (set GSSL_SHARED, or clone next to shared/)"
        if os.environ.get("GSSL_REQUIRE_SHARED") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return p

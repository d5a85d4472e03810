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

"""The README's Python example runs and prints the CLI's test accuracy."""

import contextlib
import doctest
import io
import json
import re
from pathlib import Path

import gssl
from conftest import ROOT, run_cli


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", Path(path).read_text(encoding="utf-8"), re.S)


def test_readme_example_prints_the_cli_accuracy(gssl_cli, tmp_path, monkeypatch):
    res = json.loads(run_cli(gssl_cli, "labelprop", "--alpha", "0.9", "--split", "planetoid", "--json"))
    monkeypatch.chdir(tmp_path)
    for readme in (ROOT / "README.md", ROOT / "python" / "README.md"):
        blocks = python_blocks(readme)
        assert blocks, f"{readme} has no Python example"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(blocks[0], str(readme), "exec"), {})
        assert out.getvalue() == f"test accuracy {res['test_accuracy']:.4f}\n"


def test_package_doctest():
    r = doctest.testmod(gssl, verbose=False)
    assert r.attempted > 0 and r.failed == 0

"""PEP 517 build backend of the gssl Python package.

It compiles the Go library of the checkout this folder belongs to with
``go build -buildmode=c-shared ./capi`` and writes a wheel holding the
``gssl`` package and ``libgssl`` beside it. It needs Go (the version of the
repository's go.mod) on PATH, or its path in the GO environment variable;
nothing else beyond the standard library.
"""

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # python/
ROOT = HERE.parent  # the repository's root (go.mod)


def _project():
    with open(HERE / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _libname():
    if sys.platform == "darwin":
        return "libgssl.dylib"
    if sys.platform == "win32":
        return "gssl.dll"
    return "libgssl.so"


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def _metadata(p):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p.get('description', '')}",
        f"Requires-Python: {p.get('requires-python', '')}",
    ]
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    for extra, deps in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + text


def _build_library(out):
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        raise RuntimeError(
            "gssl: building the package needs Go (https://go.dev/dl/) on PATH, or its path in GO: "
            "the library is compiled from the checkout with go build -buildmode=c-shared ./capi"
        )
    if not (ROOT / "go.mod").exists() or not (ROOT / "capi").is_dir():
        raise RuntimeError(f"gssl: {ROOT} is not a gssl checkout (no go.mod and capi/): build from the repository")
    cmd = [go, "build", "-trimpath", "-buildmode=c-shared", "-o", str(out), "./capi"]
    print("gssl build:", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=ROOT, check=True)


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _dist_info(p):
    return f"{p['name']}-{p['version']}.dist-info"


def _write_metadata_dir(directory, p):
    d = Path(directory) / _dist_info(p)
    d.mkdir(parents=True, exist_ok=True)
    (d / "METADATA").write_text(_metadata(p), encoding="utf-8")
    (d / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: gssl_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n", encoding="utf-8"
    )
    return d.name


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_metadata_dir(metadata_directory, _project())


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    name = f"{p['name']}-{p['version']}-{_tag()}.whl"
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / _libname()
        _build_library(lib)
        files = {}
        for f in sorted((HERE / "gssl").rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".so", ".dylib", ".dll", ".h"):
                files[str(f.relative_to(HERE)).replace(os.sep, "/")] = f.read_bytes()
        files[f"gssl/{_libname()}"] = lib.read_bytes()
        meta = Path(tmp) / "meta"
        info = _write_metadata_dir(meta, p)
        for f in sorted((meta / info).iterdir()):
            files[f"{info}/{f.name}"] = f.read_bytes()
        record = [_record_line(n, b) for n, b in files.items()] + [f"{info}/RECORD,,"]
        files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
        path = Path(wheel_directory) / name
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for n, b in files.items():
                zi = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
                zi.external_attr = (0o755 if n.endswith(_libname()) else 0o644) << 16
                zi.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(zi, b)
    return name

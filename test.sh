#!/usr/bin/env bash
# The tests: install (first time only), check notebooks and steb_lib/ agree, run every notebook, then pytest.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/install.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 STEB_RAW_DIR=${STEB_RAW_DIR:-$(pwd)/../shared/steb-raw}
export STEB_CACHE=$(mktemp -d)   # tests never touch the user's cache
.venv/bin/nbdev_export
if [ -d .git ] && [ -n "$(git status --porcelain -- steb_lib)" ]; then
  echo "steb_lib/ differs from what the notebooks export; run nbdev_export and commit:"; git status --porcelain -- steb_lib; exit 1
fi
.venv/bin/nbdev_test --n_workers 2
.venv/bin/python -m pytest -q tests

#!/usr/bin/env bash
# The tests: install (first time only), check notebooks and steb_lib/ agree, static checks (ruff), run the library
# notebooks, then pytest (which builds the site: every paper notebook executed, every page loaded in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/install.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 STEB_RAW_DIR=${STEB_RAW_DIR:-$(pwd)/../shared/steb-raw}
export STEB_CACHE=$(mktemp -d)   # tests never touch the user's cache
export STEB_TABLES_DIR=$(mktemp -d) STEB_FIGURES_DIR=$(mktemp -d)   # executed notebooks never write over tables/, figures/
snapshot() { find steb_lib -name '*.py' -print0 | sort -z | xargs -0 sha256sum; }
before=$(snapshot)
.venv/bin/nbdev_export
if [ "$before" != "$(snapshot)" ]; then
  echo "steb_lib/ differed from what the notebooks export (nbdev_export has now rewritten it; never edit steb_lib/ by hand):"
  diff <(echo "$before") <(snapshot) || true; exit 1
fi
.venv/bin/ruff check --quiet   # pyflakes rules on steb_lib/, scripts/, tests/ (pyproject.toml): undefined names, unused imports
command -v chromium >/dev/null || bash scripts/install_chromium.sh   # the site test loads every page in it
.venv/bin/nbdev_test --n_workers 2 --path nbs/lib   # library notebooks; the paper notebooks run in tests/test_site.py
# two workers, a test file each, longest first (tests/conftest.py; --no-loadscope-reorder keeps that order)
.venv/bin/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder --durations=25 tests

#!/usr/bin/env bash
# The tests: install (first time only), check notebooks and steb_lib/ agree, static checks (ruff), run the library
# notebooks, execute the paper notebooks, then pytest (which builds the site from them and loads every page in headless
# Chromium).
# At the end (also after a failure) it prints the wall time of each phase; pytest prints its 25 slowest tests.
set -euo pipefail
cd "$(dirname "$0")"
PHASES=() T0=$SECONDS
report() {
  local rc=$?; echo; echo "test.sh phases (wall seconds):"
  for p in "${PHASES[@]}"; do echo "  $p"; done
  echo "  total $((SECONDS - T0)) s, exit $rc"
}
trap report EXIT
phase() {   # phase NAME COMMAND...: run it, note its wall time (and that it failed, if it did)
  local name=$1 t=$SECONDS rc=0; shift
  "$@" || rc=$?
  PHASES+=("$(printf '%-12s %5d s' "$name" $((SECONDS - t)))$([ $rc = 0 ] || echo "  FAILED ($rc)")")
  return $rc
}

phase install bash scripts/install.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 STEB_RAW_DIR=${STEB_RAW_DIR:-$(pwd)/../shared/steb-raw}
# every phase runs two things or more at once (notebooks, pytest workers) on the 2 cores: torch and numpy's OpenBLAS
# get one compute thread each, so that their pools do not oversubscribe the cores (a MiniLM evaluation under that
# load: 28% less CPU, same score; OpenBLAS's idle threads spin). The one test that compares all-to-all AUROCs exactly
# with numbers made on two BLAS threads sets two for its runs (tests/test_parity.py; issue 42 certifies the rest)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export STEB_CACHE=$(mktemp -d)   # tests never touch the user's cache
export STEB_TABLES_DIR=$(mktemp -d) STEB_FIGURES_DIR=$(mktemp -d)   # executed notebooks never write over tables/, figures/
snapshot() { find steb_lib -name '*.py' -print0 | sort -z | xargs -0 sha256sum; }
export_check() {
  local before; before=$(snapshot)
  .venv/bin/nbdev_export || return 1
  if [ "$before" != "$(snapshot)" ]; then
    echo "steb_lib/ differed from what the notebooks export (nbdev_export has now rewritten it; never edit steb_lib/ by hand):"
    diff <(echo "$before") <(snapshot) || true; return 1
  fi
}
phase export export_check
phase ruff .venv/bin/ruff check --quiet   # pyflakes rules on steb_lib/, scripts/, tests/ (pyproject.toml)
command -v chromium >/dev/null || phase chromium bash scripts/install_chromium.sh   # the site test loads every page in it
logged() {   # logged LOG COMMAND...: run it with its output into LOG, its wall seconds and exit code into LOG.phase
  local log=$1 t=$SECONDS rc=0; shift
  "$@" > "$log" 2>&1 || rc=$?
  echo "$((SECONDS - t)) $rc" > "$log.phase"
}
at_once() {   # at_once NAME1 NAME2: run the phases named by the functions of those names together, then show their
  local d t=$SECONDS failed=0 secs rc name; d=$(mktemp -d)   # output, one after the other, and note their times
  for name in "$@"; do logged "$d/$name" "$name" & done
  wait
  for name in "$@"; do
    echo "== $name"; cat "$d/$name"
    read -r secs rc < "$d/$name.phase"
    PHASES+=("$(printf '%-12s %5d s' "$name" "$secs")  (at once)$([ "$rc" = 0 ] || echo "  FAILED ($rc)")")
    [ "$rc" = 0 ] || failed=1
  done
  PHASES+=("$(printf '%-12s %5d s' "(together)" $((SECONDS - t)))")
  return $failed
}
# the library notebooks: the two longest (job/86_main_job, 05_chunking: 146 and 97 s of 580) in a runner of their own,
# started at once, where nbdev_test's name order ran the main job's last (the phase: 336 s; so, 323 s: CPU-bound)
LONG_NOTEBOOKS='^(86_main_job|05_chunking)\.ipynb$'
nbdev_test() { .venv/bin/nbdev_test --n_workers 2 --timing --path nbs/lib --skip_file_re "^[_.]|$LONG_NOTEBOOKS"; }
nbdev_long() { .venv/bin/nbdev_test --n_workers 1 --timing --path nbs/lib --file_re "$LONG_NOTEBOOKS"; }
# the paper notebooks, executed once, two at a time (slow cells skipped, as nbdev_test skips them): the site build
# (tests/test_site.py) shows these executions and the tests that check the defaults' outputs read them
notebooks() { .venv/bin/python scripts/build_site.py --execute-into "$STEB_EXECUTED_NOTEBOOKS"; }
export STEB_EXECUTED_NOTEBOOKS=$(mktemp -d)
# the two at once: each ends on one long notebook with a core idle (four processes on the two cores: with numpy's BLAS
# on two threads each, 294 s for the two; on one, 259 s)
at_once nbdev_long nbdev_test notebooks
# three workers on the 2 cores, a test file each, longest first (tests/conftest.py; --no-loadscope-reorder keeps that
# order): many tests wait (the SLURM cluster's scheduling and time limits, a browser's network-idle wait, a killed run's
# restart): with three the cores are 99.6% busy in this phase, and it takes 1,332 s where two took 1,577 (2026-12-07)
phase pytest .venv/bin/python -m pytest -q -n 3 --dist loadfile --no-loadscope-reorder --durations=25 tests

"""Which differences are real (issue 57), through the `steb` console script and the exported modules, on the committed
stores: every result's per-sample outputs give its main score again bit for bit, `steb table --ci` prints intervals,
rank intervals and the models not separable from #1, `steb compare` paired differences, and `steb verify` refuses a
store whose per-sample outputs were damaged."""
import os, shutil, subprocess, sys
from pathlib import Path

import numpy as np
import pytest

from steb_lib.bootstrap import interval_refusal
from steb_lib.eval.results import load_results, read_samples, result_path, result_system
from steb_lib.tasks.task_data import task_spec

ROOT = Path(__file__).resolve().parents[1]
STORES = ("lite", "lite-truncate", "lite-parity")
STEB = [str(Path(sys.executable).parent / "steb")]
ENV = os.environ | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def steb(*args):
    return subprocess.run(STEB + [str(a) for a in args], env=ENV, capture_output=True, text=True)


def store_results(store):
    base = ROOT / "data" / "results" / store
    dirs = [base] if (base / "random").is_dir() or store != "lite-parity" else sorted(p for p in base.iterdir() if p.is_dir())
    return [(d, r) for d in dirs for r in load_results(d)]


@pytest.mark.parametrize("store", STORES)
def test_every_committed_result_gives_its_main_score_again_from_its_per_sample_outputs(store):
    checked = set()
    for d, r in store_results(store):
        samples = read_samples(result_path(d, result_system(r), r["dataset"], r["task"]), r)
        if r.get("scoring", "mean") != "mean": continue   # MaxSim scoring keeps none (late interaction)
        assert samples is not None, f"{d}: {r['model']}/{r['dataset']}/{r['task']} has no per-sample outputs"
        assert task_spec(r["task"]).main_from_samples(samples) == r["main_score"]   # bit for bit
        b = r["bootstrap"]
        assert b["replicates"] == 1000 and b["level"] == 0.95 and b["draws"].startswith("seeded by sha256")
        main = samples[f"replicates.{task_spec(r['task']).main_metric}"]
        assert main.shape == (1000,) and np.isfinite(main).all()
        metric = task_spec(r["task"]).main_metric
        interval, why = b["intervals"][metric], b.get("refused", {}).get(metric, "")   # None: and why
        assert why == interval_refusal(main, r["main_score"], b["units"]), r
        if interval is not None: assert interval[0] - 1e-12 <= r["main_score"] <= interval[1] + 1e-12, r
        else: assert why in ("biased", "at extremes", "no spread") or why == f"{b['units']} units" and b["units"] < 20
        checked.add(r["task"])
    assert checked >= ({"predefined", "retrieval"} if store == "lite-truncate" else
                       {"clustering", "all_to_all", "predefined", "order_alignment", "retrieval", "probing"})


def test_the_draws_are_paired_across_models():
    by_sample = {}
    for d, r in store_results("lite"):
        by_sample.setdefault((r["dataset"], r["task"]), set()).add(r["bootstrap"]["draws"])
    assert all(len(draws) == 1 for draws in by_sample.values()), by_sample


def test_steb_table_ci_prints_intervals_ranks_and_ties():
    r = steb("table", "--ci", "--results-dir", ROOT / "data" / "results" / "lite")
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout
    assert "## STEB (operational)" in out and "## STEB (definitional)" in out
    assert "rank [interval]" in out and "#1" in out and " [" in out
    legend = out[out.rindex("Intervals: "):]   # the last paragraph, wrapped at 100 columns
    assert "bias-corrected" in legend and "simultaneous" in legend
    assert "(6 units)" in out                          # retrieval's 6 query authors: refused, said in the cell


def test_steb_compare_gives_paired_differences():
    r = steb("compare", "styledistance-mini", "sentence-transformers/all-MiniLM-L6-v2", "--results-dir",
             ROOT / "data" / "results" / "lite")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "STEL_feature" in r.stdout and "STEB (operational)" in r.stdout and "low" in r.stdout
    assert "exact sign-flip (6 units)" in r.stdout and "≤ 0.002" in r.stdout and "nan" not in r.stdout
    bad = steb("compare", "styledistance-mini", "no-such-model", "--results-dir", ROOT / "data" / "results" / "lite")
    assert bad.returncode != 0 and "no results of 'no-such-model'" in bad.stderr


def test_verify_refuses_damaged_per_sample_outputs(tmp_path):
    run = tmp_path / "results" / "lite-truncate"
    shutil.copytree(ROOT / "data" / "results" / "lite-truncate", run)
    gone = next((run / "random").glob("*/predefined.samples.npz")); gone.unlink()
    edited = next((run / "biber").glob("*/retrieval.samples.npz"))
    with np.load(edited) as f: arrays = dict(f)
    arrays["higher"] = arrays["higher"] + 1
    np.savez(edited.with_suffix(""), **arrays)   # -> .npz: the same name
    r = steb("verify", run)
    assert r.returncode == 1 and "2 differs" in r.stdout, r.stdout
    assert "damaged per-sample outputs" in r.stdout and "missing (its record names it)" in r.stdout
    assert "does not match the sha256" in r.stdout


def test_issue_74_examples_through_the_console_script():
    "The honest-intervals issue's examples, as a user reads them from `steb compare` and `steb table --ci`."
    import re
    lite = ROOT / "data" / "results" / "lite"
    r = steb("compare", "styledistance-mini", "sentence-transformers/all-MiniLM-L6-v2", "--wide", "--results-dir",
             lite)
    assert r.returncode == 0, r.stderr[-2000:]
    row = next(line for line in r.stdout.splitlines() if line.startswith("| hate_speech/clustering "))
    cells = [c.strip() for c in row.strip("|").split("|")]   # dataset/task, A, B, A − B, low, high, ...
    assert not cells[4] or float(cells[4]) < 0 < float(cells[5]), row   # the seed varied: −11.1 no longer "p 0.006"
    assert "| 0.00 " not in r.stdout and "≤ 0.002" in r.stdout   # the floor said as such
    assert "no interval (6 units)" in r.stdout          # the verification set's 6 groups of trials, the scores over them
    table = steb("table", "--ci", "--results-dir", lite)
    assert table.returncode == 0, table.stderr[-2000:]
    for line in (row for row in table.stdout.splitlines() if row.startswith("| ")):
        if "≈#1" in line: assert re.search(r"\| \d+ \[1–\d+\]", line), line   # ≈#1 only with a rank interval from 1
        for a, b in re.findall(r"\[(-?\d+\.\d+), (-?\d+\.\d+)\]", line): assert a != b, line   # no zero-width interval
    assert "(6 units)" in table.stdout and "simultaneous" in table.stdout


def table_rows(text):
    "{(section, model): row} of the markdown tables printed by `steb table`."
    rows, section = {}, None
    for line in text.splitlines():
        if line.startswith("## "): section = line
        elif line.startswith("| ") and not line.startswith("| model") and not line.startswith("|:"):
            rows[section, line.split("|")[1].strip()] = line
    return rows


def test_a_partial_model_is_left_out_by_name_and_moves_no_other_model(tmp_path):
    """Issue 79: the README's one-dataset evaluation added to a copy of the committed store. Every table leaves the
    partial model out with a line naming it; every other model's row is the one printed without it."""
    from steb_lib.models.files import model_path
    store = tmp_path / "lite"
    shutil.copytree(ROOT / "data" / "results" / "lite", store)
    before = {flag: steb("table", *flag, "--results-dir", store) for flag in ((), ("--ci",))}
    done = steb("evaluate", model_path("all-MiniLM-L6-v2"), "--dataset", "STEL_feature",
                "--model-name", "my-style-model", "--results-dir", store)
    assert done.returncode == 0, done.stderr[-2000:]
    for flag, old in before.items():
        new = steb("table", *flag, "--results-dir", store)
        assert new.returncode == 0, new.stderr[-2000:]
        assert new.stdout.count("my-style-model left out: it lacks") == 2, new.stdout   # operational, definitional
        assert table_rows(new.stdout) == table_rows(old.stdout)   # no row of it; the others' rows unchanged
    compared = steb("compare", "my-style-model", "biber", "--results-dir", store)
    assert compared.returncode == 0, compared.stderr[-2000:]
    assert "no score: my-style-model lacks results the others have" in compared.stdout

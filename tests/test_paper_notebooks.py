"The paper notebooks under papermill, on the cached STEB-lite results shipped in data/results/lite."
import os
from pathlib import Path
import pytest

papermill = pytest.importorskip("papermill")
ROOT = Path(__file__).resolve().parents[1]
NBS, CACHED = ROOT / "nbs", ROOT / "data" / "results" / "lite"

def run(name, tmp, tag, **params):
    (tmp / tag).mkdir(parents=True, exist_ok=True)
    out = {"tables_dir": str(tmp / tag / "tables"), "figures_dir": str(tmp / tag / "figures"), "results_dir": str(CACHED), **params}
    papermill.execute_notebook(str(NBS / f"{name}.ipynb"), str(tmp / tag / f"{name}.ipynb"), parameters=out, cwd=str(NBS),
                               progress_bar=False, kernel_name="python3")
    return tmp / tag / "tables", tmp / tag / "figures"

def files(d):
    return {p.name: p.read_bytes() for p in sorted(Path(d).iterdir())}

def executed_once(name):
    """test.sh's execution of paper notebook `name` on the shipped results (STEB_EXECUTED_NOTEBOOKS, the one the site
    shows): (its tables, its figures) folders, or None (run alone, or it read other results)."""
    runs = Path(os.environ.get("STEB_EXECUTED_NOTEBOOKS") or "/nonexistent")
    executed = runs / f"{name}.ipynb"
    if not executed.exists() or f"reading results from {CACHED}" not in executed.read_text(): return None
    return runs / "outputs" / "tables", runs / "outputs" / "figures"

def test_rerun_on_unchanged_results_gives_identical_tables_and_figures(tmp_path):
    "A rerun writes the same bytes: compared with the CI's one execution of the notebook, or with a second run here."
    first = run("02_operational", tmp_path, "a")
    tables = ("tab02_operational", "tab02_operational_vs_paper", "tab02_operational_intervals",   # vs_paper: the verdicts
              "per_dataset_operational", "operational_model_set_sensitivity", "tab02_operational_dataset_stability")
    assert set(files(first[0])) == {f"{t}.{x}" for t in tables for x in ("csv", "md")}
    assert {"fig1_steb_by_category.png", "groups_operational.png", "operational_model_set_sensitivity.png"} <= set(files(first[1]))
    other = executed_once("02_operational") or run("02_operational", tmp_path, "b")
    for mine, theirs in zip(first, other):
        assert files(mine) == {n: b for n, b in files(theirs).items() if n in files(mine)}

def test_multilingual_protocols_give_different_tab14_columns_and_a_bad_one_fails(tmp_path):
    chunk, _ = executed_once("05_multilingual") or run("05_multilingual", tmp_path, "chunk", protocol="chunk")   # the default
    trunc, _ = run("05_multilingual", tmp_path, "truncate", protocol="truncate")
    c, t = (d / f"tab14_{p}.csv" for d, p in ((chunk, "chunk"), (trunc, "truncate")))
    assert c.read_text().splitlines()[0].startswith("model,chunk AUC (this run)")
    assert t.read_text().splitlines()[0].startswith("model,truncate AUC (this run)")
    auc = lambda path: [line.split(",")[1] for line in path.read_text().splitlines()[1:]]
    assert auc(c) != auc(t)
    with pytest.raises(papermill.PapermillExecutionError, match="protocol must be one of"):
        run("05_multilingual", tmp_path, "bad", protocol="truncation")

"The paper notebooks under papermill, on the cached STEB-lite results shipped in data/results/lite."
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

def test_rerun_on_unchanged_results_gives_identical_tables_and_figures(tmp_path):
    first, second = run("02_operational", tmp_path, "a"), run("02_operational", tmp_path, "b")
    assert set(files(first[0])) == {f"{t}.{x}" for t in ("tab02_operational", "per_dataset_operational") for x in ("csv", "md")}
    assert files(first[0]) == files(second[0])
    assert files(first[1]) == files(second[1]) and {"fig1_steb_by_category.png", "groups_operational.png"} <= set(files(first[1]))

def test_multilingual_protocols_give_different_tab14_columns_and_a_bad_one_fails(tmp_path):
    chunk, _ = run("05_multilingual", tmp_path, "chunk", protocol="chunk")
    trunc, _ = run("05_multilingual", tmp_path, "truncate", protocol="truncate")
    c, t = (d / f"tab14_{p}.csv" for d, p in ((chunk, "chunk"), (trunc, "truncate")))
    assert c.read_text().splitlines()[0].startswith("model,chunk AUC (this run)")
    assert t.read_text().splitlines()[0].startswith("model,truncate AUC (this run)")
    auc = lambda path: [line.split(",")[1] for line in path.read_text().splitlines()[1:]]
    assert auc(c) != auc(t)
    with pytest.raises(papermill.PapermillExecutionError, match="protocol must be one of"):
        run("05_multilingual", tmp_path, "bad", protocol="truncation")

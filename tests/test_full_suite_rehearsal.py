"""Full-suite dress rehearsal: every registered dataset x task of the full and multilingual suites, prepared from the
real files in ../shared/steb-raw and the fixtures in the real layouts (data/fixtures/raw), evaluated by fast real models
(function-words, random, a tiny BERT checkpoint), scored (operational, definitional, application, multilingual), and
every results-reading paper notebook run on those results with suite=full. It proves the whole pipeline for all
datasets at once; the numbers mean nothing (fixtures and random weights).

Time is bounded by the `truncate` protocol (chunking real long documents is the chunker's benchmark's business,
scripts/benchmark_chunking.py) and by the tiny model: about 2-3 minutes on 2 cores."""
import os, subprocess, sys, time
from pathlib import Path
import pytest

from steb_lib.data.sources import fixtures_dir, raw_mirror_dir

ROOT = Path(__file__).resolve().parent.parent
SHARED = raw_mirror_dir()


def merged_mirror(dest: Path, *roots: Path) -> Path:
    "A raw mirror at `dest` made of symlinks into every root; folders present in several roots are merged."
    dest.mkdir(parents=True, exist_ok=True)
    for root in roots:
        for child in sorted(Path(root).iterdir()):
            target = dest/child.name
            if target.is_symlink() and target.resolve().is_dir() and child.is_dir():
                first = target.resolve(); target.unlink(); merged_mirror(target, first, child)
            elif target.is_dir() and not target.is_symlink() and child.is_dir(): merged_mirror(target, child)
            elif not target.exists(): target.symlink_to(child.resolve())
    return dest


def steb(*args, env):
    r = subprocess.run([str(Path(sys.executable).parent/"steb"), *args], capture_output=True, text=True, env=env)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-3000:])
    return r.stdout


@pytest.mark.skipif(not (SHARED and (SHARED/"nlpsoc").exists()), reason="needs the shared raw mirror (STEB_RAW_DIR=../shared/steb-raw)")
def test_every_dataset_every_task_models_scores_and_paper_notebooks(tmp_path):
    import papermill
    from steb_lib.data.datasets import DATASET_REGISTRY, dataset_tasks, suite_datasets
    from steb_lib.testing.tiny_models import make_tiny_model
    start = time.perf_counter()
    mirror = merged_mirror(tmp_path/"raw", fixtures_dir(), SHARED)
    env = {**os.environ, "STEB_RAW_DIR": str(mirror), "STEB_CACHE": str(tmp_path/"cache"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    tiny = make_tiny_model("bert", tmp_path/"tiny-bert", max_len=128)
    results = tmp_path/"results-truncate"   # 05_multilingual reads truncate results from <results_dir>-truncate
    for suite in ("full", "multilingual"):   # the three models one after the other in one process (their imports once)
        # the PAN18 fixture's problem 2 has unknown texts by one candidate only: the released code's rule (target
        # authors without a query leave) would leave one target, which is an error (checked below); fixtures are far
        # smaller than the released rule's 25 records per label, so they are drawn with the seed
        out = steb("evaluate", "function-words", "random", str(tiny), "--suite", suite, "--protocol", "truncate",
                   "--results-dir", str(results), "--correct", "retrieval-keep-target-only,seeded-selection", env=env)
        summaries = [line for line in out.splitlines() if line.startswith(f"suite {suite}: ")]
        assert len(summaries) == 3 and all(", 0 failed" in line for line in summaries), summaries
    paper = subprocess.run([str(Path(sys.executable).parent/"steb"), "evaluate", "random", "--dataset",
                            "pan18_cross_domain_authorship_attribution_italian", "--task", "retrieval", "--results-dir",
                            str(tmp_path/"paper")], capture_output=True, text=True, env=env)
    assert paper.returncode == 2 and "target authors have no query and are left out" in paper.stderr, paper.stderr
    expected = {(e["name"], t) for s in ("full", "multilingual") for e in suite_datasets(s) for t in dataset_tasks(e)}
    # every dataset but the mini suite's and upstream's newest (AuthBench: test_real_path.py, test_fixture_sources.py)
    paper_suites = {n for n, e in DATASET_REGISTRY.items() if e["suite"] not in ("mini", "upstream")}
    assert len(expected) >= 130 and paper_suites == {n for n, _ in expected}
    for model_dir in (d for d in results.iterdir() if d.is_dir()):   # every dataset x task for every model (not .steb-profile)
        assert {(p.parent.name, p.stem) for p in model_dir.glob("*/*.json")} == expected, model_dir.name
    table = steb("table", "--results-dir", str(results), "--score", "operational", "definitional", "application", "multilingual",
                 "--wide", env=env)   # whole tables: the model once in each (issue 79: fitted ones split it)
    for heading in ("STEB (operational)", "STEB (definitional)", "STEB (application)", "STEB (multilingual)"):
        assert heading in table
    # each score's table, then the same beside the paper's with a verdict after every published number (issue 42)
    assert table.count("tiny-bert") == 8 and table.count("against the paper (data/paper/") == 4, table
    assert "nan" not in table.lower() and "Against the paper: " in table
    params = {"results_dir": str(results), "suite": "full", "tables_dir": str(tmp_path/"tables"), "figures_dir": str(tmp_path/"figures")}
    notebooks = {"02_operational": {}, "03_definitional": {}, "04_applications": {}, "15_sample_counts": {},
                 "05_multilingual": {"protocol": "truncate", "results_dir": str(tmp_path/"results")}}
    for name, extra in notebooks.items():
        papermill.execute_notebook(str(ROOT/"nbs"/f"{name}.ipynb"), str(tmp_path/f"{name}.ipynb"), parameters={**params, **extra},
                                   cwd=str(ROOT/"nbs"), progress_bar=False, kernel_name="python3")
    tables = {p.name for p in (tmp_path/"tables").iterdir()}
    assert {"tab02_operational.csv", "tab03_definitional.csv", "tab04_applications.csv", "tab05_multilingual_truncate.csv",
            "tab15_sample_counts_full.csv"} <= tables, tables
    print(f"full-suite rehearsal: {len(expected)} dataset x task samples, 3 models, 4 scores, {len(notebooks)} notebooks in {time.perf_counter() - start:.0f} s")

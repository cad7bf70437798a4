"""Paper notebooks with non-default parameters (issue 32, item 5), run by papermill as `steb paper` runs them: each
parameter below changes what the notebook computes, the executed copy says what it read, and tables and figures go
to the directories given (or $STEB_TABLES_DIR / $STEB_FIGURES_DIR), never over the repository's."""
import json
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"


def run(name, tmp_path, **params) -> str:
    "Execute paper notebook `name` with `params` (outputs under tmp_path); the text of its outputs."
    import papermill as pm
    params = {"tables_dir": str(tmp_path / "tables"), "figures_dir": str(tmp_path / "figures"), **params}
    out = tmp_path / f"{name}.ipynb"; tmp_path.mkdir(parents=True, exist_ok=True)
    pm.execute_notebook(NBS / f"{name}.ipynb", out, parameters=params, cwd=str(NBS), progress_bar=False, kernel_name="python3")
    cells = json.loads(out.read_text())["cells"]
    return "\n".join("".join(o.get("text", "")) + json.dumps(o.get("data", {})) for c in cells for o in c.get("outputs", []))


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1"); monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_f4_chunks_and_embeds_at_the_papers_512_tokens(tmp_path):
    text = run("f4_chunk_and_pool", tmp_path, max_tokens=512, document="federalist/federalist_51.txt")
    assert "chunks of at most 512 tokens" in text and "pooled vector == encoder.encode" in text
    chunks = (tmp_path / "tables" / "fig4_chunks.csv").read_text().splitlines()[1:]
    assert max(int(l.split(",")[1]) for l in chunks) <= 512 and (tmp_path / "figures" / "fig4_chunk_and_pool.png").is_file()


def test_multilingual_reads_the_truncate_results_it_is_pointed_at(tmp_path):
    text = run("05_multilingual", tmp_path, protocol="truncate", results_dir=str(ROOT / "data" / "results" / "lite"))
    assert f"protocol truncate: {ROOT / 'data' / 'results' / 'lite-truncate'}" in text
    assert list((tmp_path / "tables").glob("*.csv"))


def test_aggregation_notebooks_take_a_model_subset(tmp_path):
    models = ["random", "function-words"]
    for name in ("02_operational", "03_definitional", "04_applications"):
        text = run(name, tmp_path / name, models=models, results_dir=str(ROOT / "data" / "results" / "lite"))
        assert "2 models" in text or "random" in text, name
        table = next((tmp_path / name / "tables").glob("tab0*.csv")).read_text()
        assert "Random" in table or "random" in table, (name, table[:300])
        assert "MiniLM" not in table, (name, table[:300])                      # only the subset


def test_sample_counts_of_another_suite_and_profile(tmp_path):
    text = run("15_sample_counts", tmp_path, suite="mini", profile="corrected")
    assert "profile: corrected" in text
    table = (tmp_path / "tables" / "tab15_sample_counts_mini.csv").read_text()
    assert "mini_probing" in table and "eWAVE" not in table


def test_order_alignment_figure_of_other_tuples_and_models(tmp_path):
    run("f2_order_alignment", tmp_path, tuples=[1, 3], models=["function-words", "random"])
    table = (tmp_path / "tables" / "fig2_order_alignment_decisions.csv").read_text()
    assert "Random" in table or "random" in table


def test_prompting_dry_run_with_fewer_authors(tmp_path):
    text = run("01_prompting", tmp_path, n_authors=5, per_collection=4, dry_run=True, cache_dir=str(tmp_path / "cache"))
    assert "5 requests" in text and "dry run: nothing sent" in text


def test_by_default_they_read_the_main_jobs_results_and_write_where_the_environment_says(tmp_path, monkeypatch):
    "results_dir None: results/<suite> when the main job wrote it; no tables_dir: $STEB_TABLES_DIR."
    data = tmp_path / "repo" / "data"; data.mkdir(parents=True)
    for part in (ROOT / "data").iterdir(): (data / part.name).symlink_to(part)
    fresh = tmp_path / "repo" / "results" / "lite"; fresh.parent.mkdir(parents=True)
    fresh.symlink_to(ROOT / "data" / "results" / "lite")                          # as `bash run.sh` would leave it
    monkeypatch.setenv("STEB_DATA_DIR", str(data))
    monkeypatch.setenv("STEB_TABLES_DIR", str(tmp_path / "env-tables")); monkeypatch.setenv("STEB_FIGURES_DIR", str(tmp_path / "env-figs"))
    import papermill as pm
    pm.execute_notebook(NBS / "03_definitional.ipynb", tmp_path / "03.ipynb", cwd=str(NBS), progress_bar=False, kernel_name="python3")
    text = (tmp_path / "03.ipynb").read_text()
    assert f"reading results from {fresh}" in text
    assert list((tmp_path / "env-tables").glob("tab03*.csv")) and list((tmp_path / "env-figs").glob("*.png"))


def test_parity_of_a_model_subset_tabulates_only_those_models(tmp_path):
    "The variants of two models (the committed ones copied, so the run finds them done: computing them all takes ~3 min)."
    import shutil
    parity_dir = tmp_path / "parity"
    for store in (ROOT / "data" / "results" / "lite-parity").iterdir():
        for model in ("random", "function-words"):
            if (store / model).is_dir(): shutil.copytree(store / model, parity_dir / store.name / model)
    run("parity", tmp_path, models=["random", "function-words"], parity_dir=str(parity_dir), parallelism=1,
        results_dir=str(ROOT / "data" / "results" / "lite"))
    assert {p.name for p in parity_dir.iterdir()} >= {"corrected"} and list(parity_dir.rglob("*.json"))
    models = {p.name for p in parity_dir.glob("*/*") if p.is_dir()}
    assert models and models <= {"random", "function-words"}, models         # the variants of these two only
    table = (tmp_path / "tables" / "parity_operational.csv").read_text()
    assert "MiniLM" not in table and ("Random" in table or "random" in table), table[:300]


def test_late_interaction_of_one_model_one_dataset_three_scorings(tmp_path):
    run("li_late_interaction", tmp_path, models=["all-MiniLM-L6-v2"], datasets=["mini_authors_retrieval_en"],
        scorings=["mean", "maxsim", "patch-3"], li_results_dir=str(tmp_path / "li"))
    table = (tmp_path / "tables" / "late_interaction.csv").read_text()
    assert "maxsim" in table and "patch-3" in table and "patch-word" not in table and "mpnet" not in table, table[:400]
    assert (tmp_path / "figures" / "late_interaction.png").is_file()


def test_contrastive_training_of_one_mode_and_one_curation(tmp_path):
    run("train_contrastive", tmp_path, modes=["mean"], curations=["ir"], work_dir=str(tmp_path / "work"))
    training = (tmp_path / "tables" / "train_contrastive_training.csv").read_text()
    assert "mean" in training and "maxsim" not in training and "patch" not in training, training[:400]
    rerank = (tmp_path / "tables" / "train_contrastive_rerank.csv").read_text()
    assert "ir" in rerank and "sadiri" not in rerank, rerank[:400]


def test_your_model_notebook_on_one_dataset_under_the_corrected_profile(tmp_path):
    text = run("evaluate_your_model", tmp_path, datasets=["hate_speech"], profile="corrected", results_dir=str(tmp_path / "r"))
    results = [json.loads(p.read_text()) for p in (tmp_path / "r").rglob("*.json") if not p.name.startswith(".")]
    assert results and {r["dataset"] for r in results if r["model"] == "my-style-model"} == {"hate_speech", "formal-vs-casual"}
    assert {r["profile"] for r in results} == {"corrected"} and "STEL_register" not in text


def test_styledistance_notebook_on_a_model_trained_elsewhere_and_the_mini_suite(tmp_path):
    "Trained from a tiny random BERT (the base is a parameter too): the notebook's slow cells train and evaluate it here."
    import subprocess, sys
    from steb_lib.testing.tiny_models import make_tiny_model
    base, model = make_tiny_model("bert", tmp_path / "tiny-base", max_len=128), tmp_path / "sd-2-steps"
    done = subprocess.run([str(Path(sys.executable).parent / "steb"), "train", "styledistance", "--base", str(base), "--out",
                           str(model), "--steps", "2", "--batch-size", "2", "--per-feature", "4"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    run("train_styledistance", tmp_path, trained=str(model), base=str(base), others=["random"], real_datasets=[], suite="mini",
        results_dir=str(tmp_path / "r"))
    table = (tmp_path / "tables" / "styledistance_mini_suite.csv").read_text()
    assert "sd-2-steps" in table and "trained − base" in table and "function" not in table.lower(), table[:400]

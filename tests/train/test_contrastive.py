"""`steb train contrastive` and `steb train reranker` from the command line: every scoring mode trains a few steps
and `steb evaluate DIR` scores it in that mode; a killed training resumes to the weights of an uninterrupted one;
a trained reranker (Sadiri-v2 and IR-style curation) reorders the first stage in `steb rerank`."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from safetensors.torch import load_file

from steb_lib.cli import main

TINY = ["--steps", "2", "--batch-size", "4", "--per-author", "8", "--words", "16"]


@pytest.mark.parametrize("scoring", ["mean", "maxsim", "patch-2", "patch-word", "patch-auto"])
def test_each_scoring_mode_trains_and_is_evaluated_in_its_mode(tmp_path, capsys, scoring):
    out, res = tmp_path/"m", tmp_path/"res"
    assert main(["train", "contrastive", "--out", str(out), "--scoring", scoring, *TINY]) == 0
    info = json.loads((out/"training.json").read_text())
    assert (info["method"], info["scoring"], len(info["losses"])) == ("contrastive", scoring, 2)
    assert len(info["data"]["train_authors"]) == 8 and len(info["data"]["validation_authors"]) == 2
    assert main(["evaluate", str(out), "--dataset", "mini_authors_retrieval_en", "--results-dir", str(res),
                 "--cache-dir", str(tmp_path/"c")]) == 0, capsys.readouterr().err
    (result_file,) = res.glob("*/mini_authors_retrieval_en/retrieval.json")
    result = json.loads(result_file.read_text())
    assert result["scoring"] == scoring and 0 <= result["main_score"] <= 1
    assert result_file.parent.parent.name.endswith("" if scoring == "mean" else f"@{scoring}")


def test_scoring_option_overrides_the_trained_mode(tmp_path, capsys):
    out, res = tmp_path/"m", tmp_path/"res"
    assert main(["train", "contrastive", "--out", str(out), "--scoring", "maxsim", *TINY]) == 0
    assert main(["evaluate", str(out), "--dataset", "mini_authors_retrieval_en", "--scoring", "mean",
                 "--results-dir", str(res), "--cache-dir", str(tmp_path/"c")]) == 0, capsys.readouterr().err
    (result_file,) = res.glob("*/mini_authors_retrieval_en/retrieval.json")
    assert json.loads(result_file.read_text())["scoring"] == "mean" and "@" not in result_file.parent.parent.name


def _train_args(out, steps):
    return [str(Path(sys.executable).with_name("steb")), "train", "contrastive", "--out", str(out), "--scoring",
            "patch-2", "--steps", str(steps), "--batch-size", "4", "--per-author", "8", "--words", "16",
            "--save-every", "2"]


def test_a_killed_training_resumes_to_the_uninterrupted_weights(tmp_path):
    env = dict(os.environ)
    killed = subprocess.Popen(_train_args(tmp_path/"b", 12), env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    state = lambda: list(tmp_path.glob(".b.training-*/checkpoints/checkpoint-2/trainer_state.json"))  # noqa: E731
    deadline = time.time() + 240
    while not state() and killed.poll() is None and time.time() < deadline: time.sleep(0.2)
    time.sleep(0.5)
    os.killpg(killed.pid, signal.SIGKILL); killed.wait()
    assert state() and not (tmp_path/"b").exists()      # trained beside --out: nothing half-written there
    rerun = subprocess.run(_train_args(tmp_path/"b", 12), env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads((tmp_path/"b"/"training.json").read_text())["resumed"] is True
    whole = subprocess.run(_train_args(tmp_path/"a", 12), env=env, capture_output=True, text=True)
    assert whole.returncode == 0, whole.stderr
    a, b = (load_file(tmp_path/d/"model.safetensors") for d in ("a", "b"))
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)


@pytest.mark.parametrize("curation", ["sadiri", "ir"])
def test_trained_reranker_is_used_by_steb_rerank(tmp_path, capsys, curation):
    out, res = tmp_path/f"rr-{curation}", tmp_path/"res"
    assert main(["train", "reranker", "--out", str(out), "--curation", curation, "--steps", "2", "--batch-size", "2",
                 "--per-author", "8", "--words", "16", "--n-negatives", "3"]) == 0, capsys.readouterr().err
    info = json.loads((out/"training.json").read_text())
    assert (info["method"], info["curation"], info["data"]["n_examples"]) == ("reranker", curation, 4)
    assert main(["rerank", "sentence-transformers/all-MiniLM-L6-v2", "--reranker", str(out), "--dataset",
                 "mini_authors_retrieval_en", "--k", "10", "--results-dir", str(res),
                 "--cache-dir", str(tmp_path/"c")]) == 0, capsys.readouterr().err
    (result_file,) = res.glob(f"*rerank=rr-{curation}/mini_authors_retrieval_en/retrieve_rerank.json")
    result = json.loads(result_file.read_text())
    assert result["reranker_training"] == {"method": "reranker", "curation": curation, "recipe_key": info["recipe_key"]}
    metrics = result["metrics"]
    assert metrics["rerank_depth"] == 10 and set(metrics["final"]) == set(metrics["first_stage"])
    assert "success@8" in metrics["final"]

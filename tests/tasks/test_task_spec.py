"""A sixth task is one registration: the toy `shuffle` task of nbs/lib/tasks/10_spec.ipynb, registered here for real,
runs end to end through the data-file reader, `evaluate`, the results store and the CLI, with no other change."""
import json

import numpy as np
import pytest

from steb_lib.tasks.spec import TASK_REGISTRY, TaskSpec, record_field, register_task
from steb_lib.tasks.task_data import load_task_file, sample_counts, task_names


def _shuffle_record(rec, at):
    return {k: record_field(rec, at, k, "text") for k in ("text", "paraphrase", "shuffled")}


def _shuffle_metrics(records, vectors_of, seed, progress):
    cos = lambda A, B: np.einsum("ij,ij->i", A, B) / np.linalg.norm(A, axis=1) / np.linalg.norm(B, axis=1)  # noqa: E731
    T, P, S = (vectors_of([r[k] for r in records]) for k in ("text", "paraphrase", "shuffled"))
    return {"accuracy": float(np.mean(cos(T, P) > cos(T, S)))}


@pytest.fixture
def shuffle_task():
    saved = dict(TASK_REGISTRY)
    register_task(TaskSpec("shuffle", "accuracy", column=7, record=_shuffle_record, metrics=_shuffle_metrics,
                           texts=lambda recs: [t for r in recs for t in (r["text"], r["paraphrase"], r["shuffled"])],
                           text_count=lambda recs: 3 * len(recs)))
    yield
    TASK_REGISTRY.clear(); TASK_REGISTRY.update(saved)


def _data_file(tmp_path):
    rows = [{"text": f"The cat sat on mat number {i}.", "paraphrase": f"On mat number {i} sat the cat.",
             "shuffled": f"mat cat {i} The on sat number."} for i in range(6)]
    f = tmp_path/"shuffle.jsonl"; f.write_text("".join(json.dumps(r) + "\n" for r in rows)); return f


def test_a_registered_task_runs_end_to_end(shuffle_task, tmp_path, capsys):
    from steb_lib.cli import main
    from steb_lib.eval.runner import evaluate
    assert task_names()[-1] == "shuffle"
    f = _data_file(tmp_path)
    data = load_task_file("Shuffle", f)
    assert len(data.texts) == 18 and sample_counts("shuffle", data.records)["total"] == 18
    res = evaluate("function-words", "shuffle", data_file=f, results_dir=tmp_path/"res", cache_dir=tmp_path/"c", progress=False)
    assert res["task"] == "shuffle" and res["main_score"] == res["metrics"]["accuracy"]
    assert (tmp_path/"res"/"function-words"/"shuffle"/"shuffle.json").is_file()
    rc = main(["evaluate", "function-words", "--task", "shuffle", "--data-file", str(f), "--results-dir", str(tmp_path/"res"),
               "--cache-dir", str(tmp_path/"c")])
    assert rc == 0 and "skip   function-words / shuffle / shuffle: finished" in capsys.readouterr().out


def test_an_unregistered_task_is_refused_with_the_registered_ones(tmp_path, capsys):
    from steb_lib.cli import main
    rc = main(["evaluate", "random", "--task", "shuffle", "--data-file", str(_data_file(tmp_path)), "--results-dir", str(tmp_path/"r")])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown task 'shuffle'; choose one of clustering, all_to_all, predefined, order_alignment, retrieval, probing" in err

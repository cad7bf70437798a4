"""End-to-end: `steb evaluate --scoring patch-auto` on the mini suite and two-stage `steb rerank` runs, offline, into one results store."""
import json, os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[2]
STEB = [str(Path(sys.executable).parent / "steb")]
MINILM = "sentence-transformers/all-MiniLM-L6-v2"
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1")
pytestmark = pytest.mark.skipif(not (ROOT.parent / "shared" / "steb-raw").exists() and "STEB_RAW_DIR" not in os.environ, reason="needs the raw mirror")


def steb(*args, cwd):
    return subprocess.run(STEB + [*args], env=ENV, cwd=cwd, capture_output=True, text=True)


def without_timing(results_dir):
    out = {}
    for p in sorted(Path(results_dir).glob("*/*/*.json")):
        r = json.loads(p.read_text()); r.pop("seconds"); r.pop("created")
        out[str(p.relative_to(results_dir))] = r
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    "One results store: MiniLM mean on the English retrieval data, MiniLM patch-auto on the mini suite, two two-stage runs."
    d = tmp_path_factory.mktemp("li")
    run = lambda *a: steb(*a, "--results-dir", str(d / "results"), "--cache-dir", str(d / "cache"), cwd=d)
    out = {"suite": run("evaluate", "all-MiniLM-L6-v2", "--suite", "mini", "--scoring", "patch-auto"),
           "mean": run("evaluate", "all-MiniLM-L6-v2", "--dataset", "mini_authors_retrieval_en")}
    from steb_lib.testing.tiny_models import make_cross_encoder
    ce = make_cross_encoder(d / "cross-encoder")
    out["ce"] = run("rerank", "all-MiniLM-L6-v2", "--reranker", str(ce), "--dataset", "mini_authors_retrieval_en")
    out["mv"] = run("rerank", "random", "--reranker", "all-MiniLM-L6-v2", "--reranker-scoring", "patch-auto", "--dataset", "mini_authors_retrieval_en", "--k", "20")
    out["table"] = steb("table", "--results-dir", str(d / "results"), "--score", "main", cwd=d)
    return d, out


def test_patch_auto_suite(store):
    d, out = store
    assert out["suite"].returncode == 0, out["suite"].stderr[-2000:]
    assert "5 results, 0 failed, 4 skipped" in out["suite"].stdout
    results = [json.loads(p.read_text()) for p in (d / "results" / "sentence-transformers__all-MiniLM-L6-v2@patch-auto").glob("*/*.json")]
    assert sorted(r["task"] for r in results) == ["all_to_all", "predefined", "predefined", "retrieval", "retrieval"]
    for r in results:
        assert r["scoring"] == "patch-auto" and r["patch_size"] >= 1 and r["model_revision"] and r["data_sha256"]
        assert r["vectors_per_text"] <= r["tokens_per_text"] and r["bytes_stored_float16"] == r["vectors_stored"] * 384 * 2
    mean = json.loads((d / "results" / "sentence-transformers__all-MiniLM-L6-v2" / "mini_authors_retrieval_en" / "retrieval.json").read_text())
    assert mean["scoring"] == "mean" and "ndcg@8" in mean["metrics"]


def test_two_stage_runs(store):
    d, out = store
    for k in ("ce", "mv"): assert out[k].returncode == 0, out[k].stderr[-2000:]
    ce = json.loads(next((d / "results").glob("*+rerank=cross-encoder/mini_authors_retrieval_en/retrieve_rerank.json")).read_text())
    assert ce["reranker_kind"] == "cross-encoder" and len(ce["reranker_revision"]) == 64 and ce["rerank_depth"] == 100
    assert set(ce["metrics"]["final"]) == {"success@1", "success@8", "success@100", "mrr@20"} == set(ce["metrics"]["first_stage"])
    mv = json.loads(next((d / "results").glob("random+rerank=*@patch-auto/mini_authors_retrieval_en/retrieve_rerank.json")).read_text())
    # MiniLM's MaxSim reranking random's top 20 cannot lose needles and should find them earlier than random does
    assert mv["metrics"]["final"]["success@100"] == mv["metrics"]["first_stage"]["success@100"]
    assert mv["metrics"]["final"]["mrr@20"] > mv["metrics"]["first_stage"]["mrr@20"]
    table = out["table"].stdout
    assert "+rerank=cross-encoder" in table and "@patch-auto" in table and "retrieve_rerank" in table
    # a store holding two-stage results exports whole (issue 46, item 11: it stopped at the first one)
    export = steb("export", str(d / "results"), str(d / "mteb"), "--format", "mteb", cwd=d)
    n = len(list((d / "results").glob("*/*/*.json")))
    assert export.returncode == 0 and export.stdout.startswith(f"{n} results written"), export.stdout + export.stderr
    assert len(list((d / "mteb").rglob("STEB-mini_authors_retrieval_en-retrieve_rerank.json"))) == 2


def test_rerun_skips_and_fresh_run_is_identical(store, tmp_path):
    d, _ = store
    again = steb("evaluate", "all-MiniLM-L6-v2", "--suite", "mini", "--scoring", "patch-auto", "--results-dir", str(d / "results"), "--cache-dir", str(d / "cache"), cwd=d)
    assert again.returncode == 0 and again.stdout.count("skip   sentence-transformers/all-MiniLM-L6-v2@patch-auto") == 5
    # a fresh run of one of its datasets (an empty cache and store) writes the same file (timing aside)
    fresh = steb("evaluate", "all-MiniLM-L6-v2", "--dataset", "mini_authors_retrieval_nl", "--scoring", "patch-auto", "--results-dir", str(tmp_path / "results"), "--cache-dir", str(tmp_path / "cache"), cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr[-2000:]
    ours = {k: v for k, v in without_timing(d / "results").items() if "@patch-auto/mini_authors_retrieval_nl/" in k and "rerank" not in k}
    assert len(ours) == 1 and ours == without_timing(tmp_path / "results")

"""The path a researcher with network takes, rehearsed through the CLI against a loopback internet
(`tests/loopback_internet.py`): datasets downloaded from every source kind (GitHub archive, Hugging Face dataset at a
revision, two Zenodo records, a plain URL, Google Drive) prepare to the same sample as the raw mirror gives; hub models
of every family load by id, with and without --revision, and record the revision that ran; faults (a truncated body,
a checksum mismatch, archive members outside the cache, a 404) are refused with one clear line and cache nothing;
an offline rerun makes zero requests."""
import io, json, os, re, shutil, subprocess, sys, tarfile
from pathlib import Path
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from loopback_internet import HubRepo, LoopbackInternet, tarball, zipped  # noqa: E402
from steb_lib.data.sources import fixtures_dir  # noqa: E402

FX = fixtures_dir()
ROOT = Path(__file__).resolve().parent.parent


def steb(*args, env):
    return subprocess.run([str(Path(sys.executable).parent/"steb"), *args], capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def net(tmp_path_factory):
    "The loopback internet serving real files: dataset sources from the fixtures, tiny models of every family as hub repos."
    from steb_lib.testing.tiny_models import make_tiny_model
    models = tmp_path_factory.mktemp("models")
    with LoopbackInternet() as site:
        from steb_lib.data.datasets import dataset_entry
        site.add_repo_archive("TurkuNLP", "CORE-corpus", dataset_entry("core")["source"]["commit"], FX/"TurkuNLP"/"CORE-corpus")   # the pinned commit
        site.add_hub_repo(HubRepo("SetFit/enron_spam", FX/"huggingface"/"SetFit"/"enron_spam", kind="dataset"))
        site.add_hub_repo(HubRepo("MaoXun/AuthBench", FX/"huggingface"/"MaoXun"/"AuthBench", kind="dataset"))
        site.add_hub_repo(HubRepo("barilan/blog_authorship_corpus", FX/"huggingface"/"barilan"/"blog_authorship_corpus", kind="dataset",
                                  revisions=("main", "refs/convert/parquet")))
        for record in ("6411789", "5887101"):
            for f in (FX/"zenodo"/record).iterdir(): site.add_file(f"/records/{record}/files/{f.name}", f.read_bytes())
        site.add_file("/MASC/download/MASC-3.0.0.zip", (FX/"url"/"www.anc.org"/"MASC-3.0.0.zip").read_bytes())
        site.add_file("/attachments/2020.emnlp-main.473.OptionalSupplementaryMaterial.zip",
                      (FX/"url"/"aclanthology.org"/"2020.emnlp-main.473.OptionalSupplementaryMaterial.zip").read_bytes())
        site.gdrive["1HFWoFk3V7vqM_DbZzd8ixecdbjHp29c4"] = tarball(FX/"steb-authors"/"amazon_retrieval", "amazon_retrieval")
        site.gdrive["1TKtgg-6j2Yd-GTfiq0nnHRPcZC-VpGnu"] = zipped(FX/"steb-authors"/"graded_formality"/"graded_formality_generated_gpt-5-mini",
                                                                 "graded_formality_generated_gpt-5-mini")
        for kind in ("bert", "roberta", "deberta", "gpt2", "qwen2", "qwen3_5", "luar"):
            site.add_hub_repo(HubRepo(f"someone/tiny-{kind}", make_tiny_model(kind, models/kind)))
        from steb_lib.models.registry import resolve_model
        from steb_lib.models.files import packaged_model_dir
        minilm = packaged_model_dir(resolve_model("all-MiniLM-L6-v2"))
        site.add_hub_repo(HubRepo("sentence-transformers/all-MiniLM-L6-v2", minilm))
        site.add_hub_repo(HubRepo("someone/tiny-st", minilm))   # an unregistered sentence-transformers model
        from steb_lib.testing.tiny_models import make_cross_encoder
        site.add_hub_repo(HubRepo("someone/tiny-cross-encoder", make_cross_encoder(models/"ce")))
        yield site


@pytest.fixture
def online(net, tmp_path):
    "Environment of a user with network (the loopback one), empty caches and no raw mirror."
    return {**os.environ, "HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "0", "HF_ENDPOINT": net.base, "STEB_DOWNLOAD_BASE": net.base,
            "HF_HUB_CACHE": str(tmp_path/"hub"), "STEB_CACHE": str(tmp_path/"cache"), "STEB_RAW_DIR": str(tmp_path/"no-mirror"),
            "HF_HUB_DISABLE_TELEMETRY": "1"}


SOURCES = [("core", "clustering", "repo"), ("enron_spam", "clustering", "hf"), ("blog_gender", "clustering", "hf at refs/convert/parquet"),
           ("ceeces", "clustering", "two zenodo records"), ("masc_text_genre", "clustering", "url"), ("amazon", "retrieval", "gdrive tarball"),
           ("graded_formality", "order_alignment", "gdrive zip")]


@pytest.mark.parametrize("dataset,task,kind", SOURCES)
def test_prepare_downloads_each_source_kind_and_matches_the_mirror(net, online, tmp_path, dataset, task, kind):
    r = steb("prepare", "--correct", "seeded-selection", dataset, "--task", task, "--out", str(tmp_path/"dl"), env=online)
    assert r.returncode == 0, r.stderr
    meta = json.loads((tmp_path/"dl"/f"{dataset}.{task}.meta.json").read_text())
    assert meta["found_in"] == "downloaded", meta
    mirror = steb("prepare", "--correct", "seeded-selection", dataset, "--task", task, "--out", str(tmp_path/"mirror"),
                  env={**online, "STEB_RAW_DIR": str(FX), "STEB_CACHE": str(tmp_path/"other-cache"), "HF_HUB_OFFLINE": "1"})
    assert mirror.returncode == 0, mirror.stderr
    name = f"{dataset}.{task}.jsonl"
    assert (tmp_path/"dl"/name).read_bytes() == (tmp_path/"mirror"/name).read_bytes()   # the download is the mirror's sample
    before = len(net.requests)   # offline rerun, prepared cache cleared: found in the raw cache, no request at all
    shutil.rmtree(tmp_path/"cache"/"prepared")
    again = steb("prepare", "--correct", "seeded-selection", dataset, "--task", task, "--out", str(tmp_path/"again"), env={**online, "HF_HUB_OFFLINE": "1"})
    assert again.returncode == 0, again.stderr
    assert len(net.requests) == before and (tmp_path/"again"/name).read_bytes() == (tmp_path/"dl"/name).read_bytes()


def _registry_with(tmp_path, name: str, change) -> Path:
    "A data dir like the project's whose entry `name` is changed by `change(entry)` (STEB_DATA_DIR)."
    data = tmp_path/"data"; data.mkdir()
    for child in (ROOT/"data").iterdir():
        if child.name != "datasets": (data/child.name).symlink_to(child)
    shutil.copytree(ROOT/"data"/"datasets", data/"datasets")
    p = data/"datasets"/f"{name}.json"; e = json.loads(p.read_text()); change(e); p.write_text(json.dumps(e))
    return data


def test_truncated_download_is_refused_and_not_cached(net, online, tmp_path):
    net.cut.add("/MASC/download/MASC-3.0.0.zip")
    try: r = steb("prepare", "--correct", "seeded-selection", "masc_text_genre", "--task", "clustering", env=online)
    finally: net.cut.discard("/MASC/download/MASC-3.0.0.zip")
    assert r.returncode == 2 and "was cut short" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not list((tmp_path/"cache").rglob("MASC-3.0.0.zip"))


def test_checksum_mismatch_is_refused(net, online, tmp_path):
    zip_name = "2020.emnlp-main.473.OptionalSupplementaryMaterial.zip"
    data = _registry_with(tmp_path, "twitter_aave_sae", lambda e: e["source"].update(sha256={zip_name: "0" * 64}))
    r = steb("prepare", "--correct", "seeded-selection", "twitter_aave_sae", env={**online, "STEB_DATA_DIR": str(data)})
    assert r.returncode == 2 and "checksum mismatch" in r.stderr and "nothing was written" in r.stderr, r.stderr
    assert not list((tmp_path/"cache").rglob(zip_name))


@pytest.mark.parametrize("member", ["../../escaped.txt", "/tmp/steb-escaped-absolute.txt"])
def test_archive_members_outside_the_cache_are_refused(net, online, tmp_path, member):
    evil = tmp_path/"evil"; (evil/"amazon_retrieval").mkdir(parents=True)
    (evil/"amazon_retrieval"/"part-0.jsonl").write_text('{"text": "t", "label": "a", "is_query": true}\n')
    buf = io.BytesIO(tarball(evil, ""))   # add the hostile member to an otherwise good archive

    out = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="r:gz") as src, tarfile.open(fileobj=out, mode="w:gz") as dst:
        for m in src.getmembers(): dst.addfile(m, src.extractfile(m))
        info = tarfile.TarInfo(member); info.size = 4; dst.addfile(info, io.BytesIO(b"evil"))
    saved = net.gdrive["1HFWoFk3V7vqM_DbZzd8ixecdbjHp29c4"]; net.gdrive["1HFWoFk3V7vqM_DbZzd8ixecdbjHp29c4"] = out.getvalue()
    try: r = steb("prepare", "--correct", "seeded-selection", "amazon", env=online)
    finally: net.gdrive["1HFWoFk3V7vqM_DbZzd8ixecdbjHp29c4"] = saved
    assert r.returncode == 2 and "would be written outside" in r.stderr, r.stderr
    assert not (tmp_path/"escaped.txt").exists() and not Path("/tmp/steb-escaped-absolute.txt").exists()
    assert not list((tmp_path/"cache").rglob("part-0.jsonl"))   # nothing of the refused archive was extracted


def test_a_404_names_the_url_and_where_to_put_the_file(net, online):
    net.missing.add("/MASC/download/MASC-3.0.0.zip")
    try: r = steb("prepare", "--correct", "seeded-selection", "masc_text_genre", "--task", "clustering", env=online)
    finally: net.missing.discard("/MASC/download/MASC-3.0.0.zip")
    assert r.returncode == 2 and "cannot download https://www.anc.org/MASC/download/MASC-3.0.0.zip" in r.stderr and "404" in r.stderr, r.stderr
    assert "put the file at" in r.stderr and "Traceback" not in r.stderr


def _result(results: Path, model: str) -> dict:
    [path] = list(results.glob("*/literature_authors/*.json"))
    return json.loads(path.read_text())


FAMILIES = [("st", "sentence-transformers"), ("bert", "masked-lm"), ("roberta", "masked-lm"), ("deberta", "masked-lm"), ("gpt2", "causal-lm"), ("qwen2", "causal-lm"),
            ("qwen3_5", "causal-lm")]


@pytest.mark.parametrize("kind,family", FAMILIES)
def test_evaluate_an_unregistered_hub_model_of_every_family(net, online, tmp_path, kind, family):
    repo = net.hub[("model", f"someone/tiny-{kind}")]
    # a pinned revision is the hub's business, not the family's: asked of one family (and of the packaged models in
    # test_a_revision_loads_from_the_hub_not_the_packaged_copy)
    for revision in (None, repo.commit) if kind == "bert" else (None,):
        results = tmp_path/f"results-{revision}"
        r = steb("evaluate", f"someone/tiny-{kind}", "--dataset", "literature_authors", "--results-dir", str(results),
                 *(["--revision", revision] if revision else []), env=online)
        assert r.returncode == 0, r.stderr
        res = _result(results, f"someone/tiny-{kind}")
        assert res["model_family"] == family and res["model_revision"] == repo.commit, res   # the commit that ran, with or without --revision
    files = {p.name for p in (tmp_path/"hub").rglob("*") if p.is_file() and "snapshots" in p.parts}
    assert "config.json" in files
    if kind != "bert": return
    before = len(net.requests)   # offline rerun: results are finished, nothing is fetched
    r = steb("evaluate", f"someone/tiny-{kind}", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"results-None"),
             env={**online, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
    assert r.returncode == 0 and len(net.requests) == before, r.stderr


def test_remote_code_model_needs_a_revision_and_records_it(net, online, tmp_path):
    repo = net.hub[("model", "someone/tiny-luar")]
    r = steb("evaluate", "someone/tiny-luar", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"r0"), env=online)
    assert r.returncode == 2 and "asks to run code of its own" in r.stderr and "--trust-remote-code" in r.stderr, r.stderr
    r = steb("evaluate", "someone/tiny-luar", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"r1"),
             "--trust-remote-code", env=online)
    assert r.returncode == 2 and "pin the commit you reviewed with --revision" in r.stderr, r.stderr
    r = steb("evaluate", "someone/tiny-luar", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"r2"), "--revision", repo.commit,
             "--trust-remote-code", env=online)
    assert r.returncode == 0, r.stderr
    res = _result(tmp_path/"r2", "someone/tiny-luar")
    assert res["model_family"] == "luar" and res["model_revision"] == repo.commit


def test_a_revision_loads_from_the_hub_not_the_packaged_copy(net, online, tmp_path):
    repo = net.hub[("model", "sentence-transformers/all-MiniLM-L6-v2")]
    r = steb("evaluate", "all-MiniLM-L6-v2", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"r"), "--revision", repo.commit, env=online)
    assert r.returncode == 0, r.stderr
    res = _result(tmp_path/"r", "all-MiniLM-L6-v2")
    assert res["model_revision"] == repo.commit and any(p.name == "model.safetensors" for p in (tmp_path/"hub").rglob("*"))
    r = steb("evaluate", "all-MiniLM-L6-v2", "--dataset", "literature_authors", "--results-dir", str(tmp_path/"r"), "--revision", "f" * 40, env=online)
    assert r.returncode == 2 and "cannot get sentence-transformers/all-MiniLM-L6-v2@" + "f" * 40 in r.stderr, r.stderr


def test_fetch_then_run_on_a_machine_without_network(net, online, tmp_path):
    "steb fetch --dry-run sizes it up, steb fetch gets it, and the run then needs no network at all."
    what = ["--dataset", "core", "amazon", "--models", "someone/tiny-bert", "random"]
    dry = steb("fetch", *what, "--dry-run", env=online)
    assert dry.returncode == 0 and "would download" in dry.stdout and "of unknown size" in dry.stdout, dry.stdout + dry.stderr   # GitHub archives: no length
    assert not (tmp_path/"cache"/"raw").exists() and not (tmp_path/"hub").exists()   # a dry run downloads nothing
    r = steb("fetch", *what, "--record", str(tmp_path/"rows.json"), env=online)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.loads((tmp_path/"rows.json").read_text())
    assert [x["status"] for x in rows] == ["downloaded", "downloaded", "downloaded", "ready"] and all(len(x["sha256"]) >= 40 for x in rows[:3]), rows
    offline = {**online, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    before = len(net.requests)
    r = steb("evaluate", "someone/tiny-bert", "--dataset", "core", "--task", "clustering", "--results-dir", str(tmp_path/"res"),
             "--correct", "seeded-selection", env=offline)   # a fixture: every label is short of the released rule's 25
    assert r.returncode == 0, r.stderr
    again = steb("fetch", *what, env=offline)
    assert again.returncode == 0 and "downloaded" not in again.stdout.split("\n\n")[0] and len(net.requests) == before, again.stdout
    missing = steb("fetch", "--dataset", "pan20_authorship_verification_test", "--models", env=offline)
    assert missing.returncode == 1 and "manual" in missing.stdout and "pan.webis.de" in missing.stdout


def _authbench_records(root, lang: str) -> list[dict]:
    "AuthBench's rows of `lang` as upstream's prepare script reads them, written out here anew (not steb-lib's loader)."
    rows = {n: [json.loads(x) for x in (root/"test"/f"{n}.jsonl").read_text().splitlines()] for n in ("queries", "candidates", "ground_truth")}
    author = {g["query_id"]: g["author_id"] for g in rows["ground_truth"]}
    bucket = lambda n: "short" if n <= 10 else "medium" if n <= 100 else "long" if n <= 500 else "extra_long"
    def record(r, who, side): return {"text": r["content"], "author": who, "side": side, "length_bucket": bucket(r["token_length"]),
                                      "primary_genre": r["genre"].split("/")[0]}
    out = [record(q, author[q["query_id"]], "query") for q in rows["queries"] if q["lang"] == lang and q["query_id"] in author]
    return out + [record(c, c["author_id"], "target") for c in rows["candidates"] if c["lang"] == lang and c["content"].strip()]


def _loop_mrr(records, vector, keep_target_only: bool) -> float:
    "MRR by a plain loop: an author's texts averaged per side, cosine, 1/(1 + targets scored above its own)."
    queried = {r["author"] for r in records if r["side"] == "query"}
    targets = {r["author"] for r in records if r["side"] == "target"}
    records = [r for r in records if r["side"] == "target" or r["author"] in targets]   # a query with no target: left out
    if not keep_target_only: records = [r for r in records if r["author"] in queried]  # the released rule
    import numpy as np
    mean = lambda side, a: np.mean([vector(r["text"]) for r in records if r["side"] == side and r["author"] == a], axis=0)
    T = {a: mean("target", a) for a in sorted({r["author"] for r in records if r["side"] == "target"})}
    cos = lambda u, v: float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))
    ranks = []
    for a in sorted({r["author"] for r in records if r["side"] == "query"}):
        q = mean("query", a); own = cos(q, T[a])
        ranks.append(1 / (1 + sum(cos(q, T[b]) > own for b in T if b != a)))
    return sum(ranks) / len(ranks)


def test_authbench_from_the_hub_offline_with_every_submetric_checked_by_a_loop(net, online, tmp_path, monkeypatch):
    """Issue 80: AuthBench attribution fetched from the hub dataset's layout (its test/ folder), run offline through the
    console script with each sub-metric and its interval (or why none) in the result and in `steb table --submetrics`;
    then every sub-metric of a model whose vectors the test computes itself, under both profiles, against a plain loop
    over the rows read anew from the downloaded files."""
    import hashlib
    import numpy as np
    fetch = steb("fetch", "--dataset", "authbench_attribution_en", "authbench_attribution_ja", "--models", env=online)
    assert fetch.returncode == 0 and "downloaded" in fetch.stdout, fetch.stdout + fetch.stderr
    offline = {**online, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    before = len(net.requests)
    for dataset in ("authbench_attribution_en", "authbench_attribution_ja"):
        r = steb("evaluate", "function-words", "--dataset", dataset, "--results-dir", str(tmp_path/"cli"), env=offline)
        assert r.returncode == 0, r.stderr
    assert len(net.requests) == before   # offline after steb fetch: no request at all
    result = json.loads((tmp_path/"cli"/"function-words"/"authbench_attribution_en"/"retrieval.json").read_text())
    subs = result["submetrics"]
    assert {n for n in subs if n.startswith("length_")} == {"length_short", "length_medium", "length_long", "length_extra_long"}
    assert {n for n in subs if n.startswith("topic_pool_")} == {"topic_pool_blog", "topic_pool_news", "topic_pool_social_media"}
    for name, sub in subs.items():   # a score with its interval or the reason for none, or the reason it was refused
        assert "refused" in sub or ("mrr" in sub["bootstrap"]["intervals"] and (sub["bootstrap"]["intervals"]["mrr"] or sub["bootstrap"]["refused"]["mrr"])), name
    assert subs["length_medium"]["bootstrap"]["intervals"]["mrr"] is not None   # 24 query authors: an interval
    table = steb("table", "--results-dir", str(tmp_path/"cli"), "--submetrics", env=offline)
    assert table.returncode == 0 and "authbench_attribution_ja/retrieval" in table.stdout, table.stdout + table.stderr
    assert f"{100 * subs['length_medium']['main_score']:.2f} [" in table.stdout and "against every target" in table.stdout
    plain = steb("table", "--results-dir", str(tmp_path/"cli"), env=offline)   # in no paper score: main scores, said so
    assert plain.returncode == 0 and "no dataset of a STEB suite here" in plain.stdout, plain.stdout
    # backfill (item 3): a model of the store without the Japanese set gets it; the one that has it is not recomputed
    r = steb("evaluate", "random", "--dataset", "authbench_attribution_en", "--results-dir", str(tmp_path/"cli"), env=offline)
    assert r.returncode == 0, r.stderr
    plan = steb("evaluate", "--models-in-store", "--dataset", "authbench_attribution_ja", "--results-dir", str(tmp_path/"cli"),
                "--executor", "local", "--dry-run", env=offline)
    assert plan.returncode == 0 and "random     1 authbench_attribution_ja" in plan.stdout and not re.search(r"^ *function-words +\d", plan.stdout, re.M), plan.stdout
    assert "no published text count (authbench_attribution_ja)" in plan.stdout, plan.stdout
    mtime = (tmp_path/"cli"/"function-words"/"authbench_attribution_ja"/"retrieval.json").stat().st_mtime_ns
    fill = steb("evaluate", "--models-in-store", "--dataset", "authbench_attribution_ja", "--results-dir", str(tmp_path/"cli"), env=offline)
    assert fill.returncode == 0 and "2 models (function-words, random)" in " ".join(fill.stdout.split()), fill.stdout + fill.stderr
    assert (tmp_path/"cli"/"random"/"authbench_attribution_ja"/"retrieval.json").is_file()
    assert (tmp_path/"cli"/"function-words"/"authbench_attribution_ja"/"retrieval.json").stat().st_mtime_ns == mtime

    vector = lambda t: np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:12], 16)).normal(size=16)
    for var, value in offline.items(): monkeypatch.setenv(var, value)
    from steb_lib.eval.runner import evaluate
    rows = _authbench_records(tmp_path/"cache"/"raw"/"huggingface"/"MaoXun"/"AuthBench", "en")
    for profile in ("paper", "corrected"):
        got = evaluate(lambda texts: np.stack([vector(t) for t in texts]), "retrieval", dataset="authbench_attribution_en",
                       model_name="hashed", model_version="1", profile=profile, results_dir=tmp_path/profile,
                       cache_dir=tmp_path/"cache", progress=False)
        assert abs(got["main_score"] - _loop_mrr(rows, vector, profile == "corrected")) < 1e-9, profile
        checked = 0
        for name, sub in got["submetrics"].items():
            p = sub["predicate"]
            kept = [r for r in rows if (p["sides"] == "query" and r["side"] == "target") or r[p["field"]] == p["value"]]
            if "refused" in sub:
                assert not [r for r in kept if r["side"] == "query"] or profile == "paper", (profile, name, sub["refused"]); continue
            assert abs(sub["main_score"] - _loop_mrr(kept, vector, profile == "corrected")) < 1e-9, (profile, name)
            checked += 1
        assert checked == len(got["submetrics"]) == 7, (profile, checked)   # none refused on this sample


def test_rerank_with_a_hub_cross_encoder(net, online, tmp_path):
    "The second stage by hub id: the CrossEncoder is downloaded like any hub model and its commit recorded."
    repo = net.hub[("model", "someone/tiny-cross-encoder")]
    r = steb("rerank", "random", "--reranker", "someone/tiny-cross-encoder", "--dataset", "literature_authors", "--k", "5",
             "--results-dir", str(tmp_path/"r"), env=online)
    assert r.returncode == 0, r.stderr
    [path] = list((tmp_path/"r").rglob("*.json"))
    res = json.loads(path.read_text())
    assert repo.commit in json.dumps(res), res


# The registry's models (upstream's additions among them: LUSR, MSR, STAR2, SAURON and the adapter-only MSR-Llama-3.2) load
# by their registry names from replicas of their own repositories: tests/models/test_hub_replicas.py.

"""Every registry entry without a shared raw copy prepares from its fixture (the source's own layout), deterministically;
manual sources say where to get the files; broken archives and tables name the dataset and the file."""
import os, shutil, subprocess, sys
from pathlib import Path
import pytest

from steb_lib.data.sources import fixtures_dir


def steb(*args, env=None):
    return subprocess.run([str(Path(sys.executable).parent/"steb"), *args], capture_output=True, text=True, env={**os.environ, **(env or {})})


def fixture_tasks():
    "(dataset, task) pairs whose source is represented by a fixture."
    from steb_lib.data.datasets import DATASET_REGISTRY, task_entry
    return [(n, t) for n, e in DATASET_REGISTRY.items() for t in e["tasks"] if task_entry(e, t).get("fixture")]


def prepared_shas(monkeypatch, cache):
    from steb_lib.data.samples import prepare_dataset
    monkeypatch.setenv("STEB_RAW_DIR", str(fixtures_dir())); monkeypatch.setenv("STEB_CACHE", str(cache))
    return {(n, t): prepare_dataset(n, t, profile="paper+seeded-selection").data.sha256 for n, t in fixture_tasks()}


def test_every_fixture_entry_prepares_deterministically(tmp_path, monkeypatch):
    first, second = prepared_shas(monkeypatch, tmp_path/"c1"), prepared_shas(monkeypatch, tmp_path/"c2")
    assert len(first) >= 100 and first == second


def test_every_entry_has_a_loader_and_honest_availability(tmp_path):
    r = steb("list-datasets", env={"STEB_RAW_DIR": str(tmp_path/"empty"), "STEB_CACHE": str(tmp_path/"c"), "HF_HUB_OFFLINE": "1"})
    assert r.returncode == 0, r.stderr
    rows = r.stdout.strip().split("\n")[1:]
    assert len(rows) == 130 and not any("no loader yet" in x for x in rows)
    avail = {x.split()[0]: x[118:].strip() for x in rows}   # fixed-width columns: name 52, suite 12, tasks 44, lang 6
    assert avail["pan20_authorship_verification_test"] == "fixture only (manual download)"
    assert avail["core"] == "fixture only" and avail["ASSET"] == "needs download" and avail["mini_probing"] == "package"
    assert avail["STEL_register"] == "shipped sample (STEB-lite)"        # loadable as it is, as `steb fetch` says
    assert avail["authbench_attribution_en"] == "fixture only"          # a hub dataset: downloads on first use


def test_manual_source_says_where_to_get_files(tmp_path):
    r = steb("prepare", "--correct", "seeded-selection", "pan15_authorship_verification_english_test", env={"STEB_RAW_DIR": str(tmp_path/"raw"), "STEB_CACHE": str(tmp_path/"c")})
    assert r.returncode == 2 and "by hand" in r.stderr and "pan.webis.de" in r.stderr and "pan/pan15-authorship-verification-test" in r.stderr, r.stderr


def test_cli_prepare_from_a_fixture_prints_path_and_sha(tmp_path):
    env = {"STEB_RAW_DIR": str(fixtures_dir()), "STEB_CACHE": str(tmp_path/"c")}
    r = steb("prepare", "--correct", "seeded-selection", "pan23_style_change_hard", "--out", str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    import hashlib
    out = tmp_path/"pan23_style_change_hard.predefined.jsonl"
    assert hashlib.sha256(out.read_bytes()).hexdigest() in r.stdout


@pytest.mark.parametrize("dataset,rel,damage,expect", [
    ("enron_authorship_corpus", "url/prod-dcd-datasets-public-files-eu-west-1.s3.eu-west-1.amazonaws.com/enron.zip", "truncate", "readable zip archive"),
    ("blog_gender", "huggingface/barilan/blog_authorship_corpus/blog_authorship_corpus/validation/0000.parquet", "truncate", "not a readable Parquet file"),
    ("core", "TurkuNLP/CORE-corpus/dev.tsv.gz", "truncate", "not a complete gzip file"),
    ("pan20_authorship_verification_test", "pan/pan20-authorship-verification-test/pan20-authorship-verification-test/pan20-authorship-verification-test-truth.jsonl", "truncate", "not valid JSON"),
    ("machine_text_detection_PAN25_collaborative", "pan/pan25-human-ai-collaborative-text-classification/dev.jsonl", "rename label_text", "missing column(s) ['label_text']"),
])
def test_broken_fixture_copy_names_dataset_and_file(tmp_path, dataset, rel, damage, expect):
    raw = tmp_path/"raw"; shutil.copytree(fixtures_dir(), raw)
    f = raw/rel
    if damage == "truncate": f.write_bytes(f.read_bytes()[: len(f.read_bytes()) // 2])
    else: f.write_text(f.read_text().replace('"label_text"', '"category"'))
    r = steb("prepare", "--correct", "seeded-selection", dataset, *(["--task", "clustering"] if dataset in ("blog_gender", "core") else []), env={"STEB_RAW_DIR": str(raw), "STEB_CACHE": str(tmp_path/"c")})
    assert r.returncode == 2 and f"dataset {dataset}:" in r.stderr and expect in r.stderr and f.name in r.stderr, r.stderr


@pytest.mark.parametrize("dataset,task,reason", [
    ("bible_versions", "clustering", "Bible verse numbers without text"),
    ("enron_authorship_corpus", "predefined", "undecodable byte sequences replaced by U+FFFD"),
    ("masc_text_genre", "clustering", "undecodable byte sequences replaced by U+FFFD"),
    ("core", "clustering", "CORE documents with no sub-register (main labels only, or OTHER)"),
    ("pan23_style_change_hard", "predefined", "style-change documents whose 'changes' do not match their paragraphs"),
    ("pan18_cross_domain_authorship_attribution_english", "retrieval", "PAN18 queries by an unknown author (<UNK>)"),
    ("amazon", "retrieval", "retrieval lines that are not JSON"),
    ("twitter_aave_sae", "order_alignment", "line pairs with an empty side"),
    ("ceeces", "clustering", "CEECES letters without metadata"),
    ("machine_text_detection_MAGE_sci_gen", "clustering", "MAGE rows with an unrecognised src"),
])
def test_quirks_of_real_files_are_skipped_and_counted(tmp_path, dataset, task, reason):
    "A fixture in the real layout, with the real files' quirks, prepares through the CLI and its meta counts what was left out."
    import json
    r = steb("prepare", "--correct", "seeded-selection", dataset, "--task", task, "--out", str(tmp_path), env={"STEB_RAW_DIR": str(fixtures_dir()), "STEB_CACHE": str(tmp_path/"c")})
    assert r.returncode == 0, r.stderr
    meta = json.loads((tmp_path/f"{dataset}.{task}.meta.json").read_text())
    assert meta["skipped"].get(reason, 0) >= 1, meta.get("skipped")


def test_every_file_a_loader_reads_keys_the_prepared_sample(tmp_path, monkeypatch):
    """Editing any file a loader read, one of the source's `files` or one it found through them (PAN's texts through its
    truth files), makes the next `steb prepare` rebuild, and the recorded raw sha256 changes; one source of each kind
    (issue 30, item 2)."""
    import re
    from steb_lib.data.datasets import DATASET_REGISTRY, task_entry
    from steb_lib.data.samples import prepare_dataset
    from steb_lib.data.prepared import source_files_sha256
    from steb_lib.data.sources import locate_source
    raw = tmp_path/"raw"; shutil.copytree(fixtures_dir(), raw)
    env = {"STEB_RAW_DIR": str(raw), "STEB_CACHE": str(tmp_path/"c")}
    for k, v in env.items(): monkeypatch.setenv(k, v)
    texts = lambda files: [r for r in files if re.search(r"\.(txt|jsonl?|tsv|csv|xml)$", r)]   # noqa: E731
    picks = {}
    for name, task in fixture_tasks():   # of each source kind, the first whose files include a text file to edit
        entry = task_entry(DATASET_REGISTRY[name], task)
        if entry["source"]["kind"] in picks: continue
        root, _ = locate_source(entry["source"], name, download=False)
        if texts(source_files_sha256(root, entry["source"])): picks[entry["source"]["kind"]] = (name, task, entry)
    picks["pan-texts"] = next((n, t, task_entry(DATASET_REGISTRY[n], t)) for n, t in fixture_tasks() if n == "pan23_style_change_hard")
    assert {"repo", "hf", "manual"} <= set(picks), sorted(picks)
    for kind, (name, task, entry) in picks.items():
        prepared = prepare_dataset(name, task, profile="paper+seeded-selection")
        root, _ = locate_source(entry["source"], name, download=False)
        read = prepared.meta.get("raw_files_read") or source_files_sha256(root, entry["source"])
        if kind == "pan-texts": assert prepared.meta.get("raw_files_read"), "PAN's text files are read beyond its patterns"
        editable = texts(read)
        assert editable, (kind, list(read)[:5])
        args = ["prepare", "--correct", "seeded-selection", name, "--task", task, "--out", str(tmp_path/"out")]
        before = steb(*args, env=env)
        assert before.returncode == 0, before.stderr[-1500:]
        target = Path(root)/editable[0]
        target.write_bytes(target.read_bytes() + b"\n")                 # one more line end: other bytes, same records
        after = steb(*args, env=env)
        assert after.returncode == 0, after.stderr[-1500:]
        raw_sha = lambda out: re.search(r"raw files sha256 (\w+)", out.stdout)[1]   # noqa: E731
        assert raw_sha(before) != raw_sha(after), (kind, name, editable[0])

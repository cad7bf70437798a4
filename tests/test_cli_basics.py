"""The console script's own manners (issue 32, item 7): `--version`, and a typo in a registry file a user edits is one
error line for the commands that need it, not a traceback on every command."""
import json, os, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEB = str(Path(sys.executable).parent / "steb")


def steb(*args, **env):
    return subprocess.run([STEB, *map(str, args)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **env})


def test_version():
    import steb_lib
    r = steb("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"steb-lib {steb_lib.__version__}", r.stdout + r.stderr


def data_dir_with(tmp_path, models_registry: str) -> Path:
    "A data directory like the project's (links to its parts) whose models/registry.json holds `models_registry`."
    data = tmp_path / "data"; data.mkdir(parents=True)
    for part in (ROOT / "data").iterdir():
        if part.name != "models": (data / part.name).symlink_to(part)
    (data / "models").mkdir()
    for f in (ROOT / "data" / "models").iterdir():
        if f.name != "registry.json": (data / "models" / f.name).symlink_to(f)
    (data / "models" / "registry.json").write_text(models_registry)
    return data


def test_a_registry_typo_is_one_error_line(tmp_path):
    good = (ROOT / "data" / "models" / "registry.json").read_text()
    data = data_dir_with(tmp_path, good.replace("}", "},", 1))              # a trailing comma
    for args in (("list-models",), ("evaluate", "random", "--suite", "mini", "--results-dir", tmp_path / "R")):
        r = steb(*args, STEB_DATA_DIR=str(data), STEB_CACHE=str(tmp_path / "c"))
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr.strip().splitlines()[-1].startswith(f"steb: error: {data / 'models' / 'registry.json'} is not valid JSON (Expecting")
    r = steb("list-datasets", "--suite", "mini", STEB_DATA_DIR=str(data))    # a command that needs no model still runs
    assert r.returncode == 0 and "mini_" in r.stdout, r.stderr
    records = json.loads(good); records[1]["hubid"] = records[1].pop("hub_id", None)
    data = data_dir_with(tmp_path / "2", json.dumps(records))
    r = steb("list-models", STEB_DATA_DIR=str(data))
    assert r.returncode == 2 and "entry 2:" in r.stderr and "unknown registry keys ['hubid']" in r.stderr, r.stderr


def test_the_printed_score_says_which_metric_it_is(tmp_path):
    "Order alignment's main score is the distractor accuracy; the line names it and gives the plain accuracy too."
    r = steb("evaluate", "random", "--dataset", "STEL_register", "--results-dir", tmp_path / "R", STEB_CACHE=str(tmp_path / "c"))
    done = [l for l in r.stdout.splitlines() if l.startswith("done   random / STEL_register / order_alignment:")]
    assert r.returncode == 0 and len(done) == 1 and ": distractor_accuracy 0." in done[0] and ", accuracy 0." in done[0], r.stdout


def test_list_datasets_and_fetch_agree_on_shipped_samples(tmp_path):
    "STEB-lite's shipped samples need no raw files: list-datasets says so, as fetch does (no 'needs download')."
    env = dict(STEB_RAW_DIR=str(tmp_path / "no-raw"), STEB_CACHE=str(tmp_path / "c"))
    listed = steb("list-datasets", "--suite", "lite", **env)
    fetched = steb("fetch", "--suite", "lite", "--dry-run", "--models", **env)
    assert listed.returncode == 0 and fetched.returncode == 0, listed.stderr + fetched.stderr
    rows = {l.split()[0]: l for l in listed.stdout.splitlines()[1:] if l.strip()}
    real = [n for n, l in rows.items() if not n.startswith("mini_")]
    assert len(real) == 7 and all(rows[n].endswith("shipped sample (STEB-lite)") for n in real), listed.stdout
    ready = " ".join(l for l in fetched.stdout.splitlines() if l.strip().startswith("ready"))
    assert all(n in ready for n in real) and "would download" not in fetched.stdout, fetched.stdout
    whole = steb("list-datasets", **env).stdout     # all tasks: a dataset shipped for some of them says which
    line = next(l for l in whole.splitlines() if l.startswith("corpus-of-diverse-styles "))
    assert line.endswith("shipped sample (clustering, all_to_all); needs download for the rest"), line


def test_notebooks_only_checks_its_inputs_and_keeps_a_good_executed_notebook(tmp_path):
    "`steb paper --notebooks-only`: a missing results dir is refused at once; a notebook that fails leaves the last good run."
    r = steb("paper", "--notebooks-only", "--results-dir", tmp_path / "missing", "--runs-dir", tmp_path / "runs")
    assert r.returncode == 2 and r.stderr.strip() == f"steb: error: no results under {tmp_path / 'missing'}: run the main job first (steb paper), or give --results-dir", r.stderr
    results = tmp_path / "R" / "m" / "d"; results.mkdir(parents=True); (results / "clustering.json").write_text("{damaged")
    runs = tmp_path / "runs"; runs.mkdir(); (runs / "02_operational.ipynb").write_text("the last good run")
    r = steb("paper", "--notebooks-only", "--notebooks", "02_operational", "--results-dir", tmp_path / "R", "--runs-dir", runs,
             "--tables-dir", tmp_path / "t", "--figures-dir", tmp_path / "f")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "steb: error: notebook 02_operational failed: StebInputError: no results under" in r.stderr, r.stderr
    assert (runs / "02_operational.ipynb").read_text() == "the last good run" and (runs / "02_operational.failed.ipynb").is_file()


def test_a_notebook_that_cannot_run_on_the_suite_is_refused_before_the_evaluation(tmp_path):
    "The mini suite has no dataset of the paper's released clusters: no definitional score, so no 03_definitional."
    r = steb("paper", "--suite", "mini", "--models", "random", "--notebooks", "02_operational", "03_definitional",
             "--results-dir", tmp_path / "R", "--runs-dir", tmp_path / "runs")
    assert r.returncode == 2 and r.stderr.startswith("steb: error: 03_definitional cannot run on the mini suite"), r.stderr
    assert not (tmp_path / "R").exists() and not (tmp_path / "runs").exists()


def test_a_local_model_directory_is_evaluated_under_the_name_given(tmp_path):
    "Issue 44, item 5: --model-name names a local directory's results (default: its absolute path)."
    from steb_lib.testing.tiny_models import make_tiny_model
    tiny = make_tiny_model("bert", tmp_path / "checkpoints" / "step-1000")
    R = tmp_path / "R"
    r = steb("evaluate", tiny, "--dataset", "mini_probing", "--task", "probing", "--model-name", "my-style-model",
             "--results-dir", R, "--cache-dir", tmp_path / "cache")
    assert r.returncode == 0, r.stderr[-2000:]
    result = json.loads((R / "my-style-model" / "mini_probing" / "probing.json").read_text())
    assert result["model"] == "my-style-model" and result["model_files_sha256"], result
    assert "my-style-model" in steb("table", "--results-dir", R, "--score", "main").stdout
    r = steb("evaluate", "random", "--dataset", "mini_probing", "--model-name", "mine", "--results-dir", R)
    assert r.returncode == 2 and "names a local model directory; random has its own name" in r.stderr, r.stderr


def results_of_every_format(records, tmp_path, task: str) -> dict:
    "`records` written as JSONL, CSV, TSV and Parquet, each evaluated by `random` on `task`: {file: result}."
    import pandas as pd
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    pd.DataFrame(records).to_csv(tmp_path / "s.csv", index=False)
    pd.DataFrame(records).to_csv(tmp_path / "s.tsv", index=False, sep="\t")
    pd.DataFrame(records).to_parquet(tmp_path / "s.parquet")
    got = {}
    for f in ("s.jsonl", "s.csv", "s.tsv", "s.parquet"):
        r = steb("evaluate", "random", "--data-file", tmp_path / f, "--task", task, "--name", f.replace(".", "-"),
                 "--results-dir", tmp_path / "R")
        assert r.returncode == 0, r.stderr[-2000:]
        got[f] = json.loads(next((tmp_path / "R" / "random" / f.replace(".", "-")).glob("*.json")).read_text())
    return got


def test_a_table_is_a_data_file_as_its_jsonl_is(tmp_path):
    "Issue 44, item 5: CSV, TSV and Parquet files whose columns are the JSONL fields give the JSONL file's result."
    records = [{"text": f"text number {i} " + "word " * (i % 5), "label": f"style{i % 3}"} for i in range(60)]
    got = results_of_every_format(records, tmp_path, "all-to-all")
    assert len({(g["data_sha256"], g["main_score"]) for g in got.values()}) == 1, got
    (tmp_path / "bad.csv").write_text("text,style\na,x\nb,y\n")
    r = steb("evaluate", "random", "--data-file", tmp_path / "bad.csv", "--task", "all-to-all", "--results-dir", tmp_path / "R")
    assert r.returncode == 2 and f"{tmp_path / 'bad.csv'}:2: missing field 'label'" in r.stderr, r.stderr


def test_labels_that_look_like_numbers_stay_labels_in_every_table_format(tmp_path):
    "Issue 61, item 1: '01' and '1' are two classes in CSV, TSV and Parquet as in JSONL (pandas read both as 1)."
    labels = ["01", "1", "2"]
    records = [{"text": f"note {i}: " + "word " * (i % 7) + labels[i % 3] * (i % 4), "label": labels[i % 3]} for i in range(45)]
    got = results_of_every_format(records, tmp_path, "clustering")
    assert {g["metrics"]["n_clusters"] for g in got.values()} == {3}, {f: g["metrics"] for f, g in got.items()}
    assert len({(g["data_sha256"], g["main_score"]) for g in got.values()}) == 1, {f: g["main_score"] for f, g in got.items()}


def test_environment_yml_lists_what_settings_ini_requires():
    "conda users get the same dependencies: environment.yml is scripts/make_environment.py's output from settings.ini."
    sys.path.insert(0, str(ROOT / "scripts"))
    try: from make_environment import environment_yml
    finally: sys.path.pop(0)
    assert (ROOT / "environment.yml").read_text(encoding="utf-8") == environment_yml(), "run scripts/make_environment.py"


def test_the_environment_holds_the_exact_versions_of_constraints_txt():
    """Issue 44, item 7: settings.ini declares ranges; constraints.txt is the lock that install.sh installs, so the
    tests run on exactly its versions (a package upgraded by hand, or a pin edited without reinstalling, fails here)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try: from make_environment import constraints_mismatches
    finally: sys.path.pop(0)
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    assert len(text.splitlines()) > 150 and "\ntorch==" in text and "\ntransformers==" in text
    assert constraints_mismatches(text) == [], "reinstall (scripts/install.sh) or rewrite constraints.txt"
    assert constraints_mismatches("numpy==0.0.1\nno-such-package==1\n") == [
        "numpy: pinned 0.0.1, installed " + __import__("numpy").__version__, "no-such-package: pinned 1, installed None"]
    assert "-c constraints.txt" in (ROOT / "scripts" / "install.sh").read_text()


def test_the_packaged_mpnet_is_stored_once():
    "scripts/install.sh unpacks all-mpnet-base-v2 and removes its zip parts: one copy on disk, and it still resolves."
    from steb_lib.data.sources import zip_part_files
    from steb_lib.models.registry import resolve_model
    from steb_lib.models.files import model_source, unpacked_model_dir
    spec = resolve_model("all-mpnet-base-v2")
    assert unpacked_model_dir(spec) is not None and not zip_part_files(spec.packaged["zip_parts"])
    assert model_source(spec)[0] == str(unpacked_model_dir(spec))


def test_export_to_mteb_task_results(tmp_path):
    "`steb export --format mteb`: every result as a TaskResult of MTEB's documented schema (mteb/results/task_result.py)."
    from typing import Any
    from pydantic import BaseModel, field_validator

    class TaskResult(BaseModel):   # the fields and checks of MTEB's TaskResult (2.x), written out here
        dataset_revision: str
        task_name: str
        mteb_version: str | None
        scores: dict[str, list[dict[str, Any]]]
        evaluation_time: float | None
        kg_co2_emissions: float | None = None
        date: float | None = None

        @field_validator("scores")
        @classmethod
        def each_subset(cls, v):
            for entries in v.values():
                for e in entries:
                    assert "main_score" in e and isinstance(e["hf_subset"], str) and isinstance(e["languages"], list)
            return v

    r = steb("export", ROOT / "data" / "results" / "lite", tmp_path / "mteb", "--format", "mteb")
    assert r.returncode == 0 and r.stdout.startswith("128 results written"), r.stdout + r.stderr
    files = [p for p in (tmp_path / "mteb").rglob("*.json") if p.name != "model_meta.json"]
    assert len(files) == 128
    parsed = [TaskResult.model_validate_json(p.read_text()) for p in files]
    ewave = next(t for t, p in zip(parsed, files) if p.name == "STEB-eWAVE-clustering.json" and "random" in str(p))
    original = json.loads((ROOT / "data" / "results" / "lite" / "random" / "eWAVE" / "clustering.json").read_text())
    assert ewave.scores["test"][0]["main_score"] == original["main_score"] and ewave.dataset_revision == original["data_sha256"]
    assert ewave.scores["test"][0]["languages"] == ["eng-Latn"]
    assert ewave.scores["test"][0]["steb_main_score_ci"] == original["bootstrap"]["intervals"]["v_measure"]   # issue 57
    r = steb("export", tmp_path / "empty", tmp_path / "out2")
    assert r.returncode == 2 and "no results under" in r.stderr
    # issue 46, items 10-11: names taken from results never lead out of the export folder; `created` that is no date
    from steb_lib.eval.results import RESULT_RECORD
    store = tmp_path / "odd" / "store"
    (store / "random" / "eWAVE").mkdir(parents=True)
    odd = original | {"dataset": "x/../../../ESC", "created": "yesterday"}
    odd[RESULT_RECORD.checksum_field] = RESULT_RECORD.checksum(odd)
    (store / "random" / "eWAVE" / "clustering.json").write_text(json.dumps(odd))
    r = steb("export", store, tmp_path / "odd" / "out", "--format", "mteb")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    written = [p for p in (tmp_path / "odd").rglob("*.json") if "store" not in p.parts]
    assert written and all((tmp_path / "odd" / "out") in p.parents for p in written), written
    assert json.loads(next(p for p in written if p.name != "model_meta.json").read_text())["date"] is None


def test_help_and_version_import_no_heavy_library():
    "`steb --help` and `--version` answer without importing torch, scikit-learn or the task registry (was 4 s)."
    probe = ("import sys\nfrom steb_lib.cli import main\n"
             "for args in (['--help'], ['--version']):\n"
             "    try: main(args)\n    except SystemExit as e: assert e.code == 0\n"
             "heavy = [m for m in ('torch', 'sklearn', 'transformers', 'steb_lib.tasks.task_data') if m in sys.modules]\n"
             "print('heavy:', heavy)\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("heavy: []"), r.stdout + r.stderr
    assert "export" in r.stdout and "evaluate" in r.stdout
    from steb_lib.cli import COMMAND_HELP, build_parser
    full = build_parser()._subparsers._group_actions[0].choices                   # the full parser has the same commands
    assert list(full) == list(COMMAND_HELP)


def test_train_help_lists_the_registered_scoring_modes():
    "Issue 59, item 6: `--scoring` names what is registered, not only 'any registered one'."
    r = steb("train", "contrastive", "--help")
    assert r.returncode == 0 and "registered: mean|maxsim|patch-N|patch-word|patch-auto" in " ".join(r.stdout.split()), r.stdout


def test_a_seed_out_of_range_is_one_line_before_any_work(tmp_path):
    "Issue 61, item 6: --seed -1 or 99999999999999999999 was a scikit-learn traceback (or -5 stored for retrieval)."
    for seed in ("-1", "-5", "99999999999999999999", "4294967296"):
        r = steb("evaluate", "random", "--dataset", "literature_authors", "--seed", seed, "--results-dir", tmp_path / "R")
        assert r.returncode == 2 and f"argument --seed: '{seed}' is not a seed: an integer from 0 to 4294967295" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and not (tmp_path / "R").exists()
    assert steb("evaluate", "random", "--dataset", "literature_authors", "--seed", "4294967295", "--results-dir", tmp_path / "R").returncode == 0


def test_a_result_with_a_nan_score_or_no_checksum_is_computed_again(tmp_path):
    "Issue 61, item 5: a hand-placed result with a NaN score, or with no checksum, counted as finished."
    R = tmp_path / "R"
    r = steb("evaluate", "random", "--dataset", "literature_authors", "--results-dir", R)
    assert r.returncode == 0, r.stderr
    path = R / "random" / "literature_authors" / "retrieval.json"
    good = json.loads(path.read_text())
    unsigned = {k: v for k, v in good.items() if k != "result_sha256"}
    for placed, said in ((unsigned | {"main_score": float("nan")}, "not a number"), (unsigned, "has no checksum")):
        path.write_text(json.dumps(placed))
        r = steb("evaluate", "random", "--dataset", "literature_authors", "--results-dir", R)
        assert r.returncode == 0 and said in r.stdout + r.stderr, r.stdout + r.stderr
        again = json.loads(path.read_text())
        assert again["main_score"] == good["main_score"] and again["result_sha256"] == good["result_sha256"]

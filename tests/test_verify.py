"""Reproduction, certified (issue 42), through the `steb` console script: the kernels it pins before numpy and torch load,
the run settings every results directory records, and `steb verify` on a copy of a committed store altered by hand (each
verdict and each detectable cause once)."""
import json, os, shutil, subprocess, sys
from pathlib import Path

from steb_lib.eval.results import RESULT_RECORD
from steb_lib.run_settings import KERNEL_PINS, RUN_SETTINGS_FILE, SPEED_PINS

ROOT = Path(__file__).resolve().parents[1]
STEB = [str(Path(sys.executable).parent / "steb")]
ENV = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS and k != "STEB_NATIVE_KERNELS"}
ENV |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def steb(*args, **env):
    return subprocess.run(STEB + [str(a) for a in args], env={**ENV, **env}, capture_output=True, text=True)


def test_the_console_script_pins_the_kernels_before_numpy_loads():
    r = steb("kernels")
    assert r.returncode == 0 and r.stdout.startswith("kernels: pinned (torch: avx2; numpy's OpenBLAS: Haswell, 1 thread"), r.stdout
    native = steb("kernels", "--native-kernels")
    assert native.stdout.startswith("kernels: native") and "Haswell" not in native.stdout.splitlines()[0]
    assert steb("kernels", STEB_NATIVE_KERNELS="1").stdout.startswith("kernels: native")
    shell = steb("kernels", "--shell").stdout.splitlines()
    assert shell[:-1] == [f"export {k}={v}" for k, v in (KERNEL_PINS | SPEED_PINS).items()]
    assert shell[-1].startswith("export TORCHINDUCTOR_CACHE_DIR=") and shell[-1].endswith("-steb-pinned-avx2")   # issue 78
    assert "torch's matrix products: numpy's OpenBLAS (pinned kernels)" in r.stdout.splitlines()[0]
    assert "  OMP_WAIT_POLICY=PASSIVE   (speed only, unless set: no bit changes)" in r.stdout.splitlines()   # SPEED_PINS


LOADED = """
import numpy as np, torch
from steb_lib.models.encoders import load_encoder
from steb_lib import run_settings
encoder = load_encoder("all-MiniLM-L6-v2", device="cpu")
a, b = torch.randn(37, 384), torch.randn(384, 1536)
print(run_settings._products_library is not None, torch.equal(a @ b, torch.from_numpy(a.numpy() @ b.numpy())))
"""


def test_a_model_loaded_under_the_pins_takes_its_products_from_openblas():
    pinned = subprocess.run([sys.executable, "-c", LOADED], env=ENV | KERNEL_PINS, capture_output=True, text=True)
    assert pinned.stdout.split() == ["True", "True"], pinned.stderr[-2000:]
    native = subprocess.run([sys.executable, "-c", LOADED], env=ENV, capture_output=True, text=True)
    assert native.stdout.split()[0] == "False", native.stderr[-2000:]


def test_every_results_directory_records_its_run_settings_once(tmp_path):
    store = tmp_path / "r"
    for dataset in ("mini_authors_retrieval_en", "mini_authors_retrieval_nl"):
        r = steb("evaluate", "random", "--dataset", dataset, "--results-dir", store, "--cache-dir", tmp_path / "c")
        assert r.returncode == 0, r.stderr[-2000:]
    lines = [json.loads(line) for line in (store / RUN_SETTINGS_FILE).read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["kernels"]["mode"] == "pinned"
    assert lines[0]["kernels"]["numpy_blas"]["architecture"] == "Haswell" and lines[0]["libraries"]["torch"]
    results = [json.loads(p.read_text()) for p in store.glob("*/*/*.json")]
    assert len(results) == 2 and {r["run_settings"] for r in results} == {lines[0]["run_settings"]}
    r = steb("evaluate", "random", "--dataset", "mini_authors_retrieval_en", "--results-dir", store, "--cache-dir",
             tmp_path / "c", "--force", "--native-kernels")
    assert r.returncode == 0, r.stderr[-2000:]
    modes = [json.loads(line)["kernels"]["mode"] for line in (store / RUN_SETTINGS_FILE).read_text().splitlines()]
    assert modes == ["pinned", "native"]


def altered(path: Path, **fields) -> None:
    """Change a stored result's fields and write it back with a valid checksum (as another run would have written it;
    one with another main score without per-sample outputs, which would give the old one)."""
    r = json.loads(path.read_text()) | fields
    if "main_score" in fields: r.pop("per_sample", None)
    r[RESULT_RECORD.checksum_field] = RESULT_RECORD.checksum(r)
    path.write_text(json.dumps(r, indent=1, sort_keys=True))


def test_verify_gives_each_verdict_and_names_each_cause(tmp_path):
    reference = ROOT / "data" / "results" / "lite-truncate"
    run = tmp_path / "results" / "lite-truncate"   # named like the committed store: the default reference
    shutil.copytree(reference, run)
    r = steb("verify", run)
    assert r.returncode == 0 and "16 identical, 0 same numbers, 0 within tolerance, 0 differs, 0 missing" in r.stdout, r.stdout
    settings = [json.loads(line) for line in (reference / RUN_SETTINGS_FILE).read_text().splitlines()]
    assert len(settings) == 1, "the committed store records the environment it was made in"
    other = json.loads(json.dumps(settings[0])) | {"run_settings": "0123456789abcdef"}
    other["cpu"]["model"] = "Another CPU"
    with open(run / RUN_SETTINGS_FILE, "a") as f: f.write(json.dumps(other) + "\n")

    def result(model, dataset):
        return next((run / model / dataset).glob("*.json"))
    score = lambda p: json.loads(p.read_text())["main_score"]   # noqa: E731
    altered(result("random", "mini_aaac_verification_nl"), seconds=99.0, created="2030-01-01T00:00:00+00:00")
    altered(result("biber", "mini_aaac_verification_nl"), model_source="a folder of my own")
    near = result("random", "mini_authors_retrieval_nl")   # 8 queries: tolerance 1/16
    altered(near, main_score=score(near) + 0.01, run_settings="0123456789abcdef")
    weights = result("function-words", "mini_authors_retrieval_nl")
    altered(weights, main_score=score(weights) + 0.2, model_revision="another")
    data = result("stylometric", "mini_authors_retrieval_nl")
    altered(data, main_score=score(data) + 0.2, data_sha256="0" * 64)
    inputs = result("tfidf-bundled-1-2", "mini_authors_retrieval_nl")
    altered(inputs, main_score=score(inputs) + 0.2, seed=7)
    version = result("tfidf-bundled-1-3", "mini_authors_retrieval_nl")
    altered(version, main_score=score(version) + 0.2, steb_lib_version="9.9.9")
    unrecorded = result("styledistance-mini", "mini_authors_retrieval_nl")
    altered(unrecorded, main_score=score(unrecorded) + 0.2, run_settings=None)
    # near ties: order alignment and clustering count them (not in this store); a move beyond them is not theirs
    ties = result("stylometric", "mini_aaac_verification_nl")
    altered(ties, main_score=score(ties) + 0.2, metrics=json.loads(ties.read_text())["metrics"] | {"near_ties": 3})
    batch = result("function-words", "mini_aaac_verification_nl")
    altered(batch, main_score=score(batch) + 0.2, batch_size=8)
    result("biber", "mini_authors_retrieval_nl").unlink()
    shutil.copytree(run / "random", run / "my-model")   # results of a model the reference lacks (not copies of random's)
    for copied in (run / "my-model").glob("*/*.json"): altered(copied, model="my-model")

    r = steb("verify", run)
    out = r.stdout
    assert r.returncode == 1 and "→ NOT reproduced" in out, out
    assert "6 identical, 1 same numbers, 1 within tolerance, 7 differs, 1 missing, 2 new" in out, out
    assert "largest move of a main score: 0.2" in out
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("  differs") or line.startswith("  missing")}
    assert "model weights (model_revision)" in lines["function-words/mini_authors_retrieval_nl/retrieval:"]
    assert "data (data_sha256)" in lines["stylometric/mini_authors_retrieval_nl/retrieval:"]
    assert "other inputs (seed)" in lines["tfidf-bundled-1-2/mini_authors_retrieval_nl/retrieval:"]
    assert "steb-lib (steb_lib_version)" in lines["tfidf-bundled-1-3/mini_authors_retrieval_nl/retrieval:"]
    assert "environment (not recorded)" in lines["styledistance-mini/mini_authors_retrieval_nl/retrieval:"]
    assert "not in the run" in lines["biber/mini_authors_retrieval_nl/retrieval:"]
    # issue 61: 3 near ties cannot move an AUROC by 0.2: they are not named as its cause (72_verify: within tolerance
    # they are)
    assert "near-tie" not in lines["stylometric/mini_aaac_verification_nl/predefined:"], lines
    assert "batch size (batch_size)" in lines["function-words/mini_aaac_verification_nl/predefined:"]
    # the verdicts within tolerance and of same numbers, with their causes: from the library's rows
    from steb_lib.verify import verify_run
    rows = verify_run(run, reference)
    near_row = rows.loc["random/mini_authors_retrieval_nl/retrieval"]
    assert near_row["verdict"] == "within tolerance" and near_row["causes"] == "environment (cpu.model: " \
        f"{settings[0]['cpu']['model']} → Another CPU)" and "reciprocal rank" in near_row["why_tolerated"]
    assert rows.loc["biber/mini_aaac_verification_nl/predefined", "causes"] == "fields: model_source"
    assert rows.loc["random/mini_aaac_verification_nl/predefined", "verdict"] == "identical"


def test_verify_refuses_what_it_cannot_judge(tmp_path):
    store = tmp_path / "my-results"
    shutil.copytree(ROOT / "data" / "results" / "lite-truncate", store)
    r = steb("verify", store)
    assert r.returncode == 2 and "give the reference with --against" in r.stderr, r.stderr
    bad = next(store.glob("random/*/*.json")); bad.write_text("{ not json")
    r = steb("verify", store, "--against", ROOT / "data" / "results" / "lite-truncate")
    assert r.returncode == 2 and str(bad) in r.stderr and "cannot be read" in r.stderr, r.stderr


def test_a_store_of_another_profile_is_not_reproduced(tmp_path):
    "Issue 61, item 6: steb verify called a corrected store 'reproduced' against the paper profile's."
    R = tmp_path / "R"
    r = steb("evaluate", "random", "--dataset", "mini_probing", "--profile", "corrected", "--results-dir", R)
    assert r.returncode == 0, r.stderr
    ref = tmp_path / "ref"
    r = steb("evaluate", "random", "--dataset", "mini_probing", "--results-dir", ref)
    assert r.returncode == 0, r.stderr
    v = steb("verify", R, "--against", ref)
    assert v.returncode == 1 and "another profile: corrected, the reference's paper" in v.stdout, v.stdout + v.stderr
    assert "→ NOT reproduced" in v.stdout and "nan" not in v.stdout.lower()

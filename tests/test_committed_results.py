"""The committed STEB-lite results (data/results/lite and lite-truncate, the main job's output that the paper notebooks
read) are reproduced exactly, timing and run-settings fields aside, by today's code through the console script (which
pins the numeric kernels, issue 42), and `steb verify` says so. The two cheapest models are recomputed here for every
committed (dataset, task) in both protocols; the others take the whole main job (`bash run.sh`, which ends by verifying
its stores against these)."""
import json, os, shutil, subprocess, sys
from pathlib import Path

import pytest

from steb_lib.records import TIMING_FIELDS
from steb_lib.eval.results import without_timing
from steb_lib.run_settings import KERNEL_PINS

RESULTS = Path(__file__).resolve().parent.parent/"data"/"results"
MODELS = ("random", "function-words")   # TF-IDF, neural and trained models: `bash run.sh` (CI time is kept for the rest)
STEB = [str(Path(sys.executable).parent/"steb")]
# as on a fresh machine: the shipped samples (data_found_in: lite), the kernels as the console script pins them
ENV = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS and k not in ("STEB_RAW_DIR", "STEB_NATIVE_KERNELS")}


def committed(store: str, model: str) -> list[Path]:
    return sorted((RESULTS/store/model).glob("*/*.json"))


def stored_without_timing(path: Path) -> dict:
    return without_timing(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("store,protocol", [("lite", "chunk"), ("lite-truncate", "truncate")])
def test_committed_results_are_reproduced(store, protocol, tmp_path):
    run, reference = tmp_path/"results"/store, tmp_path/"reference"/store
    checked = 0
    for model in MODELS:
        files = committed(store, model)
        assert files, f"no committed results of {model} in {store}"
        shutil.copytree(RESULTS/store/model, reference/model)
        # the suite's shipped samples (a dataset named alone is the registered one: its raw files); under truncation
        # the main job evaluates only the multilingual datasets, so the English ones come out here as `new`
        r = subprocess.run(STEB + ["evaluate", model, "--suite", "lite", "--protocol", protocol, "--results-dir",
                                   str(run), "--cache-dir", str(tmp_path/"cache")], env=ENV, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-2000:]
        for f in files:
            fresh = run/f.relative_to(RESULTS/store)
            assert stored_without_timing(fresh) == stored_without_timing(f), f
            text = lambda p: [line for line in p.read_text(encoding="utf-8").splitlines()   # noqa: E731
                              if not any(line.startswith(f' "{k}"') for k in TIMING_FIELDS)]
            assert text(fresh) == text(f), f"{f}: same content, other bytes"
            samples = f.with_suffix(".samples.npz")   # the per-sample outputs and replicates: the same bytes too
            assert fresh.with_suffix(".samples.npz").read_bytes() == samples.read_bytes(), samples
            checked += 1
    assert checked == (32 if store == "lite" else 4)   # every committed (dataset, task) of these models: 16 chunk, 2 truncate each
    shutil.copy(RESULTS/store/"run_settings.jsonl", reference)
    r = subprocess.run(STEB + ["verify", str(run), "--against", str(reference)], env=ENV, capture_output=True, text=True)
    assert r.returncode == 0 and f"{checked} identical, 0 same numbers, 0 within tolerance, 0 differs, 0 missing" in r.stdout, \
        r.stdout + r.stderr
    # made here with the kernels pinned as they were where the committed results were made
    mine, theirs = (json.loads((d/"run_settings.jsonl").read_text().splitlines()[0]) for d in (run, reference))
    assert mine["kernels"]["env"] == theirs["kernels"]["env"] == KERNEL_PINS

"""The main job through the console script, as run.sh calls it (`steb paper`): STEB-lite on a fresh machine — no raw
files, empty caches — for the two cheapest models and two paper notebooks. The whole job (every default model, every
notebook, ~14 min) is `bash run.sh`; its output is the committed data/results/lite and lite-truncate: this job's
results of the two models are those committed ones byte for byte (timing fields aside), per-sample outputs too, made
with the kernels pinned as the committed ones were."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

STEB = Path(sys.executable).parent / "steb"
COMMITTED = Path(__file__).resolve().parents[2] / "data" / "results"


def committed_results_are_reproduced(results: Path):
    "Every committed result of the two models, in both stores, as this run wrote it: the same bytes, timing aside."
    from steb_lib.eval.results import without_timing
    from steb_lib.records import TIMING_FIELDS
    from steb_lib.run_settings import KERNEL_PINS
    untimed = lambda p: [line for line in p.read_text(encoding="utf-8").splitlines()   # noqa: E731
                         if not any(line.startswith(f' "{k}"') for k in TIMING_FIELDS)]
    for store, count in (("lite", 32), ("lite-truncate", 4)):   # 16 (dataset, task) pairs and 2 truncated, per model
        files = [f for model in ("random", "function-words") for f in sorted((COMMITTED / store / model).glob("*/*.json"))]
        assert len(files) == count, (store, files)
        for f in files:
            fresh = results / store / f.relative_to(COMMITTED / store)
            assert without_timing(json.loads(fresh.read_text())) == without_timing(json.loads(f.read_text())), f
            assert untimed(fresh) == untimed(f), f"{f}: same content, other bytes"
            samples = f.with_suffix(".samples.npz")   # the per-sample outputs and replicates: the same bytes too
            assert fresh.with_suffix(".samples.npz").read_bytes() == samples.read_bytes(), samples
        mine, theirs = (json.loads((d / "run_settings.jsonl").read_text().splitlines()[0])
                        for d in (results / store, COMMITTED / store))
        assert mine["kernels"]["env"] == theirs["kernels"]["env"] == KERNEL_PINS


def test_steb_paper_runs_steb_lite_from_the_shipped_samples(tmp_path):
    from steb_lib.run_settings import KERNEL_PINS   # as on a fresh machine: the console script pins the kernels
    env = {k: v for k, v in os.environ.items() if k not in ("STEB_RAW_DIR", "STEB_NATIVE_KERNELS", *KERNEL_PINS)} \
        | {"STEB_CACHE": str(tmp_path / "cache")}
    dirs = {d: tmp_path / d for d in ("results", "tables", "figures", "runs")}
    cmd = [str(STEB), "paper", "--models", "random", "function-words", "--notebooks", "02_operational", "03_definitional",
           "--results-dir", str(dirs["results"] / "lite"), "--tables-dir", str(dirs["tables"]),
           "--figures-dir", str(dirs["figures"]), "--runs-dir", str(dirs["runs"])]
    done = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]

    results = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((dirs["results"] / "lite").glob("*/*/*.json"))]
    assert len(results) == 32                                   # 16 (dataset, task) pairs x 2 models
    assert {r["data_found_in"] for r in results} == {"lite", "package"}    # shipped samples + the mini suite's packages
    assert len(list((dirs["results"] / "lite-truncate").glob("*/*/*.json"))) == 4      # the Dutch sets, truncated
    # the first line counts everything the job will do, before anything lands (issue 59)
    out = done.stdout.splitlines()
    first = [i for i, line in enumerate(out) if line.startswith("the main job, 2 models: 36 results to compute (32 into ")]
    assert first and "; 0 already there); then 2 notebooks. A line per result as it lands" in out[first[0]], done.stdout[:1000]
    result_re = re.compile(r"\[(\d+)/36(, ~\d+ (min|s) left)?\] \S+ / \S+ / \w+( \(truncate\))?: \d\.\d{4} \(\d+\.\d s\)$")
    lines = [line for line in out if result_re.match(line)]               # a line per result as it lands
    assert len(lines) == 36 and first[0] < out.index(lines[0]) and ", ~" in lines[0], lines
    assert lines[-1].startswith("[36/36] ") and sum("(truncate)" in line for line in lines) == 4, lines
    # a line as each phase starts: each model's evaluation on its worker, its truncated datasets, each notebook
    phases = [line for line in out if line.startswith("→ ")]
    for model in ("random", "function-words"):
        assert any(re.fullmatch(rf"→ evaluating {model} \(worker \d\)", p) for p in phases), phases
        assert any(p.startswith(f"→ {model}: the multilingual datasets, truncated (worker ") for p in phases), phases
    assert "→ the paper notebooks: 2, 2 at once" in phases, phases
    for name in ("02_operational", "03_definitional"):
        assert f"→ notebook {name}" in phases and any(re.match(rf"notebook {name}: \d+\.\d s -> ", line) for line in out), phases
    # the last line: one verdict over the stores, judged on the two models asked for, and the exit code with it
    assert out[-1] == "verified 2 stores against the committed ones: 36 results: 36 identical → reproduced", out[-12:]
    assert not list(dirs["results"].rglob("*.lock")), list(dirs["results"].rglob("*.lock"))   # none left behind
    # at its end: the tables with intervals, ranks and ≈#1 marks, and the paper's claims with their verdicts (issue 57)
    end = done.stdout[done.stdout.index("## STEB (operational)"):]
    assert "rank [interval]" in end and "| 1 [1–1]" in end and "#1" in end and "bias-corrected" in end, end[:3000]
    assert "## The paper's claims" in end and "not testable here" in end and "LUAR-CRUD beats GPT-5.2" in end, end

    committed_results_are_reproduced(dirs["results"])

    per_dataset = pd.read_csv(dirs["tables"] / "per_dataset_operational.csv")
    assert {"STEL_feature", "eWAVE", "corpus-of-diverse-styles"} <= set(per_dataset["dataset"])
    assert not per_dataset["dataset"].str.startswith("mini_").any()         # only the datasets shared with the paper
    operational = pd.read_csv(dirs["tables"] / "tab02_operational.csv")
    assert list(operational["model"]) == ["Function words", "random"]       # the reference last
    for name in ("02_operational", "03_definitional"):
        executed = (dirs["runs"] / f"{name}.ipynb").read_text(encoding="utf-8")
        assert "the `lite` suite, 12 datasets (7 of them the paper's own), 1 model (Function words)" in executed
    assert sorted(p.name for p in dirs["runs"].glob("*.ipynb")) == ["02_operational.ipynb", "03_definitional.ipynb"]
    # the same again, --quiet, one result now differing from the committed one (as another machine's might): nothing
    # is computed again, no line is printed per result, the last line says NOT reproduced and the exit code is 1 (0 with
    # --exit-zero)
    from steb_lib.eval.results import RESULT_RECORD
    moved = dirs["results"] / "lite" / "random" / "STEL_feature" / "order_alignment.json"
    r = json.loads(moved.read_text(encoding="utf-8")) | {"main_score": 0.99}; r.pop("per_sample", None)
    moved.write_text(json.dumps(r | {RESULT_RECORD.checksum_field: RESULT_RECORD.checksum(r)}), encoding="utf-8")
    written = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((dirs["results"] / "lite").glob("*/*/*.json"))]
    quiet = cmd[:cmd.index("--notebooks")] + ["--notebooks", "02_operational", "--quiet"] + cmd[cmd.index("--results-dir"):]
    for extra, code in (([], 1), (["--exit-zero"], 0)):
        again = subprocess.run(quiet + extra, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
        assert again.returncode == code and not [l for l in again.stdout.splitlines() if l.startswith("[")], again.stdout[-2000:]
        last = again.stdout.splitlines()[-1]
        assert last.startswith("verified 2 stores against the committed ones: 36 results: 35 identical, "), again.stdout[-2000:]
        assert last.endswith(f"→ NOT reproduced (see: steb verify {dirs['results'] / 'lite'})"), last
    assert [json.loads(p.read_text(encoding="utf-8")) for p in sorted((dirs["results"] / "lite").glob("*/*/*.json"))] == written
    assert sum(a != b for a, b in zip(written, results)) == 1              # the altered one alone

"""The main job through the console script, as run.sh calls it (`steb paper`): STEB-lite on a fresh machine — no raw
files, empty caches — for the two cheapest models and two paper notebooks. The whole job (every default model, every
notebook, ~7 min) is `bash run.sh`; its output is the committed data/results/lite, checked by test_committed_results."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

STEB = Path(sys.executable).parent / "steb"


def test_steb_paper_runs_steb_lite_from_the_shipped_samples(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "STEB_RAW_DIR"} | {"STEB_CACHE": str(tmp_path / "cache")}
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
    # a line per result as it lands (the workers write their own logs), with the count and the time left
    out = done.stdout.splitlines()   # the first line of the evaluation says what it does, before any result lands
    start = [i for i, line in enumerate(out) if line.startswith("evaluating: 36 results to compute, 0 already there")]
    assert start and start[0] < min(i for i, line in enumerate(out) if line.startswith("[")), done.stdout[:1000]
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(lines) == 36 and re.match(r"\[1/36, ~\d+ (min|s) left\] \S+ / \S+ / \w+: \d\.\d{4} \(\d+\.\d s\)$", lines[0]), lines
    assert lines[-1].startswith("[36/36] ") and sum("(truncate)" in line for line in lines) == 4, lines
    # at its end: the tables with intervals, ranks and ≈#1 marks, and the paper's claims with their verdicts (issue 57)
    end = done.stdout[done.stdout.index("## STEB (operational)"):]
    assert "rank [interval]" in end and "| 1 [1–1]" in end and "#1" in end and "bias-corrected" in end, end[:3000]
    assert "## The paper's claims" in end and "not testable here" in end and "LUAR-CRUD beats GPT-5.2" in end, end

    per_dataset = pd.read_csv(dirs["tables"] / "per_dataset_operational.csv")
    assert {"STEL_feature", "eWAVE", "corpus-of-diverse-styles"} <= set(per_dataset["dataset"])
    assert not per_dataset["dataset"].str.startswith("mini_").any()         # only the datasets shared with the paper
    operational = pd.read_csv(dirs["tables"] / "tab02_operational.csv")
    assert list(operational["model"]) == ["Function words", "random"]       # the reference last
    for name in ("02_operational", "03_definitional"):
        executed = (dirs["runs"] / f"{name}.ipynb").read_text(encoding="utf-8")
        assert "the `lite` suite, 12 datasets (7 of them the paper's own), 1 model (Function words)" in executed
    assert sorted(p.name for p in dirs["runs"].glob("*.ipynb")) == ["02_operational.ipynb", "03_definitional.ipynb"]
    # the same again, --quiet: nothing is computed again and no line is printed per result
    again = subprocess.run(cmd[:cmd.index("--notebooks")] + ["--notebooks", "02_operational", "--quiet"] + cmd[cmd.index("--results-dir"):],
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and not [l for l in again.stdout.splitlines() if l.startswith("[")], again.stdout[-2000:]
    assert [json.loads(p.read_text(encoding="utf-8")) for p in sorted((dirs["results"] / "lite").glob("*/*/*.json"))] == results

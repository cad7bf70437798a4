"""Invariance, measured (issue 42, item 5): how far STEB-lite's numbers move with the batch size, the thread count and the
numeric kernels, against the committed results (batches of 32, one thread per model, pinned kernels: how the main job
computes them).

For each setting, a copy of the committed store `data/results/lite` gets the results of all-MiniLM-L6-v2 and
styledistance-mini recomputed in a process of their own (`steb evaluate MODEL --suite lite --force`, a fresh embedding
cache per setting); `steb verify`'s rows against the committed store (`verify.largest_moves`) give, per model and task,
the verdicts and the largest |Δ|, and `verify.moved_table_cells` the cells of the STEB tables that print differently.
The setting "as committed" is the control: the main job's own settings, so it must be identical.

Writes data/reproducibility/invariance.csv and moved_cells.csv (read by nbs/reproducibility.ipynb) and prints them.
Run (after the main job, which trains styledistance-mini into $STEB_MODELS_DIR):
    .venv/bin/python scripts/reproducibility.py [--jobs 2] [--out /tmp/steb-invariance] [--settings "batch 1,2 threads"]
"""
import argparse, os, shutil, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEB = str(Path(sys.executable).parent / "steb")
MODELS = ("sentence-transformers/all-MiniLM-L6-v2", "styledistance-mini")
SETTINGS = {   # what differs from the main job's way: batches of 32, one thread, pinned kernels
    "as committed": {},
    "batch 1": {"batch_size": 1},
    "batch 8": {"batch_size": 8},
    "batch 128": {"batch_size": 128},
    "2 threads": {"threads": 2},
    "native kernels": {"native": True},
}


def slug(setting: str) -> str: return setting.replace(" ", "-")


def evaluate(setting: str, model: str, out: Path) -> tuple[str, str, float, int]:
    "Recompute `model`'s STEB-lite results into the setting's store; (setting, model, seconds, exit status)."
    s = SETTINGS[setting]
    threads = str(s.get("threads", 1))
    env = {k: v for k, v in os.environ.items() if k != "STEB_NATIVE_KERNELS"}
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
    cmd = [STEB, "evaluate", model, "--suite", "lite", "--force", "--results-dir", out / slug(setting) / "lite",
           "--cache-dir", out / slug(setting) / "cache", "--batch-size", str(s.get("batch_size", 32))]
    cmd += ["--native-kernels"] if s.get("native") else []
    start = time.perf_counter()
    with open(out / slug(setting) / f"{model.split('/')[-1]}.log", "w") as log:
        rc = subprocess.run([str(c) for c in cmd], env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    return setting, model, round(time.perf_counter() - start, 1), rc


def summarize(settings, out: Path, reference: Path, seconds: dict):
    "(invariance rows per setting, model and task; the table cells each setting moves) as DataFrames."
    import pandas as pd
    from steb_lib.verify import largest_moves, moved_table_cells, verify_run
    moves, cells = [], []
    for setting in settings:
        store = out / slug(setting) / "lite"
        m = largest_moves(verify_run(store, reference)).reset_index()
        m = m[m["model"].isin([x.replace("/", "__") for x in MODELS] + list(MODELS))]
        m.insert(0, "setting", setting)
        m["seconds"] = m["model"].map(lambda x: seconds.get((setting, x.replace("__", "/")), seconds.get((setting, x))))
        moves.append(m)
        cells += [{"setting": setting, "cell": c} for c in moved_table_cells(store, reference)]
    return pd.concat(moves, ignore_index=True), pd.DataFrame(cells, columns=["setting", "cell"])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="/tmp/steb-invariance", help="the settings' stores and caches")
    p.add_argument("--jobs", type=int, default=2, help="evaluations at once")
    p.add_argument("--settings", default=",".join(SETTINGS), help="comma-separated, of: " + ", ".join(SETTINGS))
    p.add_argument("--write", default=str(ROOT / "data" / "reproducibility"), help="where the two CSVs go")
    a = p.parse_args()
    settings, out, reference = a.settings.split(","), Path(a.out), ROOT / "data" / "results" / "lite"
    for setting in settings:
        if setting not in SETTINGS: p.error(f"unknown setting {setting!r}")
        shutil.rmtree(out / slug(setting), ignore_errors=True)
        shutil.copytree(reference, out / slug(setting) / "lite")
    jobs = [(s, m) for s in settings for m in MODELS]
    with ThreadPoolExecutor(a.jobs) as pool:
        done = list(pool.map(lambda job: evaluate(*job, out), jobs))
    for setting, model, sec, rc in done: print(f"{setting:15s} {model:40s} {sec:7.1f} s  exit {rc}")
    if any(rc for *_, rc in done): print("an evaluation failed: see its log under", out); return 1
    moves, cells = summarize(settings, out, reference, {(s, m): sec for s, m, sec, _ in done})
    Path(a.write).mkdir(parents=True, exist_ok=True)
    moves.to_csv(Path(a.write) / "invariance.csv", index=False, float_format="%.3g", lineterminator="\n")
    cells.to_csv(Path(a.write) / "moved_cells.csv", index=False, lineterminator="\n")
    print(moves.to_string(index=False)); print(cells.to_string(index=False) if len(cells) else "no table cell moved")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The main job from empty, pinned and native, in one session (issue 58): its time, their ratio, and its verdicts.

Runs `steb paper` twice in scratch directories, each with an empty embedding cache and no trained model
(`STEB_CACHE`, `STEB_MODELS_DIR`: `styledistance-mini` is trained again): first with the pinned kernels (the default),
then with `--native-kernels`. Prints each run's wall time, the ratio pinned / native, what each run's `steb verify`
said of its stores against the committed ones (the pinned run must reproduce them *identical*; the native one differs
in its last bits), and the pinned run's timeline (where its time went, `_runs/main-job-timeline.png`, which is copied
to `--figure`). About 25 minutes on 2 cores.
Run: .venv/bin/python scripts/benchmark_main_job.py [--figure docs/main-job-timeline.png] [--only pinned|native]
"""
import argparse, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEB = str(Path(sys.executable).parent / "steb")


def main_job(mode: str, where: Path) -> dict:
    "`steb paper` from empty in `where`; its seconds, its verify lines and its timeline lines."
    env = {k: v for k, v in os.environ.items() if k not in ("STEB_RAW_DIR", "STEB_NATIVE_KERNELS")}
    env |= {"STEB_CACHE": str(where / "cache"), "STEB_MODELS_DIR": str(where / "models"), "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    dirs = {f"--{d}-dir": str(where / d) for d in ("tables", "figures", "runs")}
    command = [STEB, "paper", "--results-dir", str(where / "results" / "lite")]
    command += [x for kv in dirs.items() for x in kv] + (["--native-kernels"] if mode == "native" else [])
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    lines = done.stdout.splitlines()
    verdicts = [line.strip() for line in lines if re.match(r"\s+\d+ identical", line) or "reproduced" in line]
    timeline = [line for line in lines if line.startswith(("evaluation ", "critical path", "timeline:"))]
    return {"rc": done.returncode, "seconds": seconds, "verdicts": verdicts, "timeline": timeline,
            "tail": done.stderr[-1500:] if done.returncode else ""}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--figure", help="copy the pinned run's timeline figure here")
    p.add_argument("--only", choices=("pinned", "native"))
    a = p.parse_args()
    runs = {}
    for mode in [a.only] if a.only else ["pinned", "native"]:
        where = Path(tempfile.mkdtemp(prefix=f"steb-main-job-{mode}-"))
        runs[mode] = run = main_job(mode, where)
        print(f"{mode}: {run['seconds']:.0f} s (rc {run['rc']}){run['tail'] and ': ' + run['tail']}", flush=True)
        identical = sum(int(v.split()[0]) for v in run["verdicts"] if v.split()[1:2] == ["identical,"])
        print(f"  verify: {identical} results identical to the committed ones; "
              f"{sum(v.endswith('NOT reproduced') for v in run['verdicts'])} stores not reproduced")
        for line in run["timeline"]: print("  " + line)
        if mode == "pinned" and a.figure:
            shutil.copy(where / "runs" / "main-job-timeline.png", ROOT / a.figure)
        shutil.rmtree(where, ignore_errors=True)
    if len(runs) == 2:
        print(f"pinned / native: {runs['pinned']['seconds'] / runs['native']['seconds']:.2f}")


if __name__ == "__main__":
    main()

"""Benchmark of sweeps on this machine (prints figures; not a test).

The mini suite for three models (random, function-words, all-MiniLM-L6-v2), from empty caches each time:
1. sequentially, in this process (`evaluate_suite`, one model after the other: what `--executor inline` does);
2. as a local submitit sweep (`steb_lib.sweep.submit_sweep`, one process per (model, dataset) job) with 1, 2 and 4 jobs
   at once (torch threads per job = cores // jobs).
Prints wall time, the speed-up over the sequential run, and checks that every sweep's results equal the sequential
ones (timing fields aside). Run: .venv/bin/python scripts/benchmark_sweep.py [--models ...] [--parallelism 1 2 4]
"""
import argparse, json, os, platform, tempfile, time
from pathlib import Path
from steb_lib.eval.results import without_timing
from steb_lib.eval.runner import evaluate_suite
from steb_lib.sweep import submit_sweep, sweep_jobs


def contents(store: Path) -> dict:
    files = sorted(store.glob("*/*/*.json"))
    return {str(p.relative_to(store)): without_timing(json.loads(p.read_text())) for p in files}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", nargs="+", default=["random", "function-words", "sentence-transformers/all-MiniLM-L6-v2"])
    ap.add_argument("--parallelism", nargs="+", type=int, default=[1, 2, 4])
    ap.add_argument("--suite", default="mini")
    a = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; suite {a.suite}, models {a.models}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        start = time.perf_counter()
        for m in a.models:
            evaluate_suite(m, a.suite, results_dir=tmp / "sequential", cache_dir=tmp / "cache-seq", progress=False)
        sequential = time.perf_counter() - start
        reference = contents(tmp / "sequential")
        print(f"sequential (one process): {sequential:.1f} s, {len(reference)} results")
        for n in a.parallelism:
            jobs = sweep_jobs(a.models, a.suite)
            start = time.perf_counter()
            out = submit_sweep(jobs, tmp / f"sweep-{n}", "local", parallelism=n, fetch_models=False,
                               cache_dir=tmp / f"cache-{n}")
            took = time.perf_counter() - start
            same = contents(tmp / f"sweep-{n}") == reference
            print(f"local sweep, {len(jobs)} jobs, {n} at once: {took:.1f} s, speed-up {sequential / took:.2f}x over "
                  f"sequential; failed {len(out['failed'])}; results identical to sequential: {same}")


if __name__ == "__main__":
    main()

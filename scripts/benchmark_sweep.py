"""Benchmark of sweeps on this machine (prints figures; not a test).

The mini suite for three models (random, function-words, all-MiniLM-L6-v2), from empty caches each time:
1. sequentially, in this process (`evaluate_suite`, one model after the other: what `--executor inline` does);
2. as a sweep (`steb_lib.cluster.sweep.submit_sweep`) with 1, 2 and 4 jobs at once, each either one submitit job per
   (model, dataset) job (`--pack-minutes 0`) or packed by cost (`--pack-minutes 60`: each model's jobs in one process,
   its model loaded once) — on this machine (`--executor local`, torch threads per job = cores // jobs) or on a SLURM
   cluster (`--executor slurm`, e.g. `scripts/local_slurm.sh`'s: source its env first; a job asks cores // jobs CPUs).
Prints wall time, the submitit jobs, the speed-up over the sequential run, and whether every sweep's results equal the
sequential ones (timing fields aside).
Run: .venv/bin/python scripts/benchmark_sweep.py [--executor local|slurm] [--models ...] [--parallelism 1 2 4]
     [--pack-minutes 0 60]
"""
import argparse, json, os, platform, tempfile, time
from pathlib import Path
from steb_lib.eval.results import without_timing
from steb_lib.eval.runner import evaluate_suite
from steb_lib.cluster.jobs import sweep_jobs
from steb_lib.cluster.slurm import slurm_parameters
from steb_lib.cluster.sweep import submit_sweep


def contents(store: Path) -> dict:
    files = sorted(store.glob("*/*/*.json"))
    return {str(p.relative_to(store)): without_timing(json.loads(p.read_text())) for p in files}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", nargs="+", default=["random", "function-words", "sentence-transformers/all-MiniLM-L6-v2"])
    ap.add_argument("--parallelism", nargs="+", type=int, default=[1, 2, 4])
    ap.add_argument("--pack-minutes", nargs="+", type=float, default=[0, 60])
    ap.add_argument("--executor", choices=["local", "slurm"], default="local")
    ap.add_argument("--suite", default="mini")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    print(f"machine: {platform.processor() or platform.machine()}, {cores} cores; suite {a.suite}, models {a.models}; "
          f"executor {a.executor}")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        tmp = Path(tmp)
        start = time.perf_counter()
        for m in a.models:
            evaluate_suite(m, a.suite, results_dir=tmp / "sequential", cache_dir=tmp / "cache-seq", progress=False)
        sequential = time.perf_counter() - start
        reference = contents(tmp / "sequential")
        print(f"sequential (one process): {sequential:.1f} s, {len(reference)} results")
        for n in a.parallelism:
            for pack in a.pack_minutes:
                jobs, name = sweep_jobs(a.models, a.suite), f"sweep-{n}-{pack:g}"
                slurm = slurm_parameters(cpus=max(1, cores // n), mem="2G", time="0:30:00", array_parallelism=n)
                start = time.perf_counter()
                out = submit_sweep(jobs, tmp / name, a.executor, parallelism=n, fetch_models=False, slurm=slurm,
                                   cache_dir=tmp / f"cache-{name}", pack_minutes=pack, folder=tmp / f"jobs-{name}")
                took = time.perf_counter() - start
                same = contents(tmp / name) == reference
                how = f"packed by cost ({pack:g} min)" if pack else "one per job"
                print(f"{a.executor} sweep, {len(jobs)} jobs in {len(out['packs'])} submitit jobs ({how}), {n} at once: "
                      f"{took:.1f} s, speed-up {sequential / took:.2f}x over sequential; failed {len(out['failed'])}; "
                      f"results identical to sequential: {same}")


if __name__ == "__main__":
    main()

"""What the intervals cost (issue 57): every main-job result scored with and without its per-sample outputs and
bootstrap replicates, in one run, from cached embeddings (prints figures; not a test).

For each default model and each STEB-lite (dataset, task), the prepared sample and the model's embeddings (from the
embedding cache: run the main job, or `steb evaluate MODEL --suite lite`, first; a model with nothing cached is
embedded here, outside the timings), then `score_task(..., intervals=False)` (the metrics alone) and
`score_task(...)` (with the outputs and 1,000 replicates) timed, best of `--repeat`. The parity stores hold the same
(dataset, task)s under other profiles: their cost is estimated from these per-(dataset, task) figures. The extra
seconds, spread over the main job's two workers, are set against the main job's wall time without intervals
(`--main-job-seconds`: from empty on a fresh clone, as measured before they existed; docs/benchmarks.md says where).
    .venv/bin/python scripts/benchmark_intervals.py [--main-job-seconds 900] [--models random ...]
"""
from __future__ import annotations
import argparse, time
from collections import Counter
from pathlib import Path
from steb_lib.core import default_cache_dir
from steb_lib.data.datasets import suite_datasets, suite_tasks
from steb_lib.data.samples import task_input
from steb_lib.embed.cache import embed_texts
from steb_lib.eval.runner import how_to_evaluate, prepared_model
from steb_lib.models.registry import DEFAULT_MODELS
from steb_lib.tasks.task_data import score_task

ROOT = Path(__file__).resolve().parents[1]


def best_of(n, f):
    times = []
    for _ in range(n):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)


def parity_counts() -> Counter:
    "How many results of each (dataset, task) the committed parity stores hold."
    return Counter((p.parent.name, p.stem) for p in (ROOT / "data" / "results" / "lite-parity").glob("*/*/*/*.json"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", nargs="+", default=list(DEFAULT_MODELS))
    ap.add_argument("--main-job-seconds", type=float, default=None,
                    help="the main job's wall time without intervals, measured from empty")
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    how, per_pair, rows = how_to_evaluate(), {}, []
    for model in a.models:
        encoder, mhow = prepared_model(model, how)
        for entry in suite_datasets("lite"):
            for task in suite_tasks(entry, "lite"):
                data, _, _ = task_input(task, None, entry["name"], None, mhow.seed, mhow.profile)
                E, _ = embed_texts(encoder, data.texts, mhow.protocol, default_cache_dir(), encoder.spec.name,
                                   batch_size=mhow.batch_size, progress=False)
                plain = best_of(a.repeat, lambda: score_task(data, E, profile=mhow.profile, intervals=False))
                full = best_of(a.repeat, lambda: score_task(data, E, profile=mhow.profile))
                rows.append((model, entry["name"], task, plain, full))
                per_pair.setdefault((entry["name"], task), []).append(full - plain)
                print(f"{model:42s} {entry['name']:36s} {task:16s} {plain:7.3f} s -> {full:7.3f} s", flush=True)
    plain, full = sum(r[3] for r in rows), sum(r[4] for r in rows)
    by_task = {}
    for _, _, task, p, f in rows: by_task[task] = [x + y for x, y in zip(by_task.get(task, [0, 0]), (p, f))]
    print("\nper task (all models): seconds without intervals -> with")
    for task, (p, f) in sorted(by_task.items()): print(f"  {task:16s} {p:8.2f} -> {f:8.2f}  (+{f - p:.2f})")
    parity = sum(n * sum(per_pair[k]) / len(per_pair[k]) for k, n in parity_counts().items() if k in per_pair)
    extra = full - plain + parity
    print(f"\n{len(rows)} main results: scoring {plain:.1f} s without intervals, {full:.1f} s with (+{full - plain:.1f} s);"
          f" the parity stores' {sum(parity_counts().values())} results: ~+{parity:.1f} s; all: +{extra:.1f} CPU-s,"
          f" ~+{extra / 2:.1f} s of wall time on the main job's 2 workers")
    if a.main_job_seconds:
        base = a.main_job_seconds
        print(f"main job: {base:.0f} s without intervals (measured from empty), ~{base + extra / 2:.0f} s with: "
              f"+{100 * (extra / 2) / base:.1f}% (target: at most 15%)")
    sizes = sum(p.stat().st_size for p in (ROOT / "data" / "results").rglob("*.samples.npz"))
    print(f"per-sample files in the committed stores: {sizes / 1e6:.1f} MB (target: at most 20 MB more)")


if __name__ == "__main__":
    main()

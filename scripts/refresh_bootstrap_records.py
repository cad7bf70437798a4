"""Recompute each stored result's bootstrap record — its intervals and the reasons for the ones refused — from the
replicates it already keeps, by the library's own rule (`tasks/19_task_data.stored_intervals`, `07_bootstrap`).

Nothing else moves: not the main score, not a metric, not the per-sample outputs or their replicates (the same draws);
a result's checksum is written again. Use it when the interval rule changes (issue 74: too few units, a bound on the
replicates' extremes, no spread), then `steb verify` the store against its previous copy: every result identical.
    .venv/bin/python scripts/refresh_bootstrap_records.py data/results/lite data/results/lite-truncate ...
"""
from __future__ import annotations
import argparse
from pathlib import Path
from steb_lib.eval.results import parse_result, read_samples, write_result
from steb_lib.tasks.task_data import stored_intervals


def refreshed(path: Path) -> bool:
    "Rewrite the result at `path` with its bootstrap record recomputed; True if it changed."
    result, problem = parse_result(path)
    if problem: raise SystemExit(f"{path}: {problem}")
    boot = result.get("bootstrap", {})
    if "intervals" not in boot: return False
    samples = read_samples(path, result)
    reps = {m: samples[f"replicates.{m}"] for m in boot["intervals"]}
    new = {k: v for k, v in boot.items() if k not in ("intervals", "refused", "seed")}
    new |= stored_intervals(reps, result["metrics"], boot["units"])
    if new == boot: return False
    result["bootstrap"] = new
    write_result(path, result)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stores", nargs="+")
    for store in ap.parse_args().stores:
        paths = sorted(p for p in Path(store).rglob("*.json") if p.with_suffix(".samples.npz").exists())
        changed = sum(refreshed(p) for p in paths)
        print(f"{store}: {changed} of {len(paths)} results' bootstrap records changed")


if __name__ == "__main__":
    main()

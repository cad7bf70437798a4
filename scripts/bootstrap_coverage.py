"""How often do steb-lib's 95% bootstrap intervals cover the true score? A coverage study on simulated data.

For four of STEB's scores — predefined-pair AUROC (trials), all-to-all AUROC (texts), MRR (query authors) and
V-measure (texts, clusters held fixed; with 5 labels, and with 30 small ones, where the bootstrap's own bias exceeds
its spread and no interval is given) — a population with a known true score, 500 samples of the size STEB-lite
uses, each sample's interval computed exactly as a result's is (bias-corrected percentile; the plain
percentile interval beside it; a sample left without an interval counts as a miss) (the task notebooks' replicate functions
on `resample_counts` draws), and the share of intervals that hold the truth. With 500 samples the share has a
standard error of about 1 point: a method that covers 95% shows 93-97%.

Prints a table and writes it to data/bootstrap/coverage.json (read by nbs/lib/07_bootstrap.ipynb).
    .venv/bin/python scripts/bootstrap_coverage.py [--samples 500] [--replicates 1000]
"""
from __future__ import annotations
import argparse, json, time
from pathlib import Path
import numpy as np
from scipy import stats
from steb_lib.bootstrap import bias_corrected_interval, percentile_interval, resample_counts
from steb_lib.tasks.clustering import clustering_replicates, v_measure_from_samples, v_measures
from steb_lib.tasks.pairs import (all_to_all_metrics, all_to_all_replicates, auroc, auroc_from_placements,
                                  predefined_replicates)
from steb_lib.tasks.retrieval import mrr_from_samples, retrieval_replicates
from steb_lib.tasks.spec import PER_SAMPLE


def predefined(rng, b: int, key: str, shift=0.8, n=200):
    "Trials: cosine ~ N(shift, 1) for same, N(0, 1) for different; AUROC = Φ(shift / √2)."
    same = np.arange(n) < n // 2
    scores = rng.normal(size=n) + shift * same
    reps = predefined_replicates({"score": scores, "same": same}, resample_counts(key, same, b))["auroc"]
    return stats.norm.cdf(shift / np.sqrt(2)), auroc(scores, same), reps


def texts_with_labels(rng, n, labels=5, signal=0.35, dim=8):
    "Texts of `labels` styles, n // labels each: a style direction per label plus noise."
    centres = np.eye(labels, dim)
    lab = np.repeat(np.arange(labels), n // labels)
    return centres[lab] * signal + rng.normal(size=(len(lab), dim)) / np.sqrt(dim), lab


def all_to_all_truth(seed=12345, pairs=2_000_000, labels=5, signal=0.35, dim=8):
    "The population AUROC: independent positive and negative pairs of fresh texts (Monte Carlo, s.e. ~3e-4)."
    rng, centres = np.random.default_rng(seed), np.eye(labels, dim)
    def cosines(same):
        la = rng.integers(0, labels, pairs); lb = la if same else (la + rng.integers(1, labels, pairs)) % labels
        a, b = (centres[l] * signal + rng.normal(size=(pairs, dim)) / np.sqrt(dim) for l in (la, lb))
        return np.einsum("ij,ij->i", a, b) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    return auroc(np.r_[cosines(True), cosines(False)], np.r_[np.ones(pairs, bool), np.zeros(pairs, bool)])


def all_to_all(rng, b: int, key: str, truth: float, n=200):
    X, lab = texts_with_labels(rng, n)
    samples = all_to_all_metrics(X, lab, per_sample=True)[PER_SAMPLE]
    reps = all_to_all_replicates(samples, resample_counts(key, lab, b))["auroc"]
    return truth, auroc_from_placements(samples), reps


def mrr(rng, b: int, key: str, rate=1.5, n=60):
    "Queries whose own target has Poisson(rate) targets above it: MRR = E[1 / (1 + X)] = (1 − e^−λ) / λ."
    higher = rng.poisson(rate, n); tied = np.zeros(n, np.int64)
    samples = {"higher": higher, "tied": tied}
    reps = retrieval_replicates(samples, resample_counts(key, np.zeros(n), b))["mrr"]
    return (1 - np.exp(-rate)) / rate, mrr_from_samples(samples), reps


def v_measure(rng, b: int, key: str, labels=5, right=0.6, n=300):
    "Texts of 5 labels (n/5 each) put in their label's cluster with probability 0.6, else in a random one."
    truth_table = np.full((labels, labels), (1 - right) / labels / labels) + np.eye(labels) * right / labels
    lab = np.repeat(np.arange(labels), n // labels)
    predicted = np.where(rng.random(n) < right, lab, rng.integers(0, labels, n))
    samples = {"label": lab, "predicted": predicted}
    reps = clustering_replicates(samples, resample_counts(key, lab, b))["v_measure"]
    return float(v_measures(truth_table[None])[0]), v_measure_from_samples(samples), reps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=500); ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--out", default=str(Path(__file__).parents[1] / "data" / "bootstrap" / "coverage.json"))
    a = ap.parse_args()
    a2a_truth = all_to_all_truth()
    studies = {"predefined AUROC (200 trials)": predefined,
               "all-to-all AUROC (200 texts, 5 labels)": lambda r, b, k: all_to_all(r, b, k, a2a_truth),
               "MRR (60 queries)": mrr, "V-measure (300 texts, 5 labels)": v_measure,
               "V-measure (300 texts, 30 labels)": lambda r, b, k: v_measure(r, b, k, labels=30)}
    rows = []
    for name, study in studies.items():
        rng, start = np.random.default_rng(0), time.perf_counter()
        hits, widths, none = {"percentile": 0, "bias-corrected": 0}, [], 0
        for s in range(a.samples):
            truth, estimate, reps = study(rng, a.replicates, f"coverage:{name}:{s}")
            for method, (low, high) in (("percentile", percentile_interval(reps)),
                                        ("bias-corrected", bias_corrected_interval(reps, estimate))):
                hits[method] += low <= truth <= high   # no interval (NaN): a miss
            none += low != low
            if low == low: widths.append(high - low)
        cover = {m: h / a.samples for m, h in hits.items()}
        rows.append({"score": name, "truth": round(float(truth), 4), "samples": a.samples,
                     "replicates": a.replicates, "coverage_bias_corrected": round(cover["bias-corrected"], 3),
                     "coverage_percentile": round(cover["percentile"], 3), "no_interval": int(none),
                     "standard_error": round(float(np.sqrt(0.95 * 0.05 / a.samples)), 3),
                     "mean_width": round(float(np.mean(widths)), 4) if widths else None,
                     "seconds": round(time.perf_counter() - start, 1)})
        print(f"{name:40s} truth {rows[-1]['truth']:.4f}  coverage: bias-corrected {cover['bias-corrected']:.3f}, "
              f"percentile {cover['percentile']:.3f} (± {rows[-1]['standard_error']:.3f})  mean width "
              f"{rows[-1]['mean_width'] or float('nan'):.4f}, no interval in {none}  ({rows[-1]['seconds']} s)",
              flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps({"level": 0.95, "rows": rows}, indent=1) + "\n")
    print(f"written {a.out}")


if __name__ == "__main__":
    main()

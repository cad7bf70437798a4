"""How often do steb-lib's 95% bootstrap intervals cover the true score? A coverage study on simulated data.

For four of STEB's scores — predefined-pair AUROC (trials), all-to-all AUROC (texts), MRR (query authors) and
V-measure (texts, clusters held fixed; with 5 labels, and with 30 small ones, where the bootstrap's own bias exceeds
its spread and no interval is given) — a population with a known true score, 500 samples of 200-300 units, each
sample's interval computed exactly as a result's is (bias-corrected percentile; the plain
percentile interval beside it; a sample left without an interval counts as a miss) (the task notebooks' replicate functions
on `resample_counts` draws), and the share of intervals that hold the truth. With 500 samples the share has a
standard error of about 1 point: a method that covers 95% shows 93-97%.

At STEB-lite's real sizes too (issue 74): MRR over 6 and 8 query authors (the retrieval sets) and 20; predefined
AUROC over 26 and 48 trials that share texts (6 and 11 groups of texts, as the verification sets: trials of one group
move together), resampled by groups as steb-lib does (and once by trials, as it did), and over 200 trials in 40 groups. A row's "refused" counts the samples that `07_bootstrap.interval_refusal` gives no interval (fewer
than 20 units, biased, at extremes): the rule is calibrated when every row either covers 93-97% or is refused.

Then **equal models**: tables of 7 models whose population scores are equal by construction (each unit's score a shared
part plus each model's own noise; the mean over units as the score; paired draws), at 26, 60, 100 and 200 units: the share
of single pairwise comparisons called separable at 95% (`paired_difference`: target 5%), the share of tables in which
some pair is (one comparison at a time: far above 5%), and the share of tables in which the simultaneous rule
(`simultaneous_separable`, what `steb table --ci` ranks with) separates any pair or any model from #1 (target ≤ 5%).

Prints a table and writes it to data/bootstrap/coverage.json (read by nbs/lib/07_bootstrap.ipynb).
    .venv/bin/python scripts/bootstrap_coverage.py [--samples 500] [--replicates 1000]
"""
from __future__ import annotations
import argparse, json, time
from pathlib import Path
import numpy as np
from scipy import stats
from steb_lib.bootstrap import (bias_corrected_interval, interval_refusal, paired_difference, percentile_interval,
                                resample_counts, resample_group_counts, simultaneous_separable)
from steb_lib.tasks.clustering import clustering_metrics, clustering_replicates, v_measure_from_samples, v_measures
from steb_lib.tasks.pairs import (all_to_all_metrics, all_to_all_replicates, auroc, auroc_from_placements,
                                  predefined_replicates)
from steb_lib.tasks.order_alignment import order_alignment_replicates
from steb_lib.tasks.probing import probing_replicates
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


def grouped_predefined(rng, b: int, key: str, n=26, groups=6, shift=0.8, group_sd=0.7, by_trials=False):
    """Trials in `groups` groups that share texts: each trial's cosine is its group's shared offset (sd `group_sd`, the
    same for same and different trials of that group's texts) plus N(shift, 1) or N(0, 1); the population AUROC is over
    fresh groups (Monte Carlo below). Resampled by groups (`resample_group_counts`), as steb-lib does; `by_trials`:
    as it did before, trial by trial within same and different."""
    g = np.arange(n) % groups; same = (np.arange(n) // groups) % 2 == 0
    offset = rng.normal(0, group_sd, groups)[g] * np.where(same, 1.0, -1.0)
    scores = rng.normal(size=n) + shift * same + offset
    counts = resample_counts(key, same, b) if by_trials else resample_group_counts(key, g, b)
    reps = predefined_replicates({"score": scores, "same": same}, counts)["auroc"]
    return GROUPED_TRUTH[(n, groups)], auroc(scores, same), reps


def grouped_truth(n, groups, shift=0.8, group_sd=0.7, draws=4000, seed=1):
    "The population AUROC of `grouped_predefined`: the mean AUROC over many samples of fresh groups."
    rng = np.random.default_rng(seed); g = np.arange(n) % groups; same = (np.arange(n) // groups) % 2 == 0
    vals = [auroc(rng.normal(size=n) + shift * same + rng.normal(0, group_sd, groups)[g] * np.where(same, 1., -1.),
                  same) for _ in range(draws)]
    return float(np.mean(vals))


GROUPED_TRUTH: dict = {}
UNITS = {   # the independent units each study's sample has (trials that share texts: their groups)
    "predefined AUROC (200 trials)": 200, "all-to-all AUROC (200 texts, 5 labels)": 200, "MRR (60 queries)": 60,
    "V-measure (300 texts, 5 labels)": 300, "V-measure (300 texts, 30 labels)": 300,
    "predefined AUROC (26 trials, 6 groups of shared texts), resampled by trials": 26,
    "predefined AUROC (26 trials, 6 groups of shared texts)": 6, "predefined AUROC (48 trials, 11 groups of shared texts)": 11,
    "predefined AUROC (200 trials, 40 groups of shared texts)": 40,
    "k-means V-measure (200 texts, 11 labels, seed varied)": 200, "MRR (6 queries)": 6,
    "order alignment (200 tuples, every pair an instance)": 200, "probing (300 texts, 10 features)": 300, "MRR (8 queries)": 8, "MRR (20 queries)": 20}


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


def equal_models(a, units, k=7, tables=None):
    "Tables of k equal models over `units` units: pairwise and table-wise shares called separable."
    rng, pairs_called, pairs, any_marginal, any_simultaneous = np.random.default_rng(units), 0, 0, 0, 0
    tables = tables or a.samples
    for t in range(tables):
        x = rng.normal(size=(units, 1)) + rng.normal(size=(units, k))
        counts = resample_counts(f"equal:{units}:{t}", np.zeros(units), a.replicates)
        est, reps = x.mean(0), (counts @ x / units).T
        called = [paired_difference(est[i], est[j], reps[i], reps[j], units=units)["separable"]
                  for i in range(k) for j in range(i + 1, k)]
        pairs_called += sum(called); pairs += len(called); any_marginal += any(called)
        any_simultaneous += simultaneous_separable(est, reps).any()
    return {"study": f"{k} equal models, {units} units", "tables": tables,
            "pairwise_separable": round(pairs_called / pairs, 3),
            "tables_any_pair_one_at_a_time": round(any_marginal / tables, 3),
            "tables_any_pair_simultaneous": round(any_simultaneous / tables, 3)}


def order_alignment(rng, b: int, key: str, n=200, mu=0.4, tuple_sd=0.5):
    """Order alignment over `n` tuples of one category: every pair of tuples is an instance, decided right when
    mu + q_a + q_b + noise > 0 (q: each tuple's own ease, sd `tuple_sd`), so instances sharing a tuple move
    together; truth Φ(mu / √(1 + 2 tuple_sd²)). Replicates by `order_alignment_replicates` (tuples drawn)."""
    q = rng.normal(0, tuple_sd, n); a, bb = np.triu_indices(n, 1)
    right = (mu + q[a] + q[bb] + rng.normal(size=a.size) > 0).astype(np.float64)
    samples = {"a": a, "b": bb, "plain": right, "drop_last": right, "drop_first": right,
               "category": np.zeros(a.size, np.int64), "block": np.zeros(a.size, np.int64)}
    reps = order_alignment_replicates(samples, resample_counts(key, np.zeros(n), b))["distractor_accuracy"]
    return float(stats.norm.cdf(mu / np.sqrt(1 + 2 * tuple_sd**2))), float(right.mean()), reps


def probing(rng, b: int, key: str, n=300, features=10, text_sd=0.7, test_share=0.4):
    """Probing over `n` texts and `features` fixed probes: probe f right on test text t when a_f + u_t + noise > 0
    (u: each text's own ease, shared by the features), each feature tested on its own 40% of the texts; truth the
    mean over features of Φ(a_f / √(1 + text_sd²)). Replicates by `probing_replicates` (texts drawn)."""
    ease = np.linspace(-0.5, 1.0, features); u = rng.normal(0, text_sd, n)
    parts = [np.flatnonzero(rng.random(n) < test_share) for _ in range(features)]
    right = [ease[f] + u[t] + rng.normal(size=t.size) > 0 for f, t in enumerate(parts)]
    samples = {"position": np.concatenate(parts), "bin": np.ones(sum(map(len, parts)), np.int64),
               "predicted": np.concatenate(right).astype(np.int64), "feature": np.repeat(np.arange(features),
               [len(t) for t in parts]), "feature_names": np.arange(features).astype(str), "precision": "float64"}
    reps = probing_replicates(samples, resample_counts(key, np.zeros(n), b))["accuracy"]
    truth = float(np.mean(stats.norm.cdf(ease / np.sqrt(1 + text_sd**2))))
    return truth, float(np.mean([r.mean() for r in right])), reps


def kmeans_v_measure(rng, b: int, key: str, n=200, labels=11, signal=0.6, dim=8):
    """Real k-means (the task's own `clustering_metrics`, 5 seeds) on texts of 11 labels: the estimate is seed 0's
    V-measure, the replicates vary the seed with the texts (`clustering_replicates`); the truth is the V-measure
    expected over samples and seeds (`kmeans_truth`)."""
    X, lab = texts_with_labels(rng, n, labels, signal, max(dim, labels))
    m = clustering_metrics(X, lab, seed=int(rng.integers(1 << 30)), per_sample=True)
    reps = clustering_replicates(m[PER_SAMPLE], resample_counts(key, lab, b))["v_measure"]
    return KMEANS_TRUTH[(n, labels)], m["v_measure"], reps


def kmeans_truth(n=200, labels=11, signal=0.6, dim=8, samples=400, seed=2):
    "The V-measure of k-means expected over fresh samples and seeds (Monte Carlo)."
    rng = np.random.default_rng(seed)
    return float(np.mean([clustering_metrics(*texts_with_labels(rng, n, labels, signal, max(dim, labels)),
                                             seed=int(rng.integers(1 << 30)), n_seeds=1)["v_measure"]
                          for _ in range(samples)]))


KMEANS_TRUTH: dict = {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=500); ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--out", default=str(Path(__file__).parents[1] / "data" / "bootstrap" / "coverage.json"))
    a = ap.parse_args()
    a2a_truth = all_to_all_truth()
    for n, groups in ((26, 6), (48, 11), (200, 40)): GROUPED_TRUTH[(n, groups)] = grouped_truth(n, groups)
    KMEANS_TRUTH[(200, 11)] = kmeans_truth()
    studies = {"predefined AUROC (200 trials)": predefined,
               "predefined AUROC (26 trials, 6 groups of shared texts), resampled by trials":
                   lambda r, b, k: grouped_predefined(r, b, k, 26, 6, by_trials=True),
               "predefined AUROC (26 trials, 6 groups of shared texts)":
                   lambda r, b, k: grouped_predefined(r, b, k, 26, 6),
               "predefined AUROC (48 trials, 11 groups of shared texts)":
                   lambda r, b, k: grouped_predefined(r, b, k, 48, 11),
               "predefined AUROC (200 trials, 40 groups of shared texts)":
                   lambda r, b, k: grouped_predefined(r, b, k, 200, 40),
               "MRR (6 queries)": lambda r, b, k: mrr(r, b, k, n=6), "MRR (8 queries)": lambda r, b, k: mrr(r, b, k, n=8),
               "MRR (20 queries)": lambda r, b, k: mrr(r, b, k, n=20),
               "all-to-all AUROC (200 texts, 5 labels)": lambda r, b, k: all_to_all(r, b, k, a2a_truth),
               "MRR (60 queries)": mrr, "V-measure (300 texts, 5 labels)": v_measure,
               "V-measure (300 texts, 30 labels)": lambda r, b, k: v_measure(r, b, k, labels=30),
               "k-means V-measure (200 texts, 11 labels, seed varied)": kmeans_v_measure,
               "order alignment (200 tuples, every pair an instance)": order_alignment,
               "probing (300 texts, 10 features)": probing}
    rows = []
    for name, study in studies.items():
        rng, start = np.random.default_rng(0), time.perf_counter()
        hits, widths, none, refused = {"percentile": 0, "bias-corrected": 0}, [], 0, 0
        units = UNITS.get(name)
        for s in range(a.samples):
            truth, estimate, reps = study(rng, a.replicates, f"coverage:{name}:{s}")
            refused += bool(interval_refusal(reps, estimate, units))
            for method, (low, high) in (("percentile", percentile_interval(reps)),
                                        ("bias-corrected", bias_corrected_interval(reps, estimate))):
                hits[method] += low <= truth <= high   # no interval (NaN): a miss
            none += low != low
            if low == low: widths.append(high - low)
        cover = {m: h / a.samples for m, h in hits.items()}
        rows.append({"score": name, "truth": round(float(truth), 4), "samples": a.samples,
                     "replicates": a.replicates, "coverage_bias_corrected": round(cover["bias-corrected"], 3),
                     "coverage_percentile": round(cover["percentile"], 3), "no_interval": int(none), "refused": int(refused), "units": units,
                     "standard_error": round(float(np.sqrt(0.95 * 0.05 / a.samples)), 3),
                     "mean_width": round(float(np.mean(widths)), 4) if widths else None,
                     "seconds": round(time.perf_counter() - start, 1)})
        print(f"{name:40s} truth {rows[-1]['truth']:.4f}  coverage: bias-corrected {cover['bias-corrected']:.3f}, "
              f"percentile {cover['percentile']:.3f} (± {rows[-1]['standard_error']:.3f})  mean width "
              f"{rows[-1]['mean_width'] or float('nan'):.4f}, no interval in {none}  ({rows[-1]['seconds']} s)",
              flush=True)
    equal = [equal_models(a, n) for n in (26, 60, 100, 200)]
    for row in equal: print(row, flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps({"level": 0.95, "rows": rows, "equal_models": equal}, indent=1) + "\n")
    print(f"written {a.out}")


if __name__ == "__main__":
    main()

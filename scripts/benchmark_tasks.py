"""Benchmark of the two metrics that must stay fast at STEB's sizes (prints figures; not a test).

1. All-to-all AUROC for 3,000 texts (4.5M pairs), from embeddings to AUROC, vs scikit-learn's roc_auc_score
   on the same pairs (time and agreement).
2. Retrieval for 1,000 queries against 100,000 targets of dimension 768: time and peak memory, against the size of
   the full 1,000 x 100,000 float64 score matrix that blocking avoids.
3. Probing a TF-IDF-wide embedding (300 texts x 18,000 dimensions, 5 features): probe_feature (the probes fitted in
   the training rows' span) vs the same probes fitted in the 18,000 coordinates, time and agreement.
Run: .venv/bin/python scripts/benchmark_tasks.py
"""
import os, platform, resource, time, tracemalloc
import numpy as np
from sklearn.metrics import roc_auc_score
from steb_lib.tasks import probing
from steb_lib.tasks.pairs import all_to_all_auroc, all_to_all_trials
from steb_lib.tasks.retrieval import retrieval_metrics

def best_of(n, f):
    times = []
    for _ in range(n):
        t = time.perf_counter(); out = f(); times.append(time.perf_counter() - t)
    return min(times), out

def main():
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, numpy {np.__version__}")
    rng = np.random.default_rng(42)
    labels = rng.integers(0, 30, 3000)
    X = rng.normal(size=(3000, 768)).astype(np.float32); X[:, :30] += 0.5 * np.eye(30)[labels] * 4
    t_ours, ours = best_of(3, lambda: all_to_all_auroc(X, labels))
    scores, same = all_to_all_trials(X, labels)
    t_sk, sk = best_of(1, lambda: roc_auc_score(same, scores))
    print(f"all-to-all AUROC, 3,000 texts ({len(scores):,} pairs): {t_ours:.3f} s from embeddings to AUROC "
          f"(goal < 1 s); scikit-learn roc_auc_score on the same pairs {t_sk:.3f} s (scores given); "
          f"|difference| = {abs(ours - sk):.2e} (goal <= 1e-9); ratio {t_sk / t_ours:.1f}x")

    Q = rng.normal(size=(1000, 768)).astype(np.float32)
    T = rng.normal(size=(100_000, 768)).astype(np.float32); T[:1000] += 0.12 * Q   # each query author has one weakly similar target
    q_auth, t_auth = np.arange(1000), np.arange(100_000)
    tracemalloc.start()
    t0 = time.perf_counter(); res = retrieval_metrics(Q, q_auth, T, t_auth); t_ret = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]; tracemalloc.stop()
    full = 1000 * 100_000 * 8
    print(f"retrieval, 1,000 queries x 100,000 targets x 768: {t_ret:.2f} s (goal < 10 s); MRR {res['mrr']:.4f}; "
          f"peak memory allocated by the metric {peak / 2**20:.0f} MiB (inputs are {(Q.nbytes + T.nbytes) / 2**20:.0f} MiB; "
          f"one full float64 score matrix would be {full / 2**20:.0f} MiB); process max RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB")

    W = rng.gamma(1.0, size=(300, 18_000)) * (rng.random((300, 18_000)) < 0.01)   # sparse-ish, TF-IDF-like
    feats = [W[:, :50].sum(1) + rng.normal(size=300) for _ in range(5)]
    t_fast, fast = best_of(1, lambda: [probing.probe_feature(W, f) for f in feats])
    t_slow, slow = best_of(1, lambda: [probing.probe_feature(W, f, in_row_space=False) for f in feats])
    same = sum(a["accuracy"] == b["accuracy"] and a["l2"] == b["l2"] for a, b in zip(fast, slow))
    print(f"probing 300 texts x 18,000 dimensions, 5 features: {t_fast:.2f} s in the training rows' span, "
          f"{t_slow:.2f} s in the embedding's coordinates (ratio {t_slow / t_fast:.1f}x); "
          f"same accuracy and strength for {same} of 5 features")

if __name__ == "__main__": main()

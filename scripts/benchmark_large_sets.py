"""All-to-all and clustering on large sets: time and peak memory (prints figures; not a test).

Each size runs in its own process, so its peak resident memory (ru_maxrss) is its own. For each n: the embeddings
(n x 384 float32, 15 labels that carry some signal), all-to-all AUROC (exact up to 4,096 texts, beyond that the pairs
streamed in row blocks into histograms, `all_to_all_metrics`) and clustering (MiniBatchKMeans, 5 seeds). Where the
exact route runs, it also forces the streamed one and compares the two. The default sizes include 100,000 texts
(5e9 pairs; about 4 minutes on 2 cores): the exact route would need 40 GB for its scores alone.
Run: .venv/bin/python scripts/benchmark_large_sets.py [n ...]
"""
import json, os, platform, resource, subprocess, sys, time

def one_size(n: int) -> dict:
    import numpy as np
    from steb_lib.tasks.pairs import all_to_all_metrics
    from steb_lib.tasks.clustering import clustering_metrics
    rng = np.random.default_rng(42)
    labels = rng.integers(0, 15, n)
    X = rng.normal(size=(n, 384)).astype(np.float32); X[:, :15] += 3.0 * np.eye(15, dtype=np.float32)[labels]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    out = {"n": n, "pairs": n * (n - 1) // 2, "inputs_mib": round(X.nbytes / 2**20, 1), "rss_before_mib": round(base)}
    t = time.perf_counter(); a2a = all_to_all_metrics(X, labels); out["all_to_all_s"] = round(time.perf_counter() - t, 2)
    out |= {"auroc": a2a["auroc"], "auroc_max_error": a2a.get("auroc_max_error", 0.0),
            "route": "streamed" if "auroc_method" in a2a else "exact",
            "rss_after_all_to_all_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10)}
    if out["route"] == "exact":
        t = time.perf_counter(); streamed = all_to_all_metrics(X, labels, exact_max_texts=0)
        out |= {"streamed_s": round(time.perf_counter() - t, 2), "streamed_auroc": streamed["auroc"],
                "streamed_max_error": streamed["auroc_max_error"],
                "streamed_minus_exact": streamed["auroc"] - a2a["auroc"]}
    t = time.perf_counter(); cl = clustering_metrics(X, labels); out["clustering_s"] = round(time.perf_counter() - t, 2)
    out |= {"v_measure": cl["v_measure"], "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10)}
    return out

def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one": print(json.dumps(one_size(int(sys.argv[2])))); return
    sizes = [int(a) for a in sys.argv[1:]] or [2_000, 4_096, 20_000, 100_000]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    for n in sizes:
        r = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True)
        if r.returncode: print(f"n={n}: failed ({r.returncode}): {r.stderr[-500:]}"); continue
        f = json.loads(r.stdout)
        line = (f"n={n:,} ({f['pairs']:,} pairs, embeddings {f['inputs_mib']} MiB): all-to-all {f['all_to_all_s']} s "
                f"({f['route']}; AUROC {f['auroc']:.6f}, max error {f['auroc_max_error']:.1e}), clustering "
                f"{f['clustering_s']} s (V {f['v_measure']:.4f}); peak RSS {f['peak_rss_mib']} MiB "
                f"(before the metrics {f['rss_before_mib']} MiB, after all-to-all {f['rss_after_all_to_all_mib']} MiB)")
        if "streamed_s" in f:
            line += (f"; forced streamed route: {f['streamed_s']} s, AUROC - exact = {f['streamed_minus_exact']:.1e} "
                     f"(bound {f['streamed_max_error']:.1e})")
        print(line, flush=True)

if __name__ == "__main__": main()

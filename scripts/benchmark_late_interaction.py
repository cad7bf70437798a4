"""Benchmark of MaxSim scoring (prints figures; not a test).

The configuration of issue 7: 1,000 queries x 10,000 documents of 256 token vectors (d = 384, all-MiniLM-L6-v2's
width), documents stored in float16 on disk and memory-mapped, as steb-lib's token store keeps them.

1. Throughput of steb-lib's streamed MaxSim (`steb_lib.eval.multivector.maxsim_rows`: blocks of queries against blocks
   of documents read from the memory map and normalised, scored by the scoring mode's matrix form — MaxSim,
   sentence-transformers' `util.maxsim` — padding masked) in query-document pairs/s, against a naive PyTorch
   implementation on the same tensors (a Python loop over pairs, `(q @ d.T).max(1).values.sum()`), with the largest
   difference between their scores.
2. Peak memory (resident set of a fresh process that only scores) of the streamed scorer, measured on the queries it
   scored, and the memory the same computation would need with the whole (queries x documents x 256 x 256) similarity
   tensor formed at once.

1,000 x 10,000 pairs at 256 x 256 x 384 is 5.0e14 floating-point operations: minutes on a GPU, hours on a laptop CPU.
On a CPU the script therefore scores `--measure-queries` (default 32) of the 1,000 queries against all 10,000 documents (every document
block is read and scored, so memory behaves as in the full run) and projects the full run's time from the measured
rate. `--measure-queries 1000` runs everything.
Run: .venv/bin/python scripts/benchmark_late_interaction.py [--device cuda] [--measure-queries N]
"""
import argparse, json, os, platform, resource, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np
import torch


def make_data(root: Path, n_queries, n_docs, tokens, dim, seed=0):
    "Random token vectors: queries float32 .npy, documents float16 .npy (written in slices, never all in memory)."
    rng = np.random.default_rng(seed)
    np.save(root / "queries.npy", rng.normal(size=(n_queries, tokens, dim)).astype(np.float32))
    docs = np.lib.format.open_memmap(root / "docs.f16.npy", mode="w+", dtype=np.float16, shape=(n_docs, tokens, dim))
    for s in range(0, n_docs, 500): docs[s:s + 500] = rng.normal(size=(min(500, n_docs - s), tokens, dim)).astype(np.float16)
    docs.flush(); del docs


def unit(V) -> torch.Tensor:
    "L2-normalised vectors, as a scoring mode forms them from stored token vectors (`text_vectors`)."
    return torch.nn.functional.normalize(torch.from_numpy(np.asarray(V, np.float32)), dim=-1)


class MemmapDocs:
    "Documents read one at a time from the float16 memory map and normalised (what the token store hands the scorer)."
    def __init__(self, path): self.V = np.load(path, mmap_mode="r")
    def __len__(self): return len(self.V)
    def __getitem__(self, i): return unit(self.V[i])
    def lengths(self): return np.full(len(self.V), self.V.shape[1])


def peak_rss_mb() -> float:
    "This process's peak resident set (VmHWM: reset by exec, unlike ru_maxrss, which a child inherits from its parent)."
    try: return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(root, n_measure, device, out_json):
    "Child process: stream-score n_measure queries against every document; write time, peak RSS, scores of query 0."
    from steb_lib.eval.multivector import maxsim_rows
    Q = np.load(root / "queries.npy", mmap_mode="r")
    queries = [unit(np.array(Q[i])) for i in range(n_measure)]
    docs = MemmapDocs(root / "docs.f16.npy")
    list(maxsim_rows(queries[:1], [docs[0]], "sum", device=device))   # warm-up: its libraries imported, not timed
    if device.startswith("cuda"): torch.cuda.reset_peak_memory_stats()
    before = peak_rss_mb()   # torch, the queries: before any scoring
    start = time.perf_counter(); first = None
    for qb, rows in maxsim_rows(queries, docs, "sum", device=device):
        if 0 in qb: first = rows[list(qb).index(0)]
    if device.startswith("cuda"): torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    out = {"seconds": seconds, "peak_rss_mb": peak_rss_mb(), "before_mb": before,
           "gpu_peak_mb": torch.cuda.max_memory_allocated() / 2**20 if device.startswith("cuda") else None}
    np.save(root / "first_row.npy", first)
    Path(out_json).write_text(json.dumps(out))


def naive_pairs(root, n_q, n_d, device):
    "The naive implementation: one pair at a time, full similarity matrix, max over documents, sum over queries."
    Q = torch.from_numpy(np.load(root / "queries.npy", mmap_mode="r")[:n_q].copy()).to(device)
    D = torch.from_numpy(np.load(root / "docs.f16.npy", mmap_mode="r")[:n_d].astype(np.float32)).to(device)
    Q, D = torch.nn.functional.normalize(Q, dim=-1), torch.nn.functional.normalize(D, dim=-1)
    scores = torch.empty(n_q, n_d, device=device)
    start = time.perf_counter()
    for i in range(n_q):
        for j in range(n_d): scores[i, j] = (Q[i] @ D[j].T).max(1).values.sum()
    if device.startswith("cuda"): torch.cuda.synchronize()
    return time.perf_counter() - start, scores.cpu().numpy()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=1000); ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--tokens", type=int, default=256); ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--measure-queries", type=int, default=None, help="queries scored against all documents (default: 8 on CPU, all on CUDA)")
    ap.add_argument("--naive-docs", type=int, default=300, help="documents the naive loop scores for query 0")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--data-dir", default=None, help="where the random vectors are written (default: a temporary directory)")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child: return measure(Path(a.child[0]), int(a.child[1]), a.device, a.child[2])
    m = a.measure_queries or (a.queries if a.device.startswith("cuda") else 32)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}, device {a.device}"
          + (f" ({torch.cuda.get_device_name()})" if a.device.startswith("cuda") else ""))
    with tempfile.TemporaryDirectory(dir=a.data_dir) as tmp:
        root = Path(tmp); t = time.perf_counter()
        make_data(root, a.queries, a.docs, a.tokens, a.dim)
        gb = (root / "docs.f16.npy").stat().st_size / 1e9
        print(f"data: {a.queries:,} queries x {a.docs:,} documents x {a.tokens} tokens x {a.dim}; documents {gb:.2f} GB float16 on disk "
              f"(written in {time.perf_counter() - t:.0f} s)")
        subprocess.run([sys.executable, __file__, "--device", a.device, "--child", str(root), str(m), str(root / "m.json")], check=True)
        r = json.loads((root / "m.json").read_text())
        pairs = m * a.docs; rate = pairs / r["seconds"]
        flops = 2 * a.tokens * a.tokens * a.dim
        print(f"steb-lib streamed MaxSim: {m} queries x {a.docs:,} documents = {pairs:,} pairs in {r['seconds']:.1f} s: "
              f"{rate:,.0f} pairs/s ({rate * flops / 1e9:,.0f} GFLOP/s)")
        print(f"  projected for all {a.queries:,} x {a.docs:,} = {a.queries * a.docs:,} pairs: {a.queries * a.docs / rate / 60:,.1f} min"
              + ("" if m < a.queries else " (measured, not projected)"))
        print(f"  peak memory of the scoring process: {r['peak_rss_mb']:,.0f} MB resident, {r['before_mb']:,.0f} MB of it before scoring "
              f"began (torch, the queries); the rest includes the pages of the {gb:.2f} GB memory map it read, which the OS can drop"
              + (f"; GPU {r['gpu_peak_mb']:,.0f} MB" if r["gpu_peak_mb"] else ""))
        n_d = min(a.naive_docs, a.docs)
        t_naive, naive = naive_pairs(root, 1, n_d, a.device)
        ours = np.load(root / "first_row.npy")[:n_d]
        print(f"naive PyTorch (one pair at a time): 1 query x {n_d} documents in {t_naive:.2f} s: {n_d / t_naive:,.0f} pairs/s; "
              f"steb-lib is {rate / (n_d / t_naive):.1f}x faster; max |difference| of scores {np.abs(ours - naive[0]).max():.2e}")
        whole = a.queries * a.docs * a.tokens * a.tokens * 4
        print(f"forming the whole {a.queries:,} x {a.docs:,} x {a.tokens} x {a.tokens} similarity tensor at once would need "
              f"{whole / 1e12:,.0f} TB (float32); the streamed scorer holds one block at a time (blocks of ≤ 2^12 padded vectors "
              f"a side on a CPU, ≤ 2^15 on a GPU; util.maxsim chunks a block's similarities to ≤ 1e8 elements, 400 MB)")


if __name__ == "__main__":
    main()

"""Encoder throughput on this machine (figures for the README and the closing note; not a test).

1. Our MiniLM encoder vs. plain SentenceTransformer.encode on the same 2,000 texts of mixed length (goal: ratio >= 0.95).
2. Chunk-and-pool overhead on long texts: protocol chunk vs. truncate, and vs. encoding the chunks directly.
3. Throughput (texts/s) of each non-neural baseline.
4. With CUDA: all-mpnet-base-v2 in half precision at the batch size chosen from free GPU memory: texts/s, tokens/s,
   peak memory, GPU utilisation.
5. BENCH_PER_DATASET=SUITE (e.g. lite; BENCH_MODEL, default all-mpnet-base-v2): seconds per dataset of the suite from
   empty caches, seconds per text, and the full STEB projected from Tab. 15's text counts at that rate.
Run: HF_HUB_OFFLINE=1 .venv/bin/python scripts/benchmark_models.py   (BENCH_QUICK=1: part 1 only)
"""
import json, os, random, time
from pathlib import Path
os.environ.setdefault("HF_HUB_OFFLINE", "1"); os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
import numpy as np, torch
from steb_lib.models.encoders import load_encoder
from steb_lib.chunking import protocol_pieces

ROOT = Path(__file__).resolve().parent.parent
def corpus(n, seed=0):
    texts = [json.loads(l).get("text") for f in sorted((ROOT/"data"/"examples").glob("*.jsonl")) for l in f.read_text().splitlines()]
    texts = [t for t in texts if t]
    rng = random.Random(seed)
    return [" ".join(rng.choice(texts) for _ in range(rng.choice([1, 1, 1, 2, 4, 8]))) for _ in range(n)]

def timed(f, repeat=2):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); best = min(best, time.perf_counter() - t)
    return best, out

print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, cuda {torch.cuda.is_available()}")
texts = corpus(2000)
print(f"2,000 texts, {np.mean([len(t.split()) for t in texts]):.0f} words on average (max {max(len(t.split()) for t in texts)})")
minilm = load_encoder("all-MiniLM-L6-v2", device="cpu")
t_ours, ours = timed(lambda: minilm.encode(texts, "truncate", batch_size=32))
t_st, ref = timed(lambda: minilm.model.encode(texts, batch_size=32, convert_to_numpy=True))
print(f"MiniLM truncate, ours: {len(texts)/t_ours:.1f} texts/s; SentenceTransformer.encode: {len(texts)/t_st:.1f} texts/s; "
      f"ratio {t_st/t_ours:.3f}; max |diff| {np.abs(ours-ref).max():.2e}")
if os.environ.get("BENCH_QUICK"): raise SystemExit(0)
t_chunk, _ = timed(lambda: minilm.encode(texts, "chunk", batch_size=32))
print(f"MiniLM chunk (all 2,000): {len(texts)/t_chunk:.1f} texts/s")

long = corpus(100, seed=1); long = [" ".join([t] * 6) for t in long]
pieces, counts = protocol_pieces(long, minilm.tokenizer, minilm.max_tokens, "chunk")
t_c, _ = timed(lambda: minilm.encode(long, "chunk"), 1)
t_t, _ = timed(lambda: minilm.encode(long, "truncate"), 1)
t_p, _ = timed(lambda: minilm.model.encode(pieces, batch_size=32), 1)
t_split, _ = timed(lambda: protocol_pieces(long, minilm.tokenizer, minilm.max_tokens, "chunk"), 1)
print(f"100 long texts ({np.mean([len(t.split()) for t in long]):.0f} words, {np.mean(counts):.1f} chunks each): "
      f"chunk {t_c:.2f} s, truncate {t_t:.2f} s, embedding the chunks alone {t_p:.2f} s, splitting alone {t_split:.2f} s "
      f"(overhead of chunking over embedding its chunks: {100*(t_c/t_p-1):.0f}%)")

sample = texts[:300]
for name in ("function-words", "tfidf-bundled-1-2", "stylometric", "biber"):
    enc = load_encoder(name)
    t, _ = timed(lambda: enc.encode(sample), 1)
    print(f"{name}: {len(sample)/t:.1f} texts/s")

if torch.cuda.is_available():
    mpnet = load_encoder("all-mpnet-base-v2", device="cuda")
    big = corpus(20000, seed=2)
    n_tokens = sum(len(mpnet.tokenizer(t, truncation=True, max_length=384)["input_ids"]) for t in big)
    batch = mpnet.device_batch_size(32)
    mpnet.encode(big[:500], "truncate"); torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
    t = time.perf_counter(); mpnet.encode(big, "truncate"); torch.cuda.synchronize(); t = time.perf_counter() - t
    try: busy = f"{torch.cuda.utilization()}% utilisation at the end"
    except Exception as e: busy = f"utilisation not readable ({type(e).__name__})"
    print(f"GPU {torch.cuda.get_device_name()}: all-mpnet-base-v2 {mpnet.dtype}, batch {batch} (from free memory), "
          f"{len(big)/t:.0f} texts/s, {n_tokens/t:.0f} tokens/s, peak {torch.cuda.max_memory_allocated()/2**30:.1f} GiB, "
          f"{busy}; out-of-memory halvings {mpnet.oom_halvings}")

if os.environ.get("BENCH_PER_DATASET"):
    import csv, tempfile
    from steb_lib.data.datasets import suite_datasets
    from steb_lib.eval.runner import evaluate_suite
    suite, name = os.environ["BENCH_PER_DATASET"], os.environ.get("BENCH_MODEL", "all-mpnet-base-v2")
    enc, seconds, texts = load_encoder(name), 0.0, 0
    for e in suite_datasets(suite):
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            out = evaluate_suite(enc, suite, datasets=[e["name"]], results_dir=d, cache_dir=d, progress=False)
            t = time.perf_counter() - t
        n = sum(r["n_texts"] for r in out["done"]); seconds += t; texts += n
        print(f"{e['name']:45s} {t:7.1f} s  {n:6d} texts  {t / max(n, 1) * 1000:6.1f} ms/text")
    full = sum(int(r["total"]) for r in csv.DictReader(open(ROOT/"data"/"paper"/"tab15_sample_counts.csv")))
    print(f"{name} on {enc.device}: {suite} {seconds:.0f} s for {texts} texts ({seconds / texts * 1000:.1f} ms/text); "
          f"full STEB (Tab. 15: {full} texts) projected at that rate: {full * seconds / texts / 3600:.1f} h "
          "(texts of other lengths cost more or less: a projection, not a measurement)")

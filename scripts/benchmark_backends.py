"""The fast CPU path (issue 76, `models/36_backends`): steb-lib's own encoders on torch (pinned and native kernels)
against the same models on ONNX Runtime and OpenVINO, fp32 and int8, on STEB-lite's own texts; then each model's
STEB-lite main scores on the fastest int8 backend against the exact ones.

For each model (default: all-MiniLM-L6-v2, all-mpnet-base-v2 and styledistance-mini, trained first where it is not;
BENCH_MODELS: others that load offline):
1. each backend embeds the same texts (BENCH_TEXTS, default 600, drawn with a fixed seed from every STEB-lite
   sample, sorted by length, batches of 32, protocol truncate) in a fresh process, through the runner's door as
   `steb evaluate MODEL@BACKEND` loads it (`eval.runner.built_encoder`: the export built on first use and cached,
   the probe check run); torch under the kernel pins every steb command runs with, and with native kernels;
2. prints texts/s (the fastest of BENCH_REPEAT interleaved runs, default 2), the ratio to pinned torch, the export's
   seconds (its `steb-export.json`), the process's peak resident memory, the probe check, and each backend's vectors
   against pinned torch's: the cosine of each text's two vectors (min, mean) and how often a text's nearest
   neighbour among the others is the same;
3. (unless BENCH_SCORES=0) runs `steb evaluate MODEL@BEST --suite lite` for the fastest int8 backend that passed
   its probe check, and judges it with `steb verify` against the exact STEB-lite results: the committed store's
   where it holds the model, else a run of the exact model made here first. Prints the screening verdicts and the
   largest move of a main score (×100).
Needs the onnx and openvino extras (scripts/install.sh installs both).
Run: .venv/bin/python scripts/benchmark_backends.py   (about 25 minutes on 2 cores with the scores)
"""
import json, os, re, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from steb_lib.run_settings import KERNEL_PINS  # noqa: E402  (no numpy or torch at import)

DEFAULT_MODELS = "all-MiniLM-L6-v2,all-mpnet-base-v2,styledistance-mini"
MODELS = os.environ.get("BENCH_MODELS", DEFAULT_MODELS).split(",")
N_TEXTS, BATCH, REPEAT = int(os.environ.get("BENCH_TEXTS", "600")), 32, int(os.environ.get("BENCH_REPEAT", "2"))
BACKENDS = ("torch pinned", "torch native", "onnx", "onnx-int8", "openvino", "openvino-int8")
STEB = str(Path(sys.executable).parent / "steb")


def lite_texts(n: int, seed: int = 0) -> list[str]:
    "`n` distinct texts drawn from every STEB-lite sample (each task's texts), sorted by length."
    import random
    from steb_lib.data.datasets import suite_datasets
    from steb_lib.data.samples import needed_tasks, task_input
    texts = set()
    for entry in suite_datasets("lite"):
        for task in needed_tasks(entry, "lite"):
            texts |= set(task_input(task, dataset=entry["name"])[0].texts)
    return sorted(random.Random(seed).sample(sorted(texts), n), key=len)


def available(name: str) -> bool:
    """Does `name` load here without the network? A model steb-lib trains is trained first where it is not (as
    `steb evaluate` would: `eval.runner.available_model`)."""
    import steb_lib.models.encoders  # noqa: F401  (registers the families)
    from steb_lib.eval.runner import available_model
    from steb_lib.models.files import offline_availability
    from steb_lib.models.registry import resolve_model
    t = time.perf_counter()
    if available_model(name, progress=False): print(f"{name}: trained or found ({time.perf_counter() - t:.0f} s)")
    return offline_availability(resolve_model(name)) in ("package", "hub cache", "trained")


def child(name: str, backend: str, folder: str, texts_file: str) -> None:
    """In a fresh process: load `name` on `backend` as the runner does, embed the texts (a warm-up batch first, not
    timed), write the vectors, print seconds, the export's facts, the probe check and the peak memory."""
    if backend != "torch native":   # as a steb command runs: the pins, torch's products routed (run_settings)
        from steb_lib.run_settings import pin_kernels
        pin_kernels()
    import numpy as np
    from steb_lib.eval.runner import built_encoder
    from steb_lib.models.registry import resolve_model
    from steb_lib.profiles import OWN_ROUTE
    texts = json.loads(Path(texts_file).read_text())
    model = name if backend.startswith("torch") else f"{name}@{backend}"
    encoder = built_encoder(resolve_model(model), OWN_ROUTE)
    encoder.encode(texts[:BATCH], "truncate", batch_size=BATCH)
    t = time.perf_counter(); vectors = encoder.encode(texts, "truncate", batch_size=BATCH)
    seconds = time.perf_counter() - t
    np.save(Path(folder) / f"{backend}.npy", vectors)
    folder = getattr(encoder, "export_dir", None)   # on a backend: where its export is cached
    export = json.loads((folder / "steb-export.json").read_text()) if folder else {}
    print(json.dumps({"seconds": seconds, "peak_mb": peak_memory_mb(), "export_s": export.get("seconds", 0),
                      "probe": encoder.describe().get("model_probe")}))


def peak_memory_mb() -> float:
    "This process's peak resident memory (VmHWM: ru_maxrss would carry the parent's over fork and exec)."
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def measured(name: str, backend: str, folder: Path, texts_file: Path, threads: int) -> dict:
    "Run `child` in a fresh process; a backend that refuses the model (its probe check) gives {'refused': line}."
    env = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS}   # native, unless the child pins
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": str(threads)}
    out = subprocess.run([sys.executable, __file__, "--child", name, backend, str(folder), str(texts_file)],
                         env=env, capture_output=True, text=True)
    if out.returncode:
        refused = [l for l in out.stderr.splitlines() if "refused on" in l]
        if refused: return {"refused": refused[-1]}
        raise SystemExit(f"{name} on {backend}: failed\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def agreement(vectors, reference) -> dict:
    "The probe check's figures (`models.backends.probe_agreement`) of these vectors against the reference's."
    from steb_lib.models.backends import probe_agreement
    return probe_agreement(vectors, reference)


def speed_table(name: str, texts: list, threads: int) -> dict:
    "Print one model's table of backends; {backend: run} (the fastest of REPEAT interleaved runs)."
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp); texts_file = folder / "texts.json"; texts_file.write_text(json.dumps(texts))
        runs = {}
        for _ in range(REPEAT):   # interleaved, the fastest of each kept: this machine's times vary by ~20%
            for b in BACKENDS:
                r = measured(name, b, folder, texts_file, threads)
                if b not in runs or r.get("seconds", 0) < runs[b].get("seconds", 0): runs[b] = r
        reference = np.load(folder / "torch pinned.npy")
        print(f"\n{name}\n")
        print("| backend | texts/s | vs torch pinned | export s | peak MB | cosine min / mean | same nearest | probe |")
        print("|:--|--:|--:|--:|--:|--:|--:|:--|")
        base = runs["torch pinned"]["seconds"]
        for b, r in runs.items():
            if "refused" in r: print(f"| {b} | refused: {r['refused'].split(': ', 2)[-1]} |||||||"); continue
            a = agreement(np.load(folder / f"{b}.npy"), reference)
            probe = r["probe"] and f"{r['probe']['cosine_min']:.3f} / {r['probe']['nearest_same']:.0%}"
            print(f"| {b} | {len(texts) / r['seconds']:.1f} | {base / r['seconds']:.2f} | {r['export_s']:.1f} | "
                  f"{r['peak_mb']:.0f} | {a['cosine_min']:.4f} / {a['cosine_mean']:.4f} | {a['nearest_same']:.1%} | "
                  f"{probe or '–'} |")
    return runs


def steb(*args) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.run([STEB, *map(str, args)], env=env, capture_output=True, text=True)


def lite_scores(name: str, backend: str, work: Path) -> None:
    "STEB-lite on `backend` against the exact results (committed, else run here); prints the verdict lines."
    from steb_lib.core import data_dir
    from steb_lib.models.registry import resolve_model
    committed, full = data_dir() / "results" / "lite", resolve_model(name).name
    exact = committed if any(json.loads(p.read_text())["model"] == full
                             for p in committed.glob("*/*/*.json")) else work / "exact"
    if exact != committed:
        t = time.perf_counter(); r = steb("evaluate", name, "--suite", "lite", "--results-dir", exact)
        if r.returncode: raise SystemExit(r.stderr[-3000:])
        print(f"\n{name}: exact STEB-lite run here ({time.perf_counter() - t:.0f} s)")
    t = time.perf_counter()
    r = steb("evaluate", f"{name}@{backend}", "--suite", "lite", "--results-dir", work / "screen")
    if r.returncode: raise SystemExit(r.stderr[-3000:])
    seconds = time.perf_counter() - t
    r = steb("verify", work / "screen", "--against", exact, "--models", f"{name}@{backend}", name)
    counts, last = r.stdout.splitlines()[1].strip(), r.stdout.strip().splitlines()[-1].strip()
    moves = [float(m) for m in re.findall(r"largest move of a main score: ([0-9.e-]+)", r.stdout)]
    print(f"\n{name}@{backend} STEB-lite ({seconds:.0f} s, export and probe included): {counts}\n{last}"
          f"\nlargest |Δ main score| ×100: {100 * moves[0] if moves else 0:.2f}")


def main() -> None:
    import numpy as np, onnxruntime, openvino, transformers
    threads = len(os.sched_getaffinity(0))
    texts = lite_texts(N_TEXTS)
    from steb_lib.run_settings import cpu_description
    from steb_lib.models.backends import int8_instruction_set
    cpu = cpu_description()
    print(f"{len(texts)} STEB-lite texts, {np.mean([len(t.split()) for t in texts]):.0f} words on average; "
          f"{threads} threads; {cpu['model']} (int8: {int8_instruction_set()}); transformers "
          f"{transformers.__version__}, onnxruntime {onnxruntime.__version__}, openvino {openvino.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in MODELS:
            if not available(name): print(f"\n{name}: not available offline here (train it first): left out"); continue
            runs = speed_table(name, texts, threads)
            if os.environ.get("BENCH_SCORES", "1") == "0": continue
            int8 = {b: r for b, r in runs.items() if b.endswith("int8") and "refused" not in r}
            if int8: lite_scores(name, min(int8, key=lambda b: int8[b]["seconds"]), Path(tmp) / name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]: child(*sys.argv[2:6])
    else: main()

"""CPU backends for embedding (issue 76, first measurement): torch (pinned and native kernels) against ONNX Runtime
fp32 and int8, on STEB-lite's own texts, one model at a time, on this machine's cores.

For each model (default: all-MiniLM-L6-v2 and all-mpnet-base-v2, the two the issue names; BENCH_MODELS: others that
load offline, e.g. styledistance-mini once trained):
1. the model's transformer (no pooling) is exported to ONNX by transformers' own exporter
   (`transformers.exporters.OnnxExporter`, dynamic batch and length; seconds printed), then quantized to int8 by ONNX
   Runtime's dynamic quantizer (`onnxruntime.quantization.quantize_dynamic`, int8 weights per output channel,
   activations quantized at run time) in two variants: every weight matrix product ("int8"), and all but the
   feed-forward output projections, the products with the largest activations ("int8 keep FFN-out");
2. each backend embeds the same texts (BENCH_TEXTS, default 600, drawn with a fixed seed from every STEB-lite sample,
   sorted by length, batches of 32, truncated to the model's maximum length) in a fresh process: torch through
   steb-lib's encoder (protocol truncate) under the kernel pins every steb command runs with, the same with native
   kernels (`--native-kernels`), ONNX Runtime on as many threads with the models' attention-mask mean pooling;
3. prints texts/s (the fastest of BENCH_REPEAT interleaved runs, default 2), the ratio to pinned torch, the peak resident memory of that process, and each backend's vectors
   against pinned torch's: the cosine of each text's two vectors (min, mean) and how often a text's nearest
   neighbour among the others is the same (top-1 agreement).
It does not run STEB itself: a backend's main scores against the exact ones need the backend in the runner (issue 76,
items 1-3). OpenVINO is not measured: no `openvino` wheel is installable here.
Needs the onnx extra: .venv/bin/pip install -e ".[onnx]" -c constraints.txt
Run: .venv/bin/python scripts/benchmark_backends.py   (about 9 minutes on 2 cores)
"""
import json, os, random, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from steb_lib.run_settings import KERNEL_PINS  # noqa: E402  (no numpy or torch at import)

MODELS = os.environ.get("BENCH_MODELS", "all-MiniLM-L6-v2,all-mpnet-base-v2").split(",")
N_TEXTS, BATCH, REPEAT = int(os.environ.get("BENCH_TEXTS", "600")), 32, int(os.environ.get("BENCH_REPEAT", "2"))
BACKENDS = ("torch pinned", "torch native", "onnx fp32", "onnx int8", "onnx int8 keep FFN-out")


def lite_texts(n: int, seed: int = 0) -> list[str]:
    "`n` distinct texts drawn from every STEB-lite sample (each task's texts), sorted by length."
    from steb_lib.data.datasets import suite_datasets
    from steb_lib.data.samples import needed_tasks, task_input
    texts = set()
    for entry in suite_datasets("lite"):
        for task in needed_tasks(entry, "lite"):
            texts |= set(task_input(task, dataset=entry["name"])[0].texts)
    return sorted(random.Random(seed).sample(sorted(texts), n), key=len)


def transformer_dir(name: str) -> tuple[str, int]:
    "(the directory of the model's Hugging Face transformer, its maximum sequence length) through steb-lib's loader."
    from steb_lib.models.encoders import load_encoder
    st = load_encoder(name, device="cpu").model
    return st[0].auto_model.name_or_path, st.get_max_seq_length()


def export(name: str, out: Path) -> dict:
    "Export fp32 with transformers' exporter, then the two int8 variants; {variant: seconds}."
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel, AutoTokenizer
    from transformers.exporters import OnnxConfig, OnnxExporter
    path, _ = transformer_dir(name)
    tok, model = AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path).eval()
    sample = dict(tok(["a short text", "a second, somewhat longer text"], padding=True, return_tensors="pt"))
    t = time.perf_counter()
    OnnxExporter().export(model, sample, config=OnnxConfig(dynamic=True)).save_pretrained(out/"onnx fp32")
    seconds = {"onnx fp32": time.perf_counter() - t}
    graph = onnx.load(out/"onnx fp32"/"model.onnx", load_external_data=False).graph
    shapes = {i.name: tuple(i.dims) for i in graph.initializer}
    products = [n for n in graph.node if n.op_type == "MatMul" and n.input[1] in shapes]
    ffn_out = max(shapes[n.input[1]][0] for n in products)   # the widest input side: the intermediate layer
    for variant, nodes in (("onnx int8", products),
                           ("onnx int8 keep FFN-out", [n for n in products if shapes[n.input[1]][0] != ffn_out])):
        t = time.perf_counter(); (out/variant).mkdir()
        quantize_dynamic(out/"onnx fp32"/"model.onnx", out/variant/"model.onnx", op_types_to_quantize=["MatMul"],
                         nodes_to_quantize=[n.name for n in nodes], per_channel=True, weight_type=QuantType.QInt8,
                         use_external_data_format=True)
        seconds[variant] = time.perf_counter() - t + seconds["onnx fp32"]
    return seconds


def child(name: str, path: str, max_len: int, backend: str, folder: str, texts_file: str, threads: int) -> None:
    """In a fresh process: embed the texts with one backend — torch through steb-lib's own encoder (`encode`,
    protocol truncate, as `steb evaluate` runs it), ONNX Runtime on the exported transformer in `path`'s tokens —;
    write the vectors, print seconds and the process's peak memory."""
    if backend == "torch pinned":   # as a steb command runs: the pins, torch's products routed (run_settings)
        from steb_lib.run_settings import pin_kernels
        pin_kernels()
    import numpy as np
    texts = json.loads(Path(texts_file).read_text())
    if backend.startswith("torch"):
        import torch
        from steb_lib.models.encoders import load_encoder
        torch.set_num_threads(threads); encoder = load_encoder(name, device="cpu")
        encoder.encode(texts[:BATCH], "truncate", batch_size=BATCH)   # warm-up, not timed
        t = time.perf_counter(); vectors = encoder.encode(texts, "truncate", batch_size=BATCH)
    else:
        import onnxruntime as ort
        from transformers import AutoTokenizer
        tok = AutoTokenizer.from_pretrained(path)
        options = ort.SessionOptions(); options.intra_op_num_threads = threads; options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(Path(folder)/backend/"model.onnx"), options,
                                       providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        def embed(batch):   # attention-mask mean pooling, as the models' sentence-transformers pooling
            b = dict(tok(batch, padding=True, truncation=True, max_length=max_len, return_tensors="np"))
            mask = b["attention_mask"][..., None].astype(np.float32)
            return (session.run(None, {k: b[k] for k in names})[0] * mask).sum(1) / mask.sum(1)
        embed(texts[:BATCH])   # warm-up (first-call allocation), not timed
        t = time.perf_counter()
        vectors = np.concatenate([embed(texts[i:i + BATCH]) for i in range(0, len(texts), BATCH)])
    seconds = time.perf_counter() - t
    np.save(Path(folder)/f"{backend}.npy", vectors)
    print(json.dumps({"seconds": seconds, "peak_mb": peak_memory_mb()}))


def peak_memory_mb() -> float:
    "This process's peak resident memory (VmHWM: ru_maxrss would carry the parent's over fork and exec)."
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def measured(model: tuple, backend: str, folder: Path, texts_file: Path, threads: int) -> dict:
    "Run `child` in a fresh process with the backend's environment; `model`: (name, path, maximum length)."
    env = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS}   # native, unless the child pins
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": str(threads)}
    out = subprocess.run([sys.executable, __file__, "--child", model[0], model[1], str(model[2]), backend,
                          str(folder), str(texts_file), str(threads)], env=env, capture_output=True, text=True)
    if out.returncode: raise SystemExit(f"{backend}: failed\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def agreement(vectors, reference) -> dict:
    "Per text: cosine with its reference vector; how often its nearest other text is the reference's."
    import numpy as np
    def unit(v): return v / np.linalg.norm(v, axis=1, keepdims=True)
    a, r = unit(vectors), unit(reference)
    cos = (a * r).sum(1)
    def nearest(u):
        sims = u @ u.T; np.fill_diagonal(sims, -np.inf); return sims.argmax(1)
    return {"cos_min": float(cos.min()), "cos_mean": float(cos.mean()),
            "top1": float((nearest(a) == nearest(r)).mean())}


def main() -> None:
    import numpy as np, onnxruntime, transformers
    threads = len(os.sched_getaffinity(0))
    texts = lite_texts(N_TEXTS)
    print(f"{len(texts)} STEB-lite texts, {np.mean([len(t.split()) for t in texts]):.0f} words on average; "
          f"{threads} threads; transformers {transformers.__version__}, onnxruntime {onnxruntime.__version__}")
    for name in MODELS:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp); texts_file = folder/"texts.json"; texts_file.write_text(json.dumps(texts))
            exported, model = export(name, folder), (name, *transformer_dir(name))
            runs = {}
            for _ in range(REPEAT):   # interleaved, the fastest of each kept: this machine's times vary by ~20%
                for b in BACKENDS:
                    r = measured(model, b, folder, texts_file, threads)
                    if b not in runs or r["seconds"] < runs[b]["seconds"]: runs[b] = r
            reference = np.load(folder/"torch pinned.npy")
            print(f"\n{name}")
            print("| backend | texts/s | vs torch pinned | export s | peak MB | cos min | cos mean | top-1 |")
            print("|:--|--:|--:|--:|--:|--:|--:|--:|")
            base = runs["torch pinned"]["seconds"]
            for b, r in runs.items():
                agree = agreement(np.load(folder/f"{b}.npy"), reference)
                print(f"| {b} | {len(texts) / r['seconds']:.1f} | {base / r['seconds']:.2f} | "
                      f"{exported.get(b, 0):.1f} | {r['peak_mb']:.0f} | {agree['cos_min']:.4f} | "
                      f"{agree['cos_mean']:.4f} | {agree['top1']:.3f} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]: child(*sys.argv[2:4], int(sys.argv[4]), *sys.argv[5:8], int(sys.argv[8]))
    else: main()

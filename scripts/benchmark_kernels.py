"""Pinned vs native numeric kernels (issues 42 and 58): what the pins cost, and whether they give the same bits.

1. all-MiniLM-L6-v2 embeds 400 texts of mixed length (batches of 32) in a fresh process per setting (a pin applies when
   its library loads), on 1 and 2 threads: native kernels; the pins with torch's matrix products on MKL's compatible
   path (the default until issue 58); the pins with MKL's AVX2 path; products by numpy's OpenBLAS
   (`run_settings.pinned_products`) with torch's idle OpenMP threads spinning; the pins as they are now (the same, the
   idle threads sleeping: `SPEED_PINS`). Prints seconds, the ratio to native, and the sha256 of the embeddings (equal
   hashes: the same bits).
2. Training: 6 steps (forward, backward, fused AdamW when pinned) of all-MiniLM-L6-v2 on batches of 16 texts: seconds
   per setting (pinned on one thread, as a pinned training runs; native on 1 and 2) and the weights' sha256.
3. BENCH_QEMU=1, with Debian's qemu-user installed (`apt-get install qemu-user`): parts 1 (8 texts) and 2 (one step) on
   emulated CPUs (`BENCH_QEMU_CPUS`, default: Intel Haswell, Broadwell, Skylake-Server, Cascade Lake, Icelake-Server,
   Cooper Lake, AMD EPYC-Rome, EPYC-Milan; qemu 7.2 emulates AVX2, not AVX-512), each hash compared with this
   machine's, for the default pins (`BENCH_QEMU_ALL=1`: the older pinned settings too, on the first two CPUs).
   Emulation runs each instruction exactly (~200x slower), so it shows which code paths a CPU takes.
Run: .venv/bin/python scripts/benchmark_kernels.py   (about 8 minutes on 2 cores; with BENCH_QEMU=1 about 30 more;
BENCH_PARTS=3 BENCH_QEMU=1: the emulation alone)
"""
import hashlib, json, os, random, shutil, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from steb_lib.run_settings import KERNEL_PINS, SPEED_PINS  # noqa: E402  (no numpy or torch at import)

# name: (environment, matrix products by OpenBLAS under the pins?)
SETTINGS = {
    "native": ({}, False),
    "pins, products on MKL compatible": (KERNEL_PINS, False),
    "pins, products on MKL AVX2": (KERNEL_PINS | {"MKL_CBWR": "AVX2,STRICT"}, False),
    "pins, products by OpenBLAS, OpenMP spins": (KERNEL_PINS, True),
    "pins (default): products by OpenBLAS": (KERNEL_PINS | SPEED_PINS, True),
}
DEFAULT = "pins (default): products by OpenBLAS"
CPUS = ("Haswell", "EPYC-Rome", "Broadwell", "Skylake-Server", "Cascadelake-Server", "Icelake-Server", "Cooperlake",
        "EPYC-Milan")


def texts_of(n: int) -> list[str]:
    "`n` texts of mixed length built from the example files (the same on every run)."
    texts = [json.loads(line).get("text") for f in sorted((ROOT / "data" / "examples").glob("*.jsonl"))
             for line in f.read_text().splitlines()]
    rng, texts = random.Random(0), [t for t in texts if t]
    return [" ".join(rng.choice(texts) for _ in range(rng.choice([1, 1, 2, 4]))) for _ in range(n)]


def child(what: str, n: int, threads: int, openblas: bool) -> None:
    "In a fresh process: embed `n` texts or train; print seconds and the sha256 as JSON."
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    import steb_lib.models.encoders as encoders
    import steb_lib.run_settings as run_settings
    if not openblas:   # the products left to MKL: undo the route importing steb_lib made, and make no other
        if run_settings._products_library is not None: run_settings._products_library._destroy()
        run_settings._products_library = None
        encoders.pinned_products = run_settings.pinned_products = lambda environ=None: False
    torch.set_num_threads(threads); torch.manual_seed(0)
    encoder = encoders.load_encoder("all-MiniLM-L6-v2", device="cpu")
    texts = texts_of(n)
    start = time.perf_counter()
    if what == "embed":
        out = encoder.encode(texts, "truncate", batch_size=32).tobytes()
    else:
        from steb_lib.run_settings import training_settings
        if openblas: run_settings.pinned_products()
        model = encoder.model[0].auto_model; model.train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=bool(training_settings()))
        for step in range(max(1, n // 16)):
            batch = encoder.tokenizer(texts[16 * step:16 * step + 16] or texts[:4], padding=True, truncation=True,
                                      max_length=128, return_tensors="pt")
            hidden = model(**batch)[0]; mask = batch["attention_mask"][..., None]
            pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
            size = pooled.shape[0]
            loss = torch.nn.functional.cross_entropy(pooled @ pooled.roll(1, 0).T * 20, torch.arange(size))
            optimizer.zero_grad(); loss.backward(); optimizer.step()
        out = b"".join(p.detach().numpy().tobytes() for p in model.parameters())
    print(json.dumps({"seconds": time.perf_counter() - start, "sha256": hashlib.sha256(out).hexdigest()[:16]}))


def run(what: str, n: int, threads: int, setting: str, qemu_cpu: str | None = None) -> dict:
    env, openblas = SETTINGS[setting]
    base = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS and k not in SPEED_PINS}
    command = [sys.executable, __file__, "--child", what, str(n), str(threads), str(int(openblas))]
    if qemu_cpu: command = ["qemu-x86_64", "-cpu", qemu_cpu] + command
    done = subprocess.run(command, env=base | env, capture_output=True, text=True)
    if done.returncode: raise SystemExit(f"{setting} {what} {qemu_cpu or ''}: failed\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parts = os.environ.get("BENCH_PARTS", "123")   # which parts to run (BENCH_PARTS=3 BENCH_QEMU=1: emulation only)
    if "1" in parts: embedding_times()
    if "2" in parts: training_times()
    if "3" in parts and os.environ.get("BENCH_QEMU"): emulated_identity()


def embedding_times() -> None:
    print("1. all-MiniLM-L6-v2 embeds 400 texts: seconds (the fastest of BENCH_REPEATS runs, default 2), ratio to "
          "native (sha256 of the embeddings)")
    repeats = int(os.environ.get("BENCH_REPEATS", "2"))   # each cell's fastest of as many runs, interleaved
    rounds = [{name: [run("embed", 400, t, name) for t in (1, 2)] for name in SETTINGS} for _ in range(repeats)]
    cells = {name: [min((r[name][i] for r in rounds), key=lambda c: c["seconds"]) for i in (0, 1)]
             for name in SETTINGS}
    for name, (one, two) in cells.items():
        ratio = [c["seconds"] / n["seconds"] for c, n in zip((one, two), cells["native"])]
        print(f"  {name:41s} 1 thread {one['seconds']:6.1f} s ({ratio[0]:.2f}x, {one['sha256']}), "
              f"2 threads {two['seconds']:6.1f} s ({ratio[1]:.2f}x, {two['sha256']})")


def training_times() -> None:
    print("2. training, 6 steps of 16 texts: seconds, ratio to native on one thread (sha256 of the weights)")
    native = [run("train", 96, t, "native") for t in (1, 2)]
    print(f"  {'native':41s} 1 thread {native[0]['seconds']:6.1f} s ({native[0]['sha256']}), "
          f"2 threads {native[1]['seconds']:6.1f} s ({native[1]['sha256']})")
    for name in list(SETTINGS)[1:]:
        cell = run("train", 96, 1, name)
        print(f"  {name:41s} 1 thread {cell['seconds']:6.1f} s ({cell['seconds'] / native[0]['seconds']:.2f}x, "
              f"{cell['sha256']})")


def emulated_identity() -> None:
    if not shutil.which("qemu-x86_64"): raise SystemExit("BENCH_QEMU=1 needs qemu-x86_64 (apt-get install qemu-user)")
    cpus = os.environ.get("BENCH_QEMU_CPUS", ",".join(CPUS)).split(",")
    print("3. emulated CPUs: the same bits as this machine? (embedding 8 texts; one training step)")
    jobs = [(name, cpu) for name in list(SETTINGS)[1:] for cpu in cpus
            if name == DEFAULT or (cpu in cpus[:2] and os.environ.get("BENCH_QEMU_ALL"))]
    mine = {name: (run("embed", 8, 1, name)["sha256"], run("train", 4, 1, name)["sha256"]) for name in SETTINGS}
    def emulate(job):
        name, cpu = job
        return run("embed", 8, 1, name, cpu)["sha256"], run("train", 4, 1, name, cpu)["sha256"]
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for (name, cpu), got in zip(jobs, pool.map(emulate, jobs)):
            same = [g == m for g, m in zip(got, mine[name])]
            print(f"  {name:41s} {cpu:18s} embedding {'same' if same[0] else 'DIFFERS'}, "
                  f"training step {'same' if same[1] else 'DIFFERS'}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]: child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
    else: main()

"""Pinned vs native numeric kernels (issue 42): what the pins cost, and whether they give the same bits.

1. all-MiniLM-L6-v2 embeds 400 texts of mixed length (batches of 32) in a fresh process per setting (a pin applies when
   its library loads): native kernels, the pins with MKL's AVX2 path, the default pins (MKL's compatible path); on 1
   and 2 threads. Prints seconds and the sha256 of the embeddings (equal hashes: the same bits).
2. One training step (forward, backward, fused AdamW) of all-MiniLM-L6-v2 on four texts: the weights' sha256 per setting.
3. BENCH_QEMU=1, with Debian's qemu-user installed (`apt-get install qemu-user`): parts 1 (8 texts) and 2 again on
   emulated CPUs (Intel Haswell, AMD EPYC-Rome: AVX2, no AVX-512), each hash compared with this machine's. Emulation runs
   each instruction exactly (~60x slower), so it shows which code paths a CPU takes.
Run: .venv/bin/python scripts/benchmark_kernels.py
"""
import hashlib, json, os, random, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from steb_lib.run_settings import KERNEL_PINS  # noqa: E402  (no numpy or torch at import)

SETTINGS = {
    "native": {},
    "pins, MKL AVX2": KERNEL_PINS | {"MKL_CBWR": "AVX2,STRICT"},
    "pins (default)": KERNEL_PINS,
}


def child(what: str, n: int, threads: int) -> None:
    "In a fresh process: embed `n` texts or take one training step; print seconds and the sha256 as JSON."
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from steb_lib.models.encoders import load_encoder
    torch.set_num_threads(threads); torch.manual_seed(0)
    encoder = load_encoder("all-MiniLM-L6-v2", device="cpu")
    texts = [json.loads(line).get("text") for f in sorted((ROOT / "data" / "examples").glob("*.jsonl"))
             for line in f.read_text().splitlines()]
    rng, texts = random.Random(0), [t for t in texts if t]
    texts = [" ".join(rng.choice(texts) for _ in range(rng.choice([1, 1, 2, 4]))) for _ in range(n)]
    start = time.perf_counter()
    if what == "embed":
        out = encoder.encode(texts, "truncate", batch_size=32).tobytes()
    else:
        model = encoder.model[0].auto_model; model.train()
        batch = encoder.tokenizer(texts[:4], padding=True, truncation=True, max_length=64, return_tensors="pt")
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        hidden = model(**batch)[0]; mask = batch["attention_mask"][..., None]
        pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
        loss = torch.nn.functional.cross_entropy(pooled @ pooled.roll(1, 0).T * 20, torch.arange(4))
        loss.backward(); optimizer.step()
        out = b"".join(p.detach().numpy().tobytes() for p in model.parameters())
    print(json.dumps({"seconds": time.perf_counter() - start, "sha256": hashlib.sha256(out).hexdigest()[:16]}))


def run(what: str, n: int, threads: int, env: dict, qemu_cpu: str | None = None) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in KERNEL_PINS}
    command = [sys.executable, __file__, "--child", what, str(n), str(threads)]
    if qemu_cpu: command = ["qemu-x86_64", "-cpu", qemu_cpu] + command
    done = subprocess.run(command, env=base | env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    print("1. all-MiniLM-L6-v2, 400 texts: seconds (sha256 of the embeddings)")
    for name, env in SETTINGS.items():
        cells = [run("embed", 400, t, env) for t in (1, 2)]
        print(f"  {name:16s} 1 thread {cells[0]['seconds']:6.1f} s ({cells[0]['sha256']}), "
              f"2 threads {cells[1]['seconds']:6.1f} s ({cells[1]['sha256']})")
    print("2. one training step, one thread: sha256 of the weights")
    here = {name: run("train", 4, 1, env)["sha256"] for name, env in SETTINGS.items()}
    for name, sha in here.items(): print(f"  {name:16s} {sha}")
    if not os.environ.get("BENCH_QEMU"): return
    if not shutil.which("qemu-x86_64"): raise SystemExit("BENCH_QEMU=1 needs qemu-x86_64 (apt-get install qemu-user)")
    print("3. emulated CPUs: the same bits as this machine? (embedding 8 texts; one training step)")
    for name, env in SETTINGS.items():
        mine = run("embed", 8, 1, env)["sha256"]
        for cpu in ("Haswell", "EPYC-Rome"):
            same = (run("embed", 8, 1, env, cpu)["sha256"] == mine, run("train", 4, 1, env, cpu)["sha256"] == here[name])
            print(f"  {name:16s} {cpu:10s} embedding {'same' if same[0] else 'DIFFERS'}, "
                  f"training step {'same' if same[1] else 'DIFFERS'}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]: child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else: main()

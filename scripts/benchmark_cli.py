"""How long each `steb` command that lists or reads takes to answer (issue 44, item 2: under a second).

Each command runs as a user runs it (the console script, a fresh process), `--repeat` times; the best and the median
wall time are printed. Commands that embed or train are timed by `--help` only: their work is another benchmark's.

    .venv/bin/python scripts/benchmark_cli.py [--repeat 5]
"""
import argparse, statistics, subprocess, sys, tempfile, time
from pathlib import Path

STEB = str(Path(sys.executable).parent / "steb")
COMMANDS = [
    ["--version"], ["--help"], ["list-models"], ["list-datasets"], ["corrections"], ["kernels"],
    ["status", "--results-dir", "{results}", "--suite", "mini", "--models", "random"],
    ["table", "--results-dir", "{results}"], ["verify", "{results}", "--against", "{results}"],
    ["export", "{results}", "{out}", "--format", "mteb"],
    *[[name, "--help"] for name in ("evaluate", "rerank", "examples", "paper", "train", "fetch", "prepare", "status",
                                    "table", "verify", "export", "kernels", "corrections")],
    # a training method's options come from its recipe, which is imported for them (contrastive's loss subclasses
    # sentence-transformers', so its help pays for that import)
    *[["train", method, "--help"] for method in ("styledistance", "contrastive", "reranker")],
]


def seconds(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([STEB, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(repeat: int) -> None:
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        fill = {"results": str(root / "data" / "results" / "lite"), "out": str(Path(tmp) / "mteb")}
        print(f"{'command':62s} {'best':>7s} {'median':>7s}")
        for command in COMMANDS:
            args = [a.format(**fill) for a in command]
            times = [seconds(args) for _ in range(repeat)]
            shown = ' '.join(command).replace('{results}', 'data/results/lite').replace('{out}', 'OUT')
            print(f"{'steb ' + shown:62s} {min(times):6.2f}s {statistics.median(times):6.2f}s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    main(parser.parse_args().repeat)

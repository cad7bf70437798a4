"""A paper notebook run from a second clone that shares the first clone's environment (its .venv, where steb_lib is
installed from the first) reads and writes the second clone's data/, results/, tables/ and figures/, never the
first's; and a partial results/lite there is named and passed over for the committed store (issue 59, item 3)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def clone_of_the_working_tree(where: Path) -> Path:
    "The files a clone has (tracked ones, as they are now) of what a notebook needs: data/, nbs/, settings.ini, steb_lib/."
    tracked = subprocess.run(["git", "ls-files", "data", "nbs", "settings.ini", "steb_lib"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.splitlines()
    for name in tracked:
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(ROOT / name, where / name)
    return where


def test_a_notebook_run_in_a_second_clone_reads_and_writes_that_clone(tmp_path):
    second = clone_of_the_working_tree(tmp_path / "second")
    shutil.copytree(ROOT / "data" / "results" / "lite" / "random", second / "results" / "lite" / "random")  # a partial run
    first_tables = {p: p.stat().st_mtime_ns for p in (ROOT / "tables").glob("*")} if (ROOT / "tables").is_dir() else {}
    env = {k: v for k, v in os.environ.items() if k not in ("STEB_DATA_DIR", "STEB_TABLES_DIR", "STEB_FIGURES_DIR")}
    out = tmp_path / "02.ipynb"
    done = subprocess.run([sys.executable, "-m", "papermill", "02_operational.ipynb", str(out), "-k", "python3",
                           "--no-progress-bar"], cwd=second / "nbs", env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    text = out.read_text(encoding="utf-8")
    assert f"reading results from {second / 'data' / 'results' / 'lite'} (128 results of 8 models)" in text, text[:3000]
    assert f"{second / 'results' / 'lite'} holds 16 results of 1 models, not all the committed store" in text
    assert (second / "tables" / "tab02_operational.csv").is_file() and list((second / "figures").glob("*.png"))
    after = {p: p.stat().st_mtime_ns for p in (ROOT / "tables").glob("*")} if (ROOT / "tables").is_dir() else {}
    assert after == first_tables                                       # the first clone's tables: untouched

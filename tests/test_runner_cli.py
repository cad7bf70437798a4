"""End-to-end checks of the `steb` command: determinism, resume after kill -9, README/CI agreement."""
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest

from steb_lib.eval.results import without_timing

ROOT = Path(__file__).resolve().parent.parent
STEB = [str(Path(sys.executable).parent / "steb")]
MINILM = "sentence-transformers/all-MiniLM-L6-v2"
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1")


def examples_cmd(results, cache, *models):
    return STEB + ["examples", "--results-dir", str(results), "--cache-dir", str(cache), "--models", *models]


def results_without_timing(results_dir):
    "Relative path -> result dict minus the timing fields, for every result file."
    files = sorted(Path(results_dir).glob("*/*/*.json"))
    return {str(p.relative_to(results_dir)): without_timing(json.loads(p.read_text())) for p in files}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("reference")
    subprocess.run(examples_cmd(d / "results", d / "cache", "random", MINILM), check=True, env=ENV, cwd=d)
    return d / "results"


def test_two_runs_write_identical_files(reference_run, tmp_path):
    subprocess.run(examples_cmd(tmp_path / "results", tmp_path / "cache", "random", MINILM), check=True, env=ENV, cwd=tmp_path)
    first, second = results_without_timing(reference_run), results_without_timing(tmp_path / "results")
    assert len(first) == 12 and first == second
    # byte-identical apart from the two timing lines
    for rel in first:
        strip = lambda p: [l for l in p.read_text().splitlines() if not l.lstrip().startswith(('"seconds"', '"created"'))]
        assert strip(reference_run / rel) == strip(tmp_path / "results" / rel)


def test_kill_mid_run_then_resume(reference_run, tmp_path):
    results, cache = tmp_path / "results", tmp_path / "cache"
    proc = subprocess.Popen(examples_cmd(results, cache, MINILM), env=ENV, cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while not list(results.glob("*/*/*.json")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL); proc.wait()
    finished = {p: p.stat().st_mtime_ns for p in results.glob("*/*/*.json")}
    assert 1 <= len(finished) < 6, "the kill should land after the first result and before the last"
    assert list(cache.rglob("*.npz")), "embeddings finished before the kill are on disk"
    rerun = subprocess.run(examples_cmd(results, cache, MINILM), env=ENV, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert rerun.stdout.count("skip ") == len(finished)
    assert all(p.stat().st_mtime_ns == m for p, m in finished.items()), "finished results were rewritten"
    assert "(200 texts embedded" not in rerun.stdout, "texts embedded before the kill were embedded again"
    reference = {k: v for k, v in results_without_timing(reference_run).items() if k.startswith(MINILM.replace("/", "__"))}
    assert results_without_timing(results) == reference
    assert not list(results.rglob("*.tmp")), "no temporary files are left behind"


def test_bad_input_is_one_clear_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine", "label": "a"}\n{"text": "   ", "label": "b"}\n')
    r = subprocess.run(STEB + ["evaluate", "random", "--task", "clustering", "--data-file", str(bad),
                               "--results-dir", str(tmp_path / "r"), "--cache-dir", str(tmp_path / "c")],
                       env=ENV, capture_output=True, text=True)
    assert r.returncode == 2 and "bad.jsonl:2: field 'text'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "r").exists()


def test_ci_runs_the_readme_test_command():
    readme, ci = (ROOT / "README.md").read_text(), (ROOT / ".ci" / "run").read_text()
    assert "bash test.sh" in readme and "bash test.sh" in ci

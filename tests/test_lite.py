"""STEB-lite: the shipped samples (data/lite) are what the raw files give, and a machine without raw files or
network runs the whole lite suite from them."""
import gzip, json, os, subprocess, sys
from pathlib import Path
import pytest

RAW = Path(os.environ.get("STEB_RAW_DIR", "../shared/steb-raw"))
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (RAW/"nlpsoc"/"STEL").exists(), reason="needs STEB_RAW_DIR with the shared raw files")
def test_shipped_samples_rebuild_identically_from_the_raw_files(monkeypatch):
    "Every shipped sample, rebuilt from ../shared/steb-raw: the same JSONL bytes and the same meta."
    from steb_lib.data.lite import build_lite_sample, lite_samples
    from steb_lib.data.samples import shipped_name
    monkeypatch.setenv("STEB_RAW_DIR", str(RAW.resolve()))
    samples = lite_samples()
    assert len(samples) >= 24
    for name, task, selection in samples:    # each selection variant (paper: none) has its own sample
        gz, meta = build_lite_sample(name, task, selection=selection)
        shipped, stem = ROOT/"data"/"lite"/name, shipped_name(task, selection)
        shipped_meta = json.loads((shipped/f"{stem}.meta.json").read_text(encoding="utf-8"))
        records = shipped/shipped_meta.pop("records_file", f"{stem}.jsonl.gz")   # tasks with one sample share a file
        assert gzip.decompress(gz) == gzip.decompress(records.read_bytes()), (name, task)
        assert meta == shipped_meta, (name, task)


def test_the_lite_suite_runs_without_raw_files(tmp_path):
    "`steb evaluate random --suite lite` with no raw mirror and downloads off: every dataset x task, from the shipped samples."
    env = {**os.environ, "STEB_CACHE": str(tmp_path/"cache"), "HF_HUB_OFFLINE": "1", "STEB_OFFLINE": "1"}
    env.pop("STEB_RAW_DIR", None)
    r = subprocess.run([str(Path(sys.executable).parent/"steb"), "evaluate", "random", "--suite", "lite", "--results-dir",
                        str(tmp_path/"results")], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and ", 0 failed" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    found = {json.loads(p.read_text())["data_found_in"] for p in (tmp_path/"results"/"random").glob("*/*.json")}
    assert found == {"lite", "package"}, found
    licences = (ROOT/"data"/"lite"/"LICENSES.md").read_text(encoding="utf-8")
    assert "CC BY-NC" not in licences and "none stated" not in licences

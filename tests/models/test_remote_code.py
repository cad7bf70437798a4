"""Issue 30, item 1: no code from a model directory runs without the user's consent (`--trust-remote-code`), through
the console script, as a user would meet it."""
import json, os, subprocess, sys
from pathlib import Path

from steb_lib.testing.tiny_models import make_tiny_model

ROOT = Path(__file__).resolve().parents[2]
STEB = [str(Path(sys.executable).parent / "steb")]
DATA = ROOT / "data" / "examples" / "cds_styles.jsonl"
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def model_that_leaves_a_marker(tmp_path):
    "A tiny LUAR-style directory whose own modelling code writes a marker file when it is imported."
    model = make_tiny_model("luar", tmp_path / "luar")
    marker = tmp_path / "code-ran"
    code = model / "modeling_luar.py"
    code.write_text(f"open({str(marker)!r}, 'w').write('ran')\n" + code.read_text())
    return model, marker


def evaluate(model, tmp_path, *options):
    return subprocess.run(STEB + ["evaluate", str(model), "--task", "all_to_all", "--data-file", str(DATA),
                                  "--results-dir", str(tmp_path / "r"), "--cache-dir", str(tmp_path / "c"), *options],
                          env=ENV, capture_output=True, text=True)


def test_a_local_directory_runs_its_code_only_with_consent(tmp_path):
    model, marker = model_that_leaves_a_marker(tmp_path)
    r = evaluate(model, tmp_path)
    assert r.returncode == 2 and not marker.exists(), r.stderr[-2000:]
    assert "asks to run code of its own (configuration_luar.LUARConfig, modeling_luar.LUAR)" in r.stderr
    assert "--trust-remote-code" in r.stderr and "Traceback" not in r.stderr
    r = evaluate(model, tmp_path, "--trust-remote-code")
    assert r.returncode == 0 and marker.exists(), r.stderr[-2000:]
    result = json.loads(next((tmp_path / "r").glob("*/*/all_to_all.json")).read_text())
    assert result["model_family"] == "luar"


def test_a_plain_local_checkpoint_needs_no_consent(tmp_path):
    model = make_tiny_model("bert", tmp_path / "bert")
    r = evaluate(model, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]

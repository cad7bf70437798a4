"""Jupyter in the box (issue 32, item 3): JupyterLab serves the notebooks, and `jupyter nbconvert --execute` runs a paper
notebook as a researcher would, writing its table where $STEB_TABLES_DIR says."""
import json, os, socket, subprocess, sys, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_nbconvert_executes_a_paper_notebook(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "STEB_TABLES_DIR": str(tmp_path / "tables"),
           "STEB_FIGURES_DIR": str(tmp_path / "figures"), "STEB_CACHE": str(tmp_path / "cache")}
    r = subprocess.run([str(BIN / "jupyter"), "nbconvert", "--to", "notebook", "--execute", str(ROOT / "nbs" / "15_sample_counts.ipynb"),
                        "--output-dir", str(tmp_path)], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    executed = json.loads((tmp_path / "15_sample_counts.ipynb").read_text())
    assert all(c.get("execution_count") for c in executed["cells"] if c["cell_type"] == "code")
    assert "eWAVE" in (tmp_path / "tables" / "tab15_sample_counts_lite.csv").read_text()


def free_port() -> int:
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def test_jupyterlab_serves_the_notebooks(tmp_path):
    port, token = free_port(), "steb-test"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
           "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    lab = subprocess.Popen([str(BIN / "jupyter"), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
                            *(["--allow-root"] if os.geteuid() == 0 else [])],   # CI containers run as root
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try: urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2); break
            except OSError:
                assert lab.poll() is None and time.time() < deadline, lab.stdout.read().decode()[-2000:] if lab.poll() is not None else "no answer"
                time.sleep(0.5)
        nb = json.load(urllib.request.urlopen(f"{base}/api/contents/nbs/02_operational.ipynb?token={token}", timeout=10))
        assert nb["type"] == "notebook" and nb["content"]["cells"][0]["source"].startswith("#")
        page = urllib.request.urlopen(f"{base}/lab/tree/nbs/02_operational.ipynb?token={token}", timeout=10).read().decode()
        assert "JupyterLab" in page
    finally:
        lab.terminate(); lab.wait(timeout=30)

"""Issue 44, item 4: the paper notebooks (top of nbs/) are committed executed on the committed results, so GitHub and
JupyterLab show their tables and figures; here each committed notebook is compared, output by output, with test.sh's
execution of it (STEB_EXECUTED_NOTEBOOKS; run alone, the test executes them itself). Timings, memory addresses, the
trainer's speed lines and how many texts a run found cached are masked; figures are compared byte for byte (matplotlib writes the same PNG for the same
data). A difference fails with the cells that differ: run `.venv/bin/python scripts/build_site.py --store-executed`
and commit the notebooks."""
import importlib.util, json, os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(spec); spec.loader.exec_module(build_site)


def executions(tmp_path):
    "test.sh's executions of the paper notebooks, or new ones (as test.sh makes them)."
    if os.environ.get("STEB_EXECUTED_NOTEBOOKS"): return Path(os.environ["STEB_EXECUTED_NOTEBOOKS"])
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--execute-into", str(tmp_path / "runs")],
                   check=True, timeout=1800)   # a process of its own: the notebooks run in spawned workers
    return tmp_path / "runs"


def test_each_paper_notebook_is_committed_with_the_outputs_its_code_produces(tmp_path):
    if (ROOT / "results" / "lite").exists():   # never in CI's fresh clone
        pytest.skip("results/lite exists (a main job's): the notebooks read it, not the committed results they show")
    runs, problems = executions(tmp_path), {}
    for name in build_site.paper_notebooks():
        committed = build_site.read_notebook(ROOT / name)
        shown = sum(len(c.get("outputs", [])) for c in committed["cells"] if c["cell_type"] == "code")
        assert shown, f"{name} is committed without outputs"
        diff = build_site.output_differences(committed, build_site.read_notebook(runs / Path(name).name), runs / "outputs")
        if diff: problems[name] = diff
    assert not problems, ("committed outputs differ from what the code produces; run `.venv/bin/python "
                          "scripts/build_site.py --store-executed` and commit:\n" + json.dumps(problems, indent=1)[:6000])


def test_an_edited_output_or_a_new_figure_is_a_difference():
    "The comparison sees a changed number and a changed figure, and masks only timings and addresses."
    out = lambda text, png="iVBOR": {"cells": [{"cell_type": "code", "source": "x", "metadata": {}, "outputs": [  # noqa: E731
        {"output_type": "stream", "name": "stdout", "text": text},
        {"output_type": "display_data", "data": {"image/png": png, "text/plain": "<Figure at 0x7f3a2b1c0d90>"}},
        {"output_type": "stream", "name": "stderr", "text": "100%|██| 3/3 [00:05<00:00, 1.73s/it]"}]}]}
    base = out("MRR 0.4583 in 3.2 s\n")
    assert build_site.output_differences(base, out("MRR 0.4583 in 12 s\n"), "/nowhere") == []
    cached = lambda n: out(f"MRR 0.4583 ({n} texts embedded, {62 - n} cached)\n")   # noqa: E731: another run's cache
    assert build_site.output_differences(cached(62), cached(0), "/nowhere") == []
    assert build_site.output_differences(base, out("MRR 0.4584 in 3.2 s\n"), "/nowhere") != []
    assert build_site.output_differences(base, out("MRR 0.4583 in 3.2 s\n", png="iVBOS"), "/nowhere") != []
    stored = build_site.stored_notebook(base, out(f"read {ROOT}/data/results/lite and /tmp/run-abc123xy/x\n"), "/nowhere")
    assert stored["cells"][0]["outputs"][0]["text"] == "read data/results/lite and /tmp/run-XXXXXXXX/x\n"
    assert [o["output_type"] for o in stored["cells"][0]["outputs"]] == ["stream", "display_data"]   # no stderr


NO_NUMBER = r"<td[^>]*>\s*(?:NaN|nan|&lt;NA&gt;|<NA>|None)\s*</td>|(?<![\w.])(?:NaN|<NA>)(?![\w.])"


def test_no_committed_paper_notebook_shows_nan_for_a_missing_number():
    "Issue 79: a dash, never NaN or <NA>, marks a missing number in every table and line the paper notebooks show."
    import re
    found = []
    for name in build_site.paper_notebooks():
        for i, cell in enumerate(build_site.read_notebook(ROOT / name)["cells"]):
            for out in cell.get("outputs", []):
                texts = [v for k, v in out.get("data", {}).items() if not k.startswith("image/")] + [out.get("text", "")]
                for text in ("".join(t) if isinstance(t, list) else str(t) for t in texts):
                    found += [f"{name} cell {i}: {m.group(0)!r}" for m in re.finditer(NO_NUMBER, text)]
    assert not found, found[:10]


def test_the_nan_check_sees_a_nan_cell_and_not_a_word_or_a_dash():
    import re
    assert re.search(NO_NUMBER, "<td>NaN</td>") and re.search(NO_NUMBER, "random  52.43  <NA>")
    assert re.search(NO_NUMBER, "| x | NaN |")
    assert not re.search(NO_NUMBER, "<td>–</td> NaNs are dropped; np.nan_to_num; Nanjing")

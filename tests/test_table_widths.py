"""Issue 79: every table the `steb` commands print fits a 100-column terminal by default (split into parts, empty
columns dropped, long names shortened, each said in a line), and `--wide` still prints each table in one piece with
every column. Measured on the committed STEB-lite store through the console script, and on the main job's tables
and claims through the exported function it prints them with."""
import contextlib, io, os, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "data" / "results" / "lite"
STEB = [str(Path(sys.executable).parent / "steb")]
ENV = os.environ | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
COMMANDS = [
    ["table"], ["table", "--ci"], ["table", "--against", "upstream:v3"], ["table", "--score", "main"],
    ["table", "--score", "main", "--ci"], ["table", "--score", "application", "multilingual"],
    ["compare", "styledistance-mini", "all-MiniLM-L6-v2"], ["compare", "random", "biber"],
]


def steb(*args):
    done = subprocess.run(STEB + [str(a) for a in args], env=ENV, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def widest(text):
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_printed_table_fits_100_columns(command):
    fitted, wide = steb(*command, "--results-dir", LITE), steb(*command, "--wide", "--results-dir", LITE)
    assert widest(fitted) <= 100, [line for line in fitted.splitlines() if len(line) > 100][:3]
    assert widest(wide) > 100   # the full tables, in one piece
    if command[:2] == ["table", "--ci"]:   # the dropped columns are named, and --wide still has them
        assert "no score in any row, not shown: genre, time, demographics, idiolect" in fitted
        assert "| genre" in wide and "| genre" not in fitted


def test_the_main_jobs_tables_and_claims_fit_100_columns():
    from steb_lib.cli import print_intervals_and_claims
    out = io.StringIO()
    with contextlib.redirect_stdout(out): print_intervals_and_claims(LITE)
    assert "## The paper's claims" in out.getvalue() and "- styledistance-mini beats its base" in out.getvalue()
    assert widest(out.getvalue()) <= 100

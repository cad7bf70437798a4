"""Issue 60: the versions of upstream's leaderboard (data/paper/upstream_*), transcribed from rrivera1849/STEB's
docs/leaderboard.md, checked cell by cell against numbers re-read from it, and compared through `steb table`."""
import csv, json, os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "data" / "paper"
STEB = str(Path(sys.executable).parent / "steb")
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
VERSIONS = json.loads((PAPER / "upstream_versions.json").read_text())
OBJECTS = ["genre", "register", "time", "demographics", "dialect", "idiolect"]
TASKS = ["clustering", "all_to_all", "predefined", "order_alignment", "retrieval", "probing"]


def table(name):
    return {r["model"]: r for r in csv.DictReader(open(PAPER / name, encoding="utf-8"))}


# (version, score, row as upstream prints it, column, value as printed) — re-read from the leaderboard's markdown
CELLS = [
    ("v1", "operational", "LUAR-CRUD", "STEB (operational)", "50.82"),
    ("v1", "operational", "star", "clustering", "25.92"),
    ("v1", "definitional", "styledistance", "dialect", "56.91"),
    ("v2", "operational", "LUSR", "STEB (operational)", "51.63"),
    ("v2", "operational", "LUAR-CRUD", "predefined", "72.09"),
    ("v2", "definitional", "styledistance", "dialect", "63.04"),
    ("v2", "definitional", "LUSR", "content_independence", "27.87"),
    ("v3", "operational", "LUAR-CRUD", "STEB (operational)", "50.39"),
    ("v3", "operational", "LUAR-CRUD", "predefined", "70.98"),
    ("v3", "operational", "multilingual-style-representation-Llama-3.2", "retrieval", "55.57"),
    ("v3", "operational", "neurobiber", "clustering", "8.89"),
    ("v3", "definitional", "multilingual-style-representation-Llama-3.2", "STEB (definitional)", "41.77"),
]


@pytest.mark.parametrize("version,score,row,col,value", CELLS)
def test_cells_as_printed_upstream(version, score, row, col, value):
    assert table(f"upstream_{version}_{score}.csv")[row][col] == value


AVERAGES = [("operational", TASKS, "STEB (operational)"), ("definitional", OBJECTS, "object_of_study"),
            ("definitional", ["object_of_study", "linguistic_features", "content_independence"], "STEB (definitional)")]


@pytest.mark.parametrize("version", list(VERSIONS))
@pytest.mark.parametrize("score,parts,avg", AVERAGES)
def test_each_printed_average_is_the_mean_of_its_parts(version, score, parts, avg):
    for model, r in table(f"upstream_{version}_{score}.csv").items():
        assert abs(sum(float(r[p]) for p in parts) / len(parts) - float(r[avg])) <= 0.011, (version, model, avg)


def test_versions_hold_the_models_they_say_and_every_row_resolves_in_the_registry():
    from steb_lib.models.registry import registry_lookup
    for version, entry in VERSIONS.items():
        for score in ("operational", "definitional"):
            rows = table(f"upstream_{version}_{score}.csv")
            assert len(rows) == entry["models"] and set(entry["added"]) <= set(rows), (version, score)
            assert all(registry_lookup(m) is not None for m in rows), [m for m in rows if registry_lookup(m) is None]
    assert VERSIONS["v3"]["commits"] == ["7edf4f7c63ad5d3677f74b09f5ffa5298d07a66c"]


def test_v1_is_the_papers_tables_but_for_seven_averages_rounded_otherwise():
    from steb_lib.paper import paper_table, reference_table
    for score, paper_file, apart in (("operational", "tab06_operational.csv", 0),
                                     ("definitional", "tab09_definitional.csv", 7)):
        ours, paper = reference_table(score, "upstream:v1"), paper_table(paper_file)
        cols = [c for c in ours.columns if c != "paper_name"]
        diff = (ours[cols] - paper.loc[ours.index, cols]).abs()
        assert sorted(ours.index) == sorted(paper.index) and int((diff > 1e-9).sum().sum()) == apart, score
        assert diff.max().max() <= 0.0100001


def steb(*args):
    return subprocess.run([STEB, *args], env=ENV, capture_output=True, text=True, cwd=ROOT)


def test_steb_table_against_an_upstream_version():
    r = steb("table", "--results-dir", "data/results/lite", "--against", "upstream:7edf4f7",
             "--score", "operational", "definitional", "application")
    assert r.returncode == 0, r.stderr
    assert "against upstream v3 (data/paper/upstream_v3_operational.csv)" in r.stdout
    assert "against upstream v3 (data/paper/upstream_v3_definitional.csv)" in r.stdout
    assert "| clustering (upstream v3)" in r.stdout and "Against upstream v3: " in r.stdout
    assert "groups found from 8 models, not upstream v3's 42" in r.stdout
    assert "upstream v3: upstream's leaderboard publishes no application table" in r.stdout
    assert "against the paper" in steb("table", "--results-dir", "data/results/lite").stdout   # the default
    bad = steb("table", "--results-dir", "data/results/lite", "--against", "upstream:v9")
    assert bad.returncode == 2 and "no version 'v9' of upstream's leaderboard: v1, v2, v3" in bad.stderr
    assert "Traceback" not in bad.stderr and bad.stdout == ""

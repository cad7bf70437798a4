"The paper's numbers in data/paper/ (typed from its tables) against cells re-read from the paper by hand."
import csv
from pathlib import Path
import pytest

PAPER = Path(__file__).resolve().parents[1] / "data" / "paper"

def table(name):
    return {r["model"]: r for r in csv.DictReader(open(PAPER / name, encoding="utf-8"))}

# (file, row, column, value as printed) — read off the PDF's tables, not from the CSVs
CELLS = [
    ("tab06_operational.csv", "LUAR-CRUD", "retrieval", "77.64"),        # Tab. 2 and 6: best retrieval
    ("tab06_operational.csv", "STAR", "STEB (operational)", "50.75"),
    ("tab06_operational.csv", "Qwen3-Embedding-8B", "clustering", "2.67"),
    ("tab06_operational.csv", "NeuroBiber", "retrieval", "9.06"),
    ("tab06_operational.csv", "Num. Datasets", "STEB (operational)", "122"),
    ("tab07_applications.csv", "deberta-v3-large", "ATD", "36.03"),      # Tab. 4 and 7
    ("tab07_applications.csv", "MSR", "ATD_adv", "0.12"),
    ("tab07_applications.csv", "CISR", "AV_hard", "65.56"),
    ("tab08_multilingual.csv", "StyleDistance", "Avg.", "58.42"),        # Tab. 5 and 8
    ("tab08_multilingual.csv", "gpt2-xl", "pair_classification", "48.75"),
    ("tab09_definitional.csv", "StyleDistance", "content_independence", "44.23"),   # Tab. 3 and 9
    ("tab09_definitional.csv", "RoBERTa-base", "linguistic_features", "77.95"),
    ("tab09_definitional.csv", "LUAR-CRUD", "idiolect", "76.99"),
    ("tab14_truncation.csv", "MSR", "truncate_auc", "67.51"),
    ("tab14_truncation.csv", "StyleDistance", "truncate_rank", "4"),
    ("tab01_prompting.csv", "GPT-5.2", "MRR", "63.4"),
    ("halvest_tab11_base8.csv", "Mean pooling", "R@20", "0.211"),        # HALvest-Contrastive Tab. 11
    ("halvest_tab11_base8.csv", "PLI n-gram 3", "nDCG@20", "0.545"),
    ("halvest_tab11_base8.csv", "LI", "R@100", "0.847"),
    ("sadiri_v2_tab03.csv", "retriever (Sadiri-v2/Mistral)", "HRS1 Success@8", "42.1"),   # Sadiri-v2 Tab. 3
    ("sadiri_v2_tab03.csv", "reranker: negatives close to the query only (IR-style)", "HRS2 MRR@20", "30.6"),
]

@pytest.mark.parametrize("name,row,col,value", CELLS)
def test_cells_as_printed(name, row, col, value):
    assert table(name)[row][col] == value

AVERAGES = [  # (file, parts, average column): each printed average is the mean of its printed parts
    ("tab06_operational.csv", ["clustering", "all_to_all", "predefined", "order_alignment", "retrieval", "probing"], "STEB (operational)"),
    ("tab07_applications.csv", ["ATD", "ATD_adv", "AV", "AR"], "Avg."),
    ("tab08_multilingual.csv", ["pair_classification", "retrieval"], "Avg."),
    ("tab09_definitional.csv", ["genre", "register", "time", "demographics", "dialect", "idiolect"], "object_of_study"),
    ("tab09_definitional.csv", ["object_of_study", "linguistic_features", "content_independence"], "STEB (definitional)"),
]

@pytest.mark.parametrize("name,parts,avg", AVERAGES)
def test_averages_are_means_of_parts(name, parts, avg):
    for model, r in table(name).items():
        if model == "Num. Datasets": continue
        assert abs(sum(float(r[p]) for p in parts) / len(parts) - float(r[avg])) <= 0.011, (model, avg)

def test_main_text_tables_are_subsets_of_appendix_ones():
    # Tab. 2 rows (as printed) equal Tab. 6; Tab. 3 = Tab. 9; Tab. 4 = Tab. 7; Tab. 5 = Tab. 8
    t6, t7, t8, t9 = (table(f) for f in ("tab06_operational.csv", "tab07_applications.csv", "tab08_multilingual.csv", "tab09_definitional.csv"))
    assert [t6["StyleDistance"][c] for c in ("order_alignment", "probing", "STEB (operational)")] == ["44.02", "57.87", "49.33"]
    assert [t9["CISR"][c] for c in ("genre", "content_independence", "STEB (definitional)")] == ["62.43", "32.31", "48.64"]
    assert [t7["LUAR-MUD"][c] for c in ("AV", "AR", "Avg.")] == ["76.54", "75.67", "63.85"]
    assert [t8["deberta-v3-base"][c] for c in ("pair_classification", "retrieval", "Avg.")] == ["71.85", "35.42", "53.63"]

def test_every_model_and_dataset_resolves_in_the_registries():
    from steb_lib.models.registry import registry_lookup
    from steb_lib.data.datasets import dataset_entry
    for name in ("tab06_operational.csv", "tab07_applications.csv", "tab08_multilingual.csv", "tab09_definitional.csv", "tab14_truncation.csv"):
        rows = [m for m in table(name) if m != "Num. Datasets"]
        assert len(rows) == (5 if "tab14" in name else 40)
        assert len({registry_lookup(m).name for m in rows}) == len(rows), name   # all resolve, to distinct entries
    counts = list(csv.DictReader(open(PAPER / "tab15_sample_counts.csv", encoding="utf-8")))
    assert len(counts) == 121
    for r in counts:   # the registry's counts are Tab. 15's
        c = dataset_entry(r["dataset"])["tasks"][r["task"]]
        assert (c["classes"], c["per_class"], c["total"]) == (int(r["classes"]), int(r["samples_per_class"]), int(r["total"]))

"""Paper parity of sample selection (issue 29), on the real files in `../shared/steb-raw`, through `steb prepare`.

The expected samples are computed here, independently of steb-lib's loaders, from the released code's rule as
`../shared/UPSTREAM-PARITY.md` §3 describes it (`steb/dataset_loader.py` with AUTO_MIN_EPISODES 25 /
AUTO_MAX_EPISODES 200; the loaders named there): the first N records of each label in the loader's order, N the
smallest label's count clamped to [25, 200], rarer labels dropped, duplicates kept. The overlaps with steb-lib's
seeded draw (`--correct seeded-selection`) are the numbers UPSTREAM-PARITY measured against the released code."""
import csv, io, json, os, subprocess, sys
from collections import Counter
from pathlib import Path

import pytest

RAW = Path(os.environ.get("STEB_RAW_DIR", "../shared/steb-raw")).resolve()
pytestmark = pytest.mark.skipif(not (RAW / "nlpsoc" / "STEL").exists(), reason="needs STEB_RAW_DIR with the shared raw files")
STEB = str(Path(sys.executable).parent / "steb")


def prepared(tmp_path, dataset, task, *options):
    out = tmp_path / ("out" + "".join(options))
    r = subprocess.run([STEB, "prepare", dataset, "--task", task, "--out", str(out), *options], capture_output=True, text=True,
                       env=dict(os.environ, STEB_RAW_DIR=str(RAW), STEB_CACHE=str(tmp_path / "cache")))
    assert r.returncode == 0, r.stderr
    lines = (out / f"{dataset}.{task}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(l) for l in lines], json.loads((out / f"{dataset}.{task}.meta.json").read_text())


def first_n_per_label(records):
    "The released rule on (label, item) records in loader order."
    counts = Counter(label for label, _ in records)
    n = max(25, min(min(counts.values()), 200))
    kept, taken = [], Counter()
    for label, item in records:
        if counts[label] >= n and taken[label] < n:
            kept.append((label, item)); taken[label] += 1
    return kept


def overlap(a, b):
    return sum((Counter(a) & Counter(b)).values())


def stel_pairs(path):
    "Both pairs of every STEL row, unordered, deduplicated in row order (the released stel.py keeps the first)."
    seen, out = set(), []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            for pair in ((row["Anchor 1"], row["Anchor 2"]), (row["Alternative 1.1"], row["Alternative 1.2"])):
                key = frozenset(t.strip() for t in pair)
                if key not in seen: seen.add(key); out.append(key)
    return out


@pytest.mark.parametrize("dataset,files,sizes,seeded_overlap", [
    ("STEL_feature", {"contraction": "characteristics/quad_questions_char_contraction.tsv",
                      "emoji": "characteristics/quad_questions_char_emotives.tsv",
                      "number_substitution": "characteristics/quad_questions_char_substitution.tsv"},
     {"contraction": 101, "emoji": 200, "number_substitution": 100}, 243),
    ("STEL_register", {"formality": "dimensions/quad_stel-dimension_formal-100_sample.tsv",
                       "simplicity": "dimensions/quad_stel-dimension_simple-100_sample.tsv"},
     {"formality": 196, "simplicity": 197}, None),
])
def test_stel_takes_the_first_pairs_of_each_category(tmp_path, dataset, files, sizes, seeded_overlap):
    pairs = {cat: stel_pairs(RAW / "nlpsoc" / "STEL" / "Data" / "STEL" / rel) for cat, rel in files.items()}
    assert {c: len(p) for c, p in pairs.items()} == sizes                  # UPSTREAM-PARITY §3's counts
    expected = first_n_per_label([(c, p) for c, ps in pairs.items() for p in ps])
    records, meta = prepared(tmp_path, dataset, "order_alignment")
    got = [(r["category"], frozenset(r["texts"])) for r in records]
    assert Counter(got) == Counter(expected) and meta["selection"]["corrections"] == []
    if seeded_overlap is not None:
        seeded, _ = prepared(tmp_path, dataset, "order_alignment", "--correct", "seeded-selection")
        assert overlap(got, [(r["category"], frozenset(r["texts"])) for r in seeded]) == seeded_overlap


def test_stel_register_orients_every_pair_alike(tmp_path):
    "The fixed ID parser: every simplicity pair simple-first as released (23 of 196 were reversed, one doubled)."
    records, _ = prepared(tmp_path, "STEL_register", "order_alignment")
    simple = [r["texts"] for r in records if r["category"] == "simplicity"]
    assert len(simple) == 196 and len({frozenset(t) for t in simple}) == 196
    path = RAW / "nlpsoc" / "STEL" / "Data" / "STEL" / "dimensions" / "quad_stel-dimension_simple-100_sample.tsv"
    with open(path, encoding="utf-8", newline="") as f:   # a simple text: named by the s- half of the row's ID
        firsts = {}
        for row in csv.DictReader(f, delimiter="\t"):
            a1, a2 = row["Anchor 1"].strip(), row["Anchor 2"].strip()
            anchors_id = row["ID"].split("_")[1]
            firsts[frozenset((a1, a2))] = a1 if anchors_id.startswith("s-") else a2
    checked = [t for t in simple if frozenset(t) in firsts]
    assert len(checked) > 90
    same_side = {t[0] == firsts[frozenset(t)] for t in checked}
    assert len(same_side) == 1, "simplicity pairs are oriented both ways"


def test_ewave_takes_the_first_29_sentences_per_variety_duplicates_kept(tmp_path):
    root = RAW / "cldf-datasets" / "ewave" / "cldf"
    with open(root / "languages.csv", encoding="utf-8", newline="") as f:
        names = {r["ID"]: r["Name"] for r in csv.DictReader(f)}
    with open(root / "examples.csv", encoding="utf-8", newline="") as f:
        rows = [(names[r["Language_ID"]], r["Primary_Text"].strip()) for r in csv.DictReader(f) if r["Primary_Text"].strip()]
    expected = first_n_per_label(rows)
    assert len(expected) == 1537 and len(set(expected)) < 1537          # 53 x 29, exact repeats included
    for task in ("clustering", "all_to_all"):
        records, meta = prepared(tmp_path, "eWAVE", task)
        assert [(r["label"], r["text"]) for r in records] == expected
        assert meta["n_duplicates_kept"] == 1537 - len(set(expected)) and "n_duplicates_dropped" not in meta
    seeded, meta = prepared(tmp_path, "eWAVE", "clustering", "--correct", "seeded-selection")
    assert meta["n_duplicates_dropped"] == 12 and overlap(expected, [(r["label"], r["text"]) for r in seeded]) == 655


def test_davidson_takes_the_first_200_tweets_per_class(tmp_path):
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(RAW / "t-davidson" / "hate-speech-and-offensive-language" / "data" / "labeled_data.csv")
    names = {0: "hate_speech", 1: "offensive_language", 2: "neither"}
    expected = first_n_per_label([(names[c], t) for c, t in zip(df["class"], df["tweet"])])
    records, _ = prepared(tmp_path, "hate_speech_and_offensive_language", "clustering")
    assert sorted((r["label"], r["text"]) for r in records) == sorted(expected) and len(expected) == 600
    seeded, _ = prepared(tmp_path, "hate_speech_and_offensive_language", "clustering", "--correct", "seeded-selection")
    assert overlap(expected, [(r["label"], r["text"]) for r in seeded]) == 38


def onestop_line_triples():
    "Paragraph lines of the three versions aligned by line index, articles in sorted order (UPSTREAM-PARITY §3)."
    base = RAW / "nishkalavallabhi" / "OneStopEnglishCorpus" / "Texts-SeparatedByReadingLevel"
    dirs = {"ele": base / "Ele-Txt", "int": base / "Int-Txt" / "Int-Txt", "adv": base / "Adv-Txt"}
    by_level = {lvl: {p.name.rsplit("-", 1)[0]: p for p in d.glob("*.txt")} for lvl, d in dirs.items()}
    triples, articles = [], []
    for article in sorted(set(by_level["ele"]) & set(by_level["int"]) & set(by_level["adv"])):
        try:
            lines = [io.StringIO(by_level[l][article].read_bytes().decode("utf-8-sig"), newline=None).read().split("\n")
                     for l in ("ele", "int", "adv")]
        except UnicodeDecodeError:
            continue
        for t in zip(*[[x.strip() for x in ls] for ls in lines]):
            if all(t): triples.append(list(t)); articles.append(article)
    return triples, articles


def test_onestop_takes_the_first_200_paragraph_line_triples(tmp_path):
    triples, articles = onestop_line_triples()
    assert len(triples) == 2117 and len(set(articles[:200])) == 18
    records, meta = prepared(tmp_path, "OneStopEnglishCorpus", "order_alignment")
    assert [r["texts"] for r in records] == triples[:200]
    words = sum(len(t.split()) for r in records for t in r["texts"]) / 600
    assert 45 < words < 53, words                                         # "mean 49 words" (vs 25 for sentences)
    sentences, _ = prepared(tmp_path, "OneStopEnglishCorpus", "order_alignment", "--correct", "onestop-sentences,seeded-selection")
    assert overlap([tuple(t) for t in triples[:200]], [tuple(r["texts"]) for r in sentences]) == 0

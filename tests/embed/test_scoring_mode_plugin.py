"""One scoring definition for evaluation and training (issue 45, item 1): a scoring mode registered in one line — its
vectors and its own matrix and pairwise forms — is scored by `evaluate` (retrieval through the matrix form, predefined
pairs through the pairwise form) and trained for by `steb train contrastive`: its loss forms the mode's vectors (the
same `text_vectors` evaluation calls) and scores them with the mode's matrix form, `training.json` names the mode, and
the trained model is evaluated under it."""
import json
import torch
from steb_lib.cli import main
from steb_lib.embed import scoring
from steb_lib.eval.runner import evaluate
from steb_lib.testing.tiny_models import make_tiny_model

VECTORS, FORMS = [], []


def first_two(vectors, words, mode):
    "Toy mode: a text's first two token vectors, L2-normalised."
    VECTORS.append(vectors.requires_grad)
    return torch.nn.functional.normalize(vectors[:2], dim=-1)


def best_pair(equation):
    "Toy score: the best-matching pair of vectors of the two texts (max over both sides; padding never wins)."
    def form(Q, q_mask, D, d_mask, reduce, chunk_elements=None):
        FORMS.append((equation, Q.requires_grad))
        sim = torch.einsum(equation, Q.float(), D.float())
        real = q_mask[..., :, None] & d_mask[..., None, :] if equation.startswith("k") else \
            q_mask[:, None, :, None] & d_mask[None, :, None, :]
        return sim.masked_fill(~real, float("-inf")).flatten(-2).amax(-1)
    return form


MATRIX, PAIRWISE = "qid,njd->qnij", "kid,kjd->kij"
FIRST_TWO = scoring.ScoringMode("first-two", "first-two", lambda s: scoring.Scoring(s, s) if s == "first-two" else None,
                                vectors=first_two, count=lambda n_tokens, n_words, mode: min(2, n_tokens),
                                matrix=best_pair(MATRIX), pairwise=best_pair(PAIRWISE))


def test_the_forms_score_the_best_pair():
    Q = torch.nn.functional.normalize(torch.tensor([[[1., 0.], [0., 1.]]]), dim=-1)
    D = torch.nn.functional.normalize(torch.tensor([[[1., 1.], [-1., 0.]], [[0., 1.], [9., 9.]]]), dim=-1)
    qm, dm = torch.ones(1, 2, dtype=torch.bool), torch.tensor([[True, True], [True, False]])
    assert torch.allclose(FIRST_TWO.matrix(Q, qm, D, dm, "sum"), torch.tensor([[2**-0.5, 1.0]]))
    assert torch.allclose(FIRST_TWO.pairwise(Q, qm, D[1:], dm[1:], "mean"), torch.tensor([1.0]))   # padding: no 1.0


def test_a_registered_mode_is_evaluated_and_trained_for(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(scoring.SCORING_MODES, "first-two", FIRST_TWO)   # the one registration line (undone after)
    base = make_tiny_model("bert", tmp_path / "tiny-bert")
    kw = dict(results_dir=tmp_path / "results", progress=False)

    VECTORS.clear(), FORMS.clear()
    untrained = evaluate(str(base), "retrieval", dataset="mini_authors_retrieval_en", scoring="first-two", **kw)
    assert untrained["scoring"] == "first-two" and untrained["vectors_per_text"] <= 2
    assert VECTORS and not any(VECTORS) and FORMS and {f for f in FORMS} == {(MATRIX, False)}   # stored vectors
    FORMS.clear()
    pairs = evaluate(str(base), "predefined", dataset="mini_aaac_verification_en", scoring="first-two", **kw)
    assert pairs["scoring"] == "first-two" and FORMS and {f for f in FORMS} == {(PAIRWISE, False)}

    VECTORS.clear(), FORMS.clear()
    out = tmp_path / "trained"
    assert main(["train", "contrastive", "--base", str(base), "--scoring", "first-two", "--steps", "4", "--learning-rate",
                 "0.01", "--batch-size", "4", "--per-author", "8", "--words", "16", "--out", str(out)]) == 0
    assert VECTORS and all(VECTORS), VECTORS                             # the loss formed its vectors, with gradients
    assert FORMS and {f for f in FORMS} == {(MATRIX, True)}, FORMS       # and scored them with the mode's matrix form
    info = json.loads((out / "training.json").read_text())
    assert info["scoring"] == "first-two" and info["trained_scoring"] == "first-two", info

    VECTORS.clear(), FORMS.clear()
    trained = evaluate(str(out), "retrieval", dataset="mini_authors_retrieval_en", **kw)   # no scoring: the trained one
    assert trained["scoring"] == "first-two" and VECTORS and FORMS
    # the trained weights are another model (its fingerprint); its score may tie the untrained one's on these few queries
    # (4 steps: a fresh-clone CI run of the fourteenth session saw 0.3667 for both), so the score is not the check
    assert trained["model_revision"] != untrained["model_revision"]
    capsys.readouterr()

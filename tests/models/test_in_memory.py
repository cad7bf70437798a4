"""Models held in memory through the public API (issue 32, item 1): a SentenceTransformer, a transformers model and
tokenizer, MTEB 2's encoders (real mteb), an MTEB 1-style encoder and a function; data as a DataFrame; results as DataFrames; changed weights are never
taken for the old ones."""
import copy, os
import pandas as pd, pytest, torch

os.environ.setdefault("HF_HUB_OFFLINE", "1"); os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
from steb_lib.core import StebInputError
from steb_lib.eval.runner import evaluate, evaluate_suite


@pytest.fixture
def st(minilm):
    "The worker's MiniLM (conftest), unchanged by these tests; the one that changes weights takes a copy."
    return minilm


def test_a_sentence_transformer_in_memory_scores_as_the_model_loaded_by_name(tmp_path, st):
    for profile in ("paper", "corrected"):
        held = evaluate(st, "clustering", dataset="hate_speech", model_name="my-minilm", profile=profile,
                        results_dir=tmp_path / f"held-{profile}", cache_dir=tmp_path / "c", progress=False)
        named = evaluate("all-MiniLM-L6-v2", "clustering", dataset="hate_speech", profile=profile,
                         results_dir=tmp_path / f"named-{profile}", cache_dir=tmp_path / "c", progress=False)
        assert held["main_score"] == named["main_score"], profile
        assert held["model"] == "my-minilm" and held["model_revision"].startswith("weights-")
        # what MTEB 2 users hold: its encode(DataLoader, task_metadata=...) protocol, the same weights (issue 44)
        from mteb.models import SentenceTransformerEncoderWrapper
        wrapped = evaluate(SentenceTransformerEncoderWrapper(st), "clustering", dataset="hate_speech", model_name="my-minilm-mteb",
                           profile=profile, results_dir=tmp_path / f"mteb-{profile}", cache_dir=tmp_path / "c", progress=False)
        assert wrapped["main_score"] == named["main_score"] and wrapped["model_revision"] == held["model_revision"], profile
    frame = held.to_frame()
    row = frame.loc["my-minilm/hate_speech/clustering"]          # rows named as in the store
    assert row["model"] == "my-minilm" and row["main_metric"] == "v_measure" and row["n_texts"] > 0


def test_changed_weights_are_a_new_revision_never_the_old_result(tmp_path, st):
    st = copy.deepcopy(st)                                                   # its weights are changed below
    kw = dict(dataset="hate_speech", model_name="mine", results_dir=tmp_path / "r", cache_dir=tmp_path / "c", progress=False)
    before = evaluate(st, "clustering", **kw)
    with torch.no_grad():
        for p in st.parameters(): p.mul_(0.5)
    with pytest.raises(StebInputError, match="holds a result for other inputs .model_revision differ"):
        evaluate(st, "clustering", **kw)
    after = evaluate(st, "clustering", force=True, **kw)
    assert after["model_revision"] != before["model_revision"] and after["main_score"] != before["main_score"]
    assert len(list((tmp_path / "c" / "embeddings" / "mine").iterdir())) == 2      # one cache per revision


def test_a_function_is_cached_only_with_a_version_and_data_can_be_a_dataframe(tmp_path, st):
    df = pd.DataFrame({"text": [f"text {i}, in the style number {i % 3}" for i in range(30)], "label": [f"s{i % 3}" for i in range(30)]})
    calls = []
    def embed(texts): calls.append(len(texts)); return st.encode(texts)
    kw = dict(data_file=df, name="my-frame", results_dir=tmp_path / "r", cache_dir=tmp_path / "c", progress=False)
    first = evaluate(embed, "clustering", model_name="fn", **kw)
    again = evaluate(embed, "clustering", model_name="fn", **kw)               # recomputed: no version, nothing reused
    assert sum(calls) == 60 and first["main_score"] == again["main_score"] and first["dataset"] == "my-frame"
    assert not (tmp_path / "c" / "embeddings" / "fn").exists()
    evaluate(embed, "clustering", model_name="fn-v1", model_version="v1", **kw)
    evaluate(embed, "clustering", model_name="fn-v1", model_version="v1", **kw)   # cached and finished: no call
    assert sum(calls) == 90 and (tmp_path / "c" / "embeddings" / "fn-v1" / "v1").is_dir()
    with pytest.raises(StebInputError, match="name the model you hold"):
        evaluate(embed, "clustering", **kw)


class MtebStyle:
    "An encoder as MTEB's protocol has it: encode(sentences, **kwargs) -> array."
    def __init__(self, st): self.st = st
    def encode(self, sentences, **kwargs): return self.st.encode(list(sentences), **kwargs)


def test_an_mteb_style_encoder_and_a_suite_as_a_dataframe(tmp_path, st):
    out = evaluate_suite(MtebStyle(st), "mini", model_name="mteb-style", model_version="1", datasets=["mini_probing", "mini_aaac_verification_en"],
                         results_dir=tmp_path / "r", cache_dir=tmp_path / "c", progress=False)
    frame = out["done"].to_frame()
    assert not out["failed"] and set(frame["dataset"]) == {"mini_probing", "mini_aaac_verification_en"}
    assert (frame["model"] == "mteb-style").all() and frame["main_score"].between(0, 1).all()


def test_a_changed_context_or_normalisation_is_embedded_again_never_served_from_the_cache(tmp_path, st):
    """Issue 46, item 1: the same weights with another max_seq_length (or without the Normalize module) are other
    vectors: the store refuses the old result, a fresh store embeds again instead of reusing the cached vectors."""
    st = copy.deepcopy(st)
    kw = dict(dataset="hate_speech", model_name="mine", profile="corrected", cache_dir=tmp_path / "c", progress=False)
    before = evaluate(st, "clustering", results_dir=tmp_path / "r", **kw)
    st.max_seq_length = 6                                                     # 4 tokens of text per chunk
    with pytest.raises(StebInputError, match="holds a result for other inputs .model_settings differ"):
        evaluate(st, "clustering", results_dir=tmp_path / "r", **kw)
    cached = evaluate(st, "clustering", results_dir=tmp_path / "r2", **kw)
    fresh = evaluate(st, "clustering", results_dir=tmp_path / "r3", **(kw | {"cache_dir": tmp_path / "c-empty"}))
    assert cached["model_revision"] == before["model_revision"] and cached["model_max_tokens"] == 4
    assert cached["main_score"] == fresh["main_score"] != before["main_score"]
    assert cached["model_settings"] != before["model_settings"]
    st.max_seq_length = 256
    del st[2]                                                                 # no Normalize: other vectors, other key
    unnormalised = evaluate(st, "clustering", results_dir=tmp_path / "r4", **kw)
    assert unnormalised["model_settings"] not in (before["model_settings"], cached["model_settings"])
    assert len(list((tmp_path / "c" / "embeddings" / "mine").glob("*/*"))) == 3      # one cache per setting


def test_an_mteb_encoder_of_its_own_runs_the_suite(tmp_path):
    "What mteb.get_model returns for a model that is not a SentenceTransformer: a black box through MTEB 2's protocol."
    import mteb
    model = mteb.get_model("mteb/baseline-random-encoder")
    run = evaluate_suite(model, "mini", results_dir=tmp_path / "r", cache_dir=tmp_path / "c", progress=False)
    assert not run["failed"] and len(run["done"]) == 9, run["failed"]
    result = run["done"][0]
    assert (result["model"], result["model_revision"], result["model_kind"]) == ("mteb/baseline-random-encoder", "2", "MTEB encoder")
    assert (tmp_path / "r" / "mteb__baseline-random-encoder").is_dir()

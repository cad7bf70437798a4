"""A new model family is one class and one registration (issue 45, item 4): an encoder class decorated with
`@encoder_family` in a module of its own, and a registry entry naming its family, are evaluated through the CLI like a
built-in family — `ENCODERS` is the one list of families, so nothing else names it. A family nobody registered is
refused where the model is loaded, naming the registered ones."""
import json
import numpy as np
import pytest
from steb_lib.cli import main
from steb_lib.core import StebInputError, check_texts
from steb_lib.models import registry
from steb_lib.models.encoders import load_encoder
from steb_lib.models.registry import ENCODERS, ModelSpec, encoder_family, load_model_registry


class CharClassEncoder:
    "Toy family: each text's shares of letters, digits, spaces and other characters."
    def __init__(self, spec):
        self.spec, self.dim = spec, 4

    def encode(self, texts, protocol="chunk", **kw):
        classes = (str.isalpha, str.isdigit, str.isspace)
        counts = [[sum(f(c) for c in t) for f in classes] for t in check_texts(texts)]
        return np.array([[*c, len(t) - sum(c)] for c, t in zip(counts, texts)], np.float32) / \
            np.array([[max(1, len(t))] for t in texts], np.float32)


@pytest.fixture
def char_classes(tmp_path, monkeypatch):
    "The one registration (undone after), and a registry entry of the new family in the user's registry file."
    monkeypatch.setitem(ENCODERS, "char-classes", None)
    encoder_family("char-classes", takes_device=False)(CharClassEncoder)
    entries = tmp_path / "registry.json"
    entries.write_text(json.dumps([{"name": "char-classes", "family": "char-classes", "category": "custom",
                                    "notes": "a toy family"}]))
    monkeypatch.setattr(registry.MODEL_REGISTRY, "data", {**registry.MODEL_REGISTRY.copy(), **load_model_registry(entries)})


def test_a_registered_family_is_evaluated_through_the_cli(char_classes, tmp_path, capsys):
    assert main(["evaluate", "char-classes", "--task", "all_to_all", "--dataset", "mini_bible_kjv_web",
                 "--results-dir", str(tmp_path / "results")]) == 0
    (path,) = (tmp_path / "results").rglob("*.json")
    result = json.loads(path.read_text())
    assert result["model"] == "char-classes" and result["model_family"] == "char-classes" and 0 <= result["main_score"] <= 1
    capsys.readouterr()


def test_an_unregistered_family_is_refused_by_name(char_classes):
    with pytest.raises(StebInputError, match="unknown family 'bag-of-words'; registered: .*char-classes"):
        load_encoder(ModelSpec("bow", "bag-of-words"))

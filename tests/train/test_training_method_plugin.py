"""A new training method is one module holding its recipe plus one line in `RECIPES` (issue 31, item 2): then
`steb train METHOD` builds it from the options that name its fields, and a registry entry with that method is trained
on first use when `evaluate` is called from Python. The recipe here lives in a module of its own, found by its import
path as the built-in recipes are."""
import dataclasses, json, sys
from steb_lib.cli import main
from steb_lib.eval.runner import evaluate
from steb_lib.models import registry
from steb_lib.testing.tiny_models import make_tiny_model
from steb_lib.train import recipes
from steb_lib.training_record import TRAINING_SCHEMA_VERSION

ECHO_RECIPE = '''
from dataclasses import dataclass
from typing import ClassVar
from steb_lib.core import DEFAULT_SEED
from steb_lib.train.lifecycle import check_training_numbers, recipe_key, trainer_settings

@dataclass(frozen=True)
class EchoRecipe:
    "Toy: a text and its upper-case copy are alike."
    method: ClassVar[str] = "echo"
    save_every: ClassVar[int] = 10
    usage: ClassVar[str] = "evaluate it with: steb evaluate {out}"
    base: str = ""
    steps: int = 3
    seed: int = DEFAULT_SEED                # as `steb train --seed`'s default
    def check(self, save_every): check_training_numbers(self.steps, 4, 1e-3, self.seed, save_every)
    def source(self): return None, {}
    def key(self, source): return recipe_key(self)
    def examples(self, records, progress):
        texts = [f"text number {i} on {w}" for i, w in enumerate(("tea", "rain") * 6)]
        return [(t, t.upper()) for t in texts], {"n_pairs": len(texts)}
    def build_model(self, base_dir):
        from sentence_transformers import SentenceTransformer
        from transformers import set_seed
        set_seed(self.seed); return SentenceTransformer(base_dir, device="cpu")
    def build_trainer(self, model, examples, run):
        from datasets import Dataset
        from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
        from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
        args = SentenceTransformerTrainingArguments(   # what every trainer shares, then the recipe's own
            **trainer_settings(run, self.steps, self.seed), per_device_train_batch_size=4, learning_rate=1e-3,
            use_cpu=True)
        data = Dataset.from_dict({"anchor": [a for a, _ in examples], "positive": [p for _, p in examples]})
        return SentenceTransformerTrainer(model=model, args=args, train_dataset=data,
                                          loss=MultipleNegativesRankingLoss(model), callbacks=list(run.callbacks))
    def info(self, trainer, examples, seconds): return {"echo": True}
'''


def test_a_recipe_module_plus_one_registration_line_trains_from_the_cli_and_on_first_use(tmp_path, monkeypatch,
                                                                                          capsys):
    (tmp_path / "echo_recipe.py").write_text(ECHO_RECIPE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(recipes.RECIPES, "echo", "echo_recipe.EchoRecipe")          # the one registration line
    base = make_tiny_model("bert", tmp_path / "tiny-bert")

    assert main(["train", "echo", "--base", str(base), "--steps", "2", "--out", str(tmp_path / "m")]) == 0
    out = capsys.readouterr().out
    assert "(echo, recipe " in out and "12 pairs" in out and f"evaluate it with: steb evaluate {tmp_path / 'm'}" in out
    info = json.loads((tmp_path / "m" / "training.json").read_text())
    assert (info["method"], info["recipe"]["steps"], len(info["losses"]), info["echo"]) == ("echo", 2, 2, True)
    assert info["schema_version"] == TRAINING_SCHEMA_VERSION and info["weights_sha256"]

    monkeypatch.setenv("STEB_MODELS_DIR", str(tmp_path / "models"))
    spec = dataclasses.replace(registry.registry_lookup("styledistance-mini"), name="echo-tiny",
                               trained={"method": "echo", "recipe": {"base": str(base), "steps": 2}})
    monkeypatch.setitem(registry.MODEL_REGISTRY, "echo-tiny", spec)
    result = evaluate("echo-tiny", "clustering", dataset="cds_styles", results_dir=tmp_path / "results", progress=False)
    assert result["model_source"] == "trained by steb-lib (echo)" and 0 <= result["main_score"] <= 1
    trained = json.loads((tmp_path / "models" / "trained" / "echo-tiny" / "training.json").read_text())
    assert (trained["recipe_key"], trained["weights_sha256"]) == (info["recipe_key"], info["weights_sha256"])   # same recipe
    sys.modules.pop("echo_recipe", None)

"""Trained on first use, from every entry point (issue 31, item 1): `evaluate` called from Python with a registered
model steb-lib trains (here a 2-step variant of styledistance-mini) trains it first, as `steb evaluate`, the main job
and a sweep do: they all go through `train.recipes.train_on_first_use`."""
import dataclasses, json
from steb_lib.eval.runner import evaluate
from steb_lib.models import files, registry


def test_evaluate_from_python_trains_a_registered_model_on_first_use(tmp_path, monkeypatch):
    monkeypatch.setenv("STEB_MODELS_DIR", str(tmp_path / "models"))
    spec = dataclasses.replace(registry.registry_lookup("styledistance-mini"), name="sd-tiny",
                               trained={"method": "styledistance", "recipe": {"steps": 2, "batch_size": 2, "per_feature": 4}})
    monkeypatch.setitem(registry.MODEL_REGISTRY, "sd-tiny", spec)
    assert files.offline_availability(spec) == "trained on first use"
    result = evaluate("sd-tiny", "clustering", dataset="cds_styles", results_dir=tmp_path / "results", progress=False)
    training = json.loads((tmp_path / "models" / "trained" / "sd-tiny" / "training.json").read_text())
    assert training["recipe"]["steps"] == 2 and files.offline_availability(spec) == "trained"
    assert result["model"] == "sd-tiny" and 0 <= result["main_score"] <= 1
    assert result["model_source"] == "trained by steb-lib (styledistance)"
    assert result["model_revision"] == result["model_files_sha256"]   # the trained files, fingerprinted

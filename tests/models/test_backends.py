"""The fast CPU path through the console script (issue 76): a tiny sentence-transformers model run with `steb evaluate
--backend openvino --quantize int8` on a built-in example — its results under a name of their own, the exact store
beside it untouched byte for byte, a rerun identical (`steb verify`), the screening store judged against the exact
one; and a model whose int8 export drifts refused in one line through the same command."""
import hashlib, json, os, shutil, subprocess, sys
from pathlib import Path

import pytest

STEB = str(Path(sys.executable).parent / "steb")


def steb(*args, models_dir):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "STEB_MODELS_DIR": str(models_dir)}
    return subprocess.run([STEB, *map(str, args)], capture_output=True, text=True, timeout=600, env=env)


def tree_sha256(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    "A tiny sentence-transformers model (a tiny BERT, mean pooling) and its drifting twin (an outlier weight column)."
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from steb_lib.testing.tiny_models import make_tiny_model
    root = tmp_path_factory.mktemp("backends")
    bert = make_tiny_model("bert", root / "bert")
    out = {}
    for name, scale in (("tiny-st", None), ("tiny-st-drift", 100.0)):
        first = Transformer(str(bert), max_seq_length=64)
        if scale:
            with torch.no_grad():
                for module_name, linear in first.auto_model.named_modules():
                    if isinstance(linear, torch.nn.Linear) and "encoder" in module_name:
                        linear.weight[:, 0] = scale * linear.weight.abs().max()
        SentenceTransformer(modules=[first, Pooling(first.get_embedding_dimension())]).save(str(root / name))
        out[name] = root / name
    return out, root


def test_screening_store_apart_identical_on_rerun_and_judged_against_the_exact(tiny_models):
    models, root = tiny_models
    exact, store = root / "exact", root / "store"
    run = lambda model, where, *extra: steb(  # noqa: E731
        "evaluate", model, "--dataset", "cds_styles", "--results-dir", where, "--cache-dir", root / "cache",
        *extra, models_dir=root / "models")
    r = run(models["tiny-st"], exact)
    assert r.returncode == 0, r.stderr[-3000:]
    before = tree_sha256(exact)
    shutil.copytree(exact, root / "exact-only")
    # the screening run goes into the same store and cache as the exact one: it writes beside them, never over
    r = run(models["tiny-st"], exact, "--backend", "openvino", "--quantize", "int8")
    assert r.returncode == 0, r.stderr[-3000:]
    after = tree_sha256(exact)
    assert {k: v for k, v in after.items() if k in before} == before
    screening = sorted(k for k in after if k not in before and k.endswith(".json") and "/cds_styles/" in k)
    assert screening and all(k.split("/")[0].endswith("@openvino-int8") for k in screening), screening
    result = json.loads((exact / screening[0]).read_text())
    backend = result["model_backend"]
    assert backend["backend"] == "openvino-int8" and backend["cpu_isa"] and backend["tools"]["openvino"]
    assert result["model_probe"]["cosine_min"] >= 0.95 and "openvino-int8" in result["model_route"]
    # a rerun of the screening results (a fresh store, the export reused): identical, timing fields aside
    r = run(models["tiny-st"], store, "--backend", "openvino", "--quantize", "int8")
    assert r.returncode == 0, r.stderr[-3000:]
    assert len(list((root / "models" / "exported").glob("*/openvino-int8-*"))) == 1   # built once
    screening_model = f"{models['tiny-st']}@openvino-int8"
    r = steb("verify", store, "--against", exact, "--models", screening_model, models_dir=root / "models")
    assert r.returncode == 0 and f"{len(screening)} identical" in r.stdout, r.stdout + r.stderr
    # the screening results against a store of the exact ones: a screening verdict per result, none missing
    r = steb("verify", store, "--against", root / "exact-only", "--models", screening_model,
             models_dir=root / "models")
    counts = r.stdout.splitlines()[1]
    assert " 0 missing" in counts and "0 identical" in counts and "screening: within" in counts, r.stdout + r.stderr
    r = steb("table", "--results-dir", exact, models_dir=root / "models")
    assert r.returncode == 0 and "screening" in r.stdout, r.stdout + r.stderr


def test_a_model_whose_int8_export_drifts_is_refused_in_one_line(tiny_models):
    models, root = tiny_models
    r = steb("evaluate", models["tiny-st-drift"], "--dataset", "cds_styles", "--results-dir", root / "drift",
             "--backend", "onnx", "--quantize", "int8", models_dir=root / "models")
    assert r.returncode != 0
    lines = [l for l in r.stderr.splitlines() if "refused on onnx-int8" in l]
    assert len(lines) == 1 and "its vectors drift from the model's own on the probe texts (cosine min" in lines[0], \
        r.stderr[-3000:]
    assert "Traceback" not in r.stderr and not (root / "drift").exists() or not list((root / "drift").rglob("*.json"))

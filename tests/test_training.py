"""`steb train styledistance` through the CLI: a tiny recipe trains a sentence-transformers directory with its
training.json, `steb evaluate` loads it like any model (family read from its files), and a rerun reuses it."""
import json

from steb_lib.cli import main


def test_train_then_evaluate_then_reuse(tmp_path, capsys):
    out = tmp_path/"sd"
    args = ["train", "styledistance", "--out", str(out), "--steps", "2", "--batch-size", "2", "--features", "contraction", "emoji"]
    assert main(args) == 0, capsys.readouterr().err
    info = json.loads((out/"training.json").read_text())
    assert info["recipe"]["steps"] == 2 and info["recipe"]["features"] == ["contraction", "emoji"]
    assert info["data"]["content"]["corpora"] == ["homeric_question"] and info["base_revision"]
    assert (out/"modules.json").is_file() and not (out/"checkpoints").exists()
    assert "evaluate it with: steb evaluate" in capsys.readouterr().out

    data = tmp_path/"styles.jsonl"
    data.write_text("".join(json.dumps({"text": t, "label": lab}) + "\n" for t, lab in [
        ("I don't know.", "c"), ("We can't go.", "c"), ("I do not know.", "f"), ("We cannot go.", "f")]))
    assert main(["evaluate", str(out), "--task", "all_to_all", "--data-file", str(data),
                 "--results-dir", str(tmp_path/"res"), "--cache-dir", str(tmp_path/"c")]) == 0, capsys.readouterr().err
    result = json.loads(next((tmp_path/"res").glob("*/styles/all_to_all.json")).read_text())
    assert result["model_family"] == "sentence-transformers"

    assert main(args) == 0                                             # the same recipe: reused, not retrained
    assert "trained with this recipe" in capsys.readouterr().out

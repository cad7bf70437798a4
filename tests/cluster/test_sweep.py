"""Sweeps (steb_lib.cluster, `--executor`, `steb status`): a local submitit sweep gives the results a sequential run gives,
each computed once; a killed job's rerun completes; a SLURM submission writes the sbatch script the options ask for."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from steb_lib.eval.results import without_timing
from steb_lib.eval.runner import evaluate_suite
from steb_lib.cluster.jobs import SweepJob, job_results, job_state, sweep_jobs
from steb_lib.cluster.slurm import make_executor
from steb_lib.cluster.sweep import run_sweep_job, submit_sweep
from steb_lib.testing.tiny_models import make_tiny_model

STEB = Path(sys.executable).parent / "steb"


def stored_without_timing(path: Path) -> dict:
    return without_timing(json.loads(path.read_text(encoding="utf-8")))


# A text's vector can differ in its last bits with the batch it is embedded in (another padding length, another
# blocking of the sums); packs that run at once share one embedding cache, so which texts another pack cached first
# changes the batches. Scores and their intervals are held to this, checksums of what they were made from ignored.
EMBEDDING_TOLERANCE = 1e-6


def equal_within(a, b, tolerance: float) -> bool:
    "Are two stored results equal, their floats within `tolerance` and their sha256 fields left out?"
    if isinstance(a, dict) and isinstance(b, dict):
        keys = {k for k in a.keys() | b.keys() if "sha256" not in k}
        return all(equal_within(a.get(k), b.get(k), tolerance) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal_within(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float): return abs(a - b) <= tolerance
    return a == b


def test_equal_within_sees_a_changed_score_and_not_a_last_bit():
    base = {"main_score": 0.5, "bootstrap": {"intervals": {"auroc": [0.48, 0.51]}}, "result_sha256": "a", "task": "t"}
    assert equal_within(base, base | {"main_score": 0.5 + 1e-9, "result_sha256": "b"}, EMBEDDING_TOLERANCE)
    assert not equal_within(base, base | {"main_score": 0.51}, EMBEDDING_TOLERANCE)
    assert not equal_within(base, base | {"task": "u"}, EMBEDDING_TOLERANCE)


def test_local_sweep_of_packed_jobs_at_once_equals_a_sequential_run(tmp_path):
    """8 (model, dataset) jobs packed into fewer submitit jobs (issue 62: a model's jobs share a process and its model
    load, by a rough cost estimate) that run at once; `--dry-run` prints that plan first and submits nothing. The
    results are held to EMBEDDING_TOLERANCE: a vector's last bits move with its batch, and packs that run at once share
    one cache (an all-to-all AUROC differed by 7e-8 in two of six CI runs)."""
    models = ("function-words", str(make_tiny_model("bert", tmp_path / "tiny-bert")))   # a non-neural and a neural one
    datasets = ["mini_aaac_verification_en", "mini_authors_retrieval_nl", "mini_bible_kjv_web", "mini_probing"]
    for m in models:
        run = evaluate_suite(m, "mini", datasets=datasets, results_dir=tmp_path / "sequential", cache_dir=tmp_path / "c1", progress=False)
        assert not run["failed"] and len(run["done"]) == 6
    jobs = sweep_jobs(models, "mini", datasets)            # 4 datasets, 6 (dataset, task) pairs: 8 jobs
    plan = subprocess.run([str(STEB), "evaluate", *models, "--dataset", "mini_probing", "--executor", "local",
                           "--pack-minutes", "1.5", "--dry-run", "--results-dir", str(tmp_path / "sweep")],
                          capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert plan.returncode == 0 and "2 submitit jobs for 2 (model, dataset) jobs" in plan.stdout, plan.stdout + plan.stderr
    assert not (tmp_path / "sweep").exists() or not list((tmp_path / "sweep").glob("*/*/*.json"))   # nothing ran
    out = submit_sweep(jobs, tmp_path / "sweep", "local", parallelism=4, fetch_models=False, cache_dir=tmp_path / "c2",
                       pack_minutes=1.5)
    assert (len(out["submitted"]), out["finished"], out["failed"]) == (8, 0, [])
    packs = out["packs"]
    assert 1 < len(packs) < len(jobs) and max(map(len, packs)) > 1 and all(len({j.model for j in p}) == 1 for p in packs)
    assert len(out["jobs"]) == len(packs)                              # one process (one model load) per pack
    computed = [p for job in out["jobs"] for p in job.result()["computed"]]
    assert len(computed) == len(set(computed)) == 2 * 6             # every result computed once, by one job
    sequential = sorted(p.relative_to(tmp_path / "sequential") for p in (tmp_path / "sequential").rglob("*.json"))
    swept = sorted(p.relative_to(tmp_path / "sweep") for p in (tmp_path / "sweep").glob("*/*/*.json"))
    assert swept == sequential
    for rel in sequential:
        swept_result, sequential_result = (stored_without_timing(tmp_path / d / rel) for d in ("sweep", "sequential"))
        differing = sorted(k for k in swept_result.keys() | sequential_result.keys() if "sha256" not in k
                           and not equal_within(swept_result.get(k), sequential_result.get(k), EMBEDDING_TOLERANCE))
        assert not differing, (rel, {k: (swept_result.get(k), sequential_result.get(k)) for k in differing})
    again = submit_sweep(jobs, tmp_path / "sweep", "local", parallelism=4, fetch_models=False, cache_dir=tmp_path / "c2")
    assert (again["submitted"], again["finished"]) == ([], 8)        # nothing is redone


def test_a_killed_job_is_missing_and_its_rerun_completes(tmp_path):
    job = SweepJob("tfidf-bundled-1-2", "mini_probing", "mini")    # TF-IDF probing: several seconds of work
    executor = make_executor("local", tmp_path / "jobs")
    running = executor.submit(run_sweep_job, job, tmp_path / "results", cache_dir=tmp_path / "cache")
    deadline = time.time() + 120
    while job_state(job, tmp_path / "results") != "running":
        assert time.time() < deadline and not running.done(), "the job never started computing"
        time.sleep(0.1)
    running.cancel(check=False)
    while not running.done(): time.sleep(0.1)
    time.sleep(0.5)
    assert job_state(job, tmp_path / "results") == "missing"       # killed: no result, and its lock went with it
    out = submit_sweep([job], tmp_path / "results", "local", fetch_models=False, cache_dir=tmp_path / "cache")
    assert (len(out["submitted"]), out["failed"]) == (1, [])
    assert job_state(job, tmp_path / "results") == "finished" and all(p.exists() for p in job_results(job, tmp_path / "results"))


def test_slurm_submission_through_the_cli_and_status(tmp_path):
    bin_dir = tmp_path / "bin"; bin_dir.mkdir()
    (bin_dir / "sbatch").write_text('#!/bin/sh\ncp "$1" "$(dirname "$0")/submitted.sh"\necho "Submitted batch job 77"\n')
    (bin_dir / "srun").write_text("#!/bin/sh\nexit 1\n")
    for f in ("sbatch", "srun"): (bin_dir / f).chmod(0o755)
    env = os.environ | {"PATH": f"{bin_dir}:{os.environ['PATH']}", "STEB_CACHE": str(tmp_path / "cache")}
    results = tmp_path / "results"
    cmd = [str(STEB), "evaluate", "function-words", "--suite", "mini", "--results-dir", str(results), "--executor", "slurm",
           "--no-wait", "--slurm-partition", "gpu", "--slurm-gpus", "1", "--slurm-time", "1-00:00:00",
           "--slurm-array-parallelism", "4", "--slurm-mem", "32G", "--slurm-account", "style",
           "--pack-minutes", "0"]   # one array task per (model, dataset) job (default: a model's jobs packed)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "7 jobs submitted, 0 already finished" in done.stdout and "77_0 77_1" in done.stdout
    script = (bin_dir / "submitted.sh").read_text()
    for line in ("--array=0-6%4", "--partition=gpu", "--gpus-per-node=1", "--time=1440", "--mem=32G", "--account=style",
                 "--cpus-per-task=8", "--job-name=steb"):
        assert f"#SBATCH {line}" in script, line
    status = subprocess.run([str(STEB), "status", "--results-dir", str(results)], env=env, capture_output=True, text=True)
    assert status.returncode == 1 and "0/7 jobs finished, 0 running, 0 queued, 0 failed, 7 missing" in status.stdout
    # the scheduler still holds them (a stand-in squeue: one array task running, six pending): queued, not resubmitted
    (bin_dir / "squeue").write_text('#!/bin/sh\necho "77_0 RUNNING"\nfor i in 1 2 3 4 5 6; do echo "77_$i PENDING"; done\n')
    (bin_dir / "squeue").chmod(0o755)
    status = subprocess.run([str(STEB), "status", "--results-dir", str(results)], env=env, capture_output=True, text=True)
    assert "0/7 jobs finished, 1 running, 6 queued, 0 failed, 0 missing" in status.stdout, status.stdout
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "0 jobs submitted, 0 already finished, 7 queued or running" in again.stdout, again.stdout
    (bin_dir / "squeue").unlink()                                   # they left the queue without results
    status = subprocess.run([str(STEB), "status", "--results-dir", str(results)], env=env, capture_output=True, text=True)
    assert "0/7 jobs finished, 0 running, 0 queued, 0 failed, 7 missing" in status.stdout, status.stdout
    # running them, a hand-edited result, another seed: against a real scheduler (tests/cluster/test_slurm_cluster.py)


def test_a_dry_run_on_slurm_shows_the_site_settings_and_a_typo_in_them_is_refused(tmp_path):
    """Issue 62, item 5: a site's SLURM settings come from a TOML file (flags override them) and the plan shows what each
    job will ask for; a key the file misspells is refused, named, before anything is planned or submitted."""
    site = tmp_path / "site.toml"
    site.write_text('partition = "gpu"\nqos = "normal"\ngpus = 1\ngpu_flag = "gres"\ncpus = 4\n'
                    'setup = ["module load cuda/12.1"]\n')
    args = [str(STEB), "evaluate", "random", "--suite", "mini", "--executor", "slurm", "--slurm-config", str(site),
            "--dry-run", "--pack-minutes", "60", "--results-dir", str(tmp_path / "r")]
    plan = subprocess.run([*args, "--slurm-cpus", "16"], capture_output=True, text=True)
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert ("each SLURM job asks: partition gpu, QOS normal, 16 CPUs, memory (the partition default), 240 min, "
            "GPUs --gres=gpu:1; setup: module load cuda/12.1") in plan.stdout, plan.stdout
    assert "at 16 CPUs a job" in plan.stdout and "GPU-hours" in plan.stdout, plan.stdout
    site.write_text('partion = "gpu"\n')
    typo = subprocess.run(args, capture_output=True, text=True)
    assert typo.returncode != 0 and "unknown settings ['partion']" in typo.stderr and "Traceback" not in typo.stderr
    assert not (tmp_path / "r").exists()

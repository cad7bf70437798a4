"""Tests run in three pytest-xdist workers (test.sh: `-n 3 --dist loadfile`). Each worker gets its own embedding and
data cache under the run's STEB_CACHE, so that no test sees another's cached embeddings (several assert how many
texts were embedded)."""
import os, signal
from pathlib import Path

import pytest

# A test run started in the background of a script (`nohup bash .ci/run &`) inherits SIGINT ignored, and so would
# every `steb` process the tests start: the Ctrl-C and killed-job tests would then wait for runs that cannot be
# interrupted. Handled (not ignored) signals reset to the default in a child, so the children get a normal Ctrl-C.
signal.signal(signal.SIGINT, signal.default_int_handler)

worker = os.environ.get("PYTEST_XDIST_WORKER")
if worker and os.environ.get("STEB_CACHE"):
    os.environ["STEB_CACHE"] = str(Path(os.environ["STEB_CACHE"])/worker)

# Longest files first: with `--dist loadfile` a worker takes the next file in collection order as it finishes one, so
# a long file collected last would run alone at the end (the folders tests/train/ and the rest are collected after
# tests/test_*.py). The three longest go to different workers (the first file to each). The order: each file's test
# time in a full run (2026-12-07, three workers). test.sh passes --no-loadscope-reorder: by default pytest-xdist
# reorders files by their number of tests, which once put the site build (3 tests) 22 minutes in.
LONGEST_FIRST = ("test_parity.py", "test_slurm_cluster.py", "test_paper_parameters.py", "test_full_suite_rehearsal.py",
                 "test_site.py", "test_hardening.py", "test_real_path.py", "test_late_interaction.py", "test_contrastive.py",
                 "test_in_memory.py", "test_runner_cli.py", "test_cli_basics.py", "test_main_job.py", "test_hub_replicas.py",
                 "test_backends.py", "test_training.py", "test_sweep.py", "test_wheel.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.fspath)).name, len(rank)))   # stable: the rest keep their order


@pytest.fixture(scope="session")
def minilm():
    """The packaged all-MiniLM-L6-v2 as a SentenceTransformer held in memory, loaded once per worker. A test that
    changes it takes a copy (`copy.deepcopy`); tests that need a fresh process run `steb` instead."""
    from sentence_transformers import SentenceTransformer
    from steb_lib.models.registry import resolve_model
    from steb_lib.models.files import model_source
    return SentenceTransformer(model_source(resolve_model("all-MiniLM-L6-v2"))[0], device="cpu")

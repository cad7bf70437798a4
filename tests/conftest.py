"""Tests run in two pytest-xdist workers (test.sh: `-n 2 --dist loadfile`). Each worker gets its own embedding and
data cache under the run's STEB_CACHE, so that no test sees another's cached embeddings (several assert how many
texts were embedded)."""
import os
from pathlib import Path

worker = os.environ.get("PYTEST_XDIST_WORKER")
if worker and os.environ.get("STEB_CACHE"):
    os.environ["STEB_CACHE"] = str(Path(os.environ["STEB_CACHE"])/worker)

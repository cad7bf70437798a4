#!/usr/bin/env bash
# The main job: install (first time only), then STEB-lite for the default models and every paper notebook, offline.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/install.sh
export HF_HUB_OFFLINE=${HF_HUB_OFFLINE:-1} TRANSFORMERS_OFFLINE=${TRANSFORMERS_OFFLINE:-1}
exec .venv/bin/steb paper "$@"

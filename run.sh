#!/usr/bin/env bash
# The main job: install (first time only), then evaluate the built-in models on the built-in datasets, offline.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/install.sh
export HF_HUB_OFFLINE=${HF_HUB_OFFLINE:-1} TRANSFORMERS_OFFLINE=${TRANSFORMERS_OFFLINE:-1}
exec .venv/bin/steb examples "$@"

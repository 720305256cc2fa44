"""faster-whisper in process: PCM in, text out. HA-free and blocking (call it in the executor).

faster-whisper (and ctranslate2 under it) is not a manifest requirement: it is installed on demand
and has no musl wheel, so nothing here imports it at module level. `check_runtime()` says whether
it can run; `WhisperTranscriber` loads the model on its first transcription and keeps it.

Audio: 16-bit little-endian mono PCM at 16 kHz, as Home Assistant's pipelines stream it; it is
handed to Whisper as float32 numpy samples in [-1, 1], so no ffmpeg is needed.
"""

from __future__ import annotations

import importlib
import os
import threading
from typing import Any

import numpy as np

from .voice.features import pcm_to_float

MODEL_SIZES = ("tiny", "base", "small", "medium")  # the multilingual models faster-whisper downloads
COMPUTE_TYPE = "int8"
CPU_THREADS = 2
BEAM_SIZE = 2  # small: a command is a few words; 2 beams measured no worse than 5 on espeak commands
# One decode, no retries at higher temperatures: faster-whisper's default fallback re-decoded a
# misheard short command up to six times (real-time factor 3.3 instead of 0.56; bench/voice.py).
DECODE_OPTIONS: dict[str, Any] = {
    "beam_size": BEAM_SIZE,
    "temperature": 0.0,
    "condition_on_previous_text": False,
    "without_timestamps": True,
}
# Audio quieter than this RMS (-60 dBFS) is silence: Whisper is not run on it (it would take
# seconds and may invent words).
SILENCE_RMS = 0.001
# The languages the multilingual Whisper models know (faster_whisper.tokenizer's codes without
# "yue", which only large-v3 has).
LANGUAGES = (
    "af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da",
    "de", "el", "en", "es", "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "haw", "he", "hi",
    "hr", "ht", "hu", "hy", "id", "is", "it", "ja", "jw", "ka", "kk", "km", "kn", "ko", "la", "lb",
    "ln", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "ne", "nl", "nn",
    "no", "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl", "sn", "so", "sq",
    "sr", "su", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi",
    "yi", "yo", "zh",
)  # fmt: skip


class WhisperUnavailable(RuntimeError):
    """faster-whisper or ctranslate2 cannot be imported here (not installed, or no wheel: musl)."""


def check_runtime() -> None:
    """Import ctranslate2 and faster_whisper (blocking). Raises WhisperUnavailable when either fails."""
    for module in ("ctranslate2", "faster_whisper"):
        try:
            importlib.import_module(module)
        except Exception as err:  # ImportError, or OSError from a native library that cannot load
            raise WhisperUnavailable(f"{module}: {err}") from err


def is_model_folder(path: str) -> bool:
    """Whether `path` is a CTranslate2 Whisper model folder (it holds model.bin and config.json)."""
    return all(os.path.isfile(os.path.join(path, name)) for name in ("model.bin", "config.json"))


class WhisperTranscriber:
    """One Whisper model, loaded on the first `transcribe` and kept; thread-safe.

    model: a size from MODEL_SIZES (downloaded into `download_root` on first use) or the path of a
    model folder (is_model_folder), used as it is with no download.
    """

    def __init__(self, model: str, download_root: str) -> None:
        self.model = model
        self.download_root = download_root
        self._whisper: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._lock:
            if self._whisper is None:
                check_runtime()
                from faster_whisper import WhisperModel  # noqa: PLC0415 - installed on demand

                local = self.model not in MODEL_SIZES
                self._whisper = WhisperModel(
                    self.model,
                    device="cpu",
                    compute_type=COMPUTE_TYPE,
                    cpu_threads=CPU_THREADS,
                    download_root=None if local else self.download_root,
                    local_files_only=local,
                )
            return self._whisper

    def transcribe(self, pcm: bytes, language: str | None) -> str:
        """The text said in `pcm` (16-bit LE mono 16 kHz), stripped; "" for silence or no speech.

        language: a code from LANGUAGES, or None to let Whisper detect it.
        Blocking (seconds: loads the model the first time, downloading it if it is a size name).
        Raises WhisperUnavailable when faster-whisper cannot be imported; other errors (a model
        that cannot be downloaded or loaded, ctranslate2 failing) propagate as they are.
        """
        audio = pcm_to_float(pcm)
        if not audio.size or float(np.sqrt(np.mean(np.square(audio)))) < SILENCE_RMS:
            return ""
        segments, _info = self._loaded().transcribe(audio, language=language, **DECODE_OPTIONS)
        return " ".join(segment.text.strip() for segment in segments).strip()

"""Speaker recognition by voice, free of Home Assistant (docs/voice.md).

features.py (PCM -> log-mel frames), network.py (the d-vector LSTM in numpy), ge2e.py (Resemblyzer's
GE2E encoder in numpy), fusion.py (the two fused into one vector), stream.py (an utterance embedded
while its audio arrives), encoder.py (the portable and onnxruntime paths), matching.py (voiceprints,
who spoke). Audio everywhere: 16-bit little-endian mono PCM at 16 kHz.
"""

from .encoder import (
    MODEL_IDENTITY,
    ONNXRUNTIME,
    PORTABLE,
    Encoder,
    OnnxEncoder,
    PortableEncoder,
    load_encoder,
)
from .features import SAMPLE_RATE
from .fusion import DIM
from .matching import (
    MARGIN,
    STRICT,
    STRICT_LIFT,
    THRESHOLD,
    UNKNOWN,
    ClipRejected,
    VoiceMatch,
    check_clip,
    identify,
    identify_utterance,
    odd_clip_out,
    threshold_for,
    voiceprint,
)
from .stream import EmbeddingStream, Utterance, final_backlog, next_batch

__all__ = [
    "DIM",
    "MARGIN",
    "MODEL_IDENTITY",
    "ONNXRUNTIME",
    "PORTABLE",
    "SAMPLE_RATE",
    "STRICT",
    "STRICT_LIFT",
    "THRESHOLD",
    "UNKNOWN",
    "ClipRejected",
    "EmbeddingStream",
    "Encoder",
    "OnnxEncoder",
    "PortableEncoder",
    "Utterance",
    "VoiceMatch",
    "check_clip",
    "final_backlog",
    "identify",
    "identify_utterance",
    "load_encoder",
    "next_batch",
    "odd_clip_out",
    "threshold_for",
    "voiceprint",
]

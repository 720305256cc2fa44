"""Who spoke: thresholds, margin, the strict threshold, and enrolment clip checks (real voices)."""

from __future__ import annotations

import numpy as np
import pytest

from custom_components.memory.voice import (
    MARGIN,
    STRICT,
    THRESHOLD,
    ClipRejected,
    PortableEncoder,
    check_clip,
    identify,
    odd_clip_out,
    voiceprint,
)
from tests.speech import MEN, WOMEN, silence, speak

ENROL = (
    "Remember that I like short answers.",
    "The weather is nice today and I will go for a walk.",
    "Please turn on the lights in the living room.",
)


def _unit(*values: float) -> np.ndarray:
    vector = np.zeros(256, np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def test_identify_needs_threshold_and_margin() -> None:
    prints = {"person.julian": _unit(1, 0), "person.anna": _unit(0, 1)}
    close = _unit(1, 0.1)  # cosine 0.995 to Julian, 0.0995 to Anna
    match = identify(close, prints)
    assert match.person_id == "person.julian" and match.strict
    assert match.margin == pytest.approx(match.score - float(close @ prints["person.anna"]))
    between = _unit(1, 1)  # equally close to both: no margin
    assert identify(between, prints).person_id is None
    far = _unit(0, 0, 1)
    assert identify(far, prints).person_id is None
    assert identify(None, prints).person_id is None
    assert identify(close, {}).person_id is None


def test_strict_is_stricter() -> None:
    prints = {"person.julian": _unit(1, 0)}
    angle = np.arccos((THRESHOLD + STRICT) / 2)  # between the two thresholds
    vector = _unit(np.cos(angle), np.sin(angle))
    match = identify(vector, prints)
    assert match.person_id == "person.julian"
    assert not match.strict
    assert THRESHOLD < STRICT and MARGIN > 0


def test_voiceprint_is_normalised_mean() -> None:
    print_ = voiceprint([_unit(1, 0), _unit(0, 1)])
    assert np.allclose(print_, _unit(1, 1))
    with pytest.raises(ValueError, match="vectors"):
        voiceprint([])


def test_household_voices_are_told_apart(portable: PortableEncoder) -> None:
    """Julian and Anna enrolled from three sentences each; new sentences are theirs, a stranger's
    are nobody's."""
    julian, anna, stranger = MEN[0], WOMEN[0], MEN[1]
    prints = {
        "person.julian": voiceprint([portable.embed(speak(text, julian)).vector for text in ENROL]),
        "person.anna": voiceprint([portable.embed(speak(text, anna)).vector for text in ENROL]),
    }
    question = "What do you know about my car and the garage?"
    assert identify(portable.embed(speak(question, julian)).vector, prints).person_id == "person.julian"
    assert identify(portable.embed(speak(question, anna)).vector, prints).person_id == "person.anna"
    assert identify(portable.embed(speak(question, stranger)).vector, prints).person_id is None


def _check(portable: PortableEncoder, pcm: bytes) -> None:
    half = len(pcm) // 4 * 2
    check_clip(portable.embed(pcm), (portable.embed(pcm[:half]), portable.embed(pcm[half:])))


def test_a_good_clip_passes(portable: PortableEncoder) -> None:
    _check(portable, speak(ENROL[1], MEN[0]))


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: silence(4), "no_speech"),
        (lambda: speak("Hello.", MEN[0]), "too_short"),
        (lambda: speak(ENROL[1], MEN[0]) + speak(ENROL[2], WOMEN[0]), "two_voices"),
    ],
    ids=["silence", "too-short", "two-voices"],
)
def test_bad_clips_are_rejected(portable: PortableEncoder, make, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ClipRejected) as caught:
        _check(portable, make())
    assert caught.value.reason == reason


def test_another_persons_clip_among_the_enrolment_clips(portable: PortableEncoder) -> None:
    """Three clips of one voice and one of another: the other is named; one voice alone: none."""
    own = [portable.embed(speak(text, MEN[0])).vector for text in ENROL]
    other = portable.embed(speak(ENROL[1], WOMEN[0])).vector
    assert all(v is not None for v in own) and other is not None
    assert odd_clip_out(own) is None  # type: ignore[arg-type]
    assert odd_clip_out([own[0], other, own[1], own[2]]) == 1  # type: ignore[list-item]
    assert odd_clip_out([own[0], other]) == 1  # type: ignore[list-item]

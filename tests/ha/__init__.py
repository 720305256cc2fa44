"""Tests through Home Assistant (real components, the real bundled encoder)."""

"""The parts of the memory engine (engine/engine.py is their table of contents)."""

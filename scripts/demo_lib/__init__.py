"""The demo's pieces: start a real hass, provision a household, play the cases (scripts/demo)."""

"""Constants of the development-only satellites integration (never shipped)."""

from typing import Final

DOMAIN: Final = "memory_dev"

# (identifier, device name): one satellite-like device per demo room. The demo
# (or the user, under scripts/develop) puts each device into its area.
SATELLITES: Final = (
    ("kitchen_satellite", "Kitchen satellite"),
    ("hall_satellite", "Hall satellite"),
)

"""The screens the browser tests open pages on (a module of its own: a test that imports them by the name
``conftest`` could get another directory's conftest, whichever came first on ``sys.path``)."""
from __future__ import annotations

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

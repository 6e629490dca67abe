"""The whole suite runs with the machine's zone set to UTC, whatever the developer's is.

Clocks count in UTC and show the venue's time (``dipclock.venuetime``); an event without
a ``timezone`` takes the machine's (``dipclock.eventfiles.machine_zone``). Pinning it
here makes every expected "10:17" the same on every machine; the time-zone tests name
their zones. Child processes (a hub, a kiosk) inherit it.
"""

from __future__ import annotations

import os
import time

os.environ["TZ"] = "UTC"
time.tzset()

"""The registry of sandbox modes: ``--sandbox``'s choices and the object each name stands for.

A run's mode is chosen once, before any kernel (:func:`choose`, from
:func:`.run_settings.settle_run`): ``auto`` takes the strongest automatic mode that works here,
probing each once, and says why when it does not take the first. Every later step asks that
object (:class:`.sandbox.SandboxMode`); a report records its mode's name, and :func:`named` gives
the object whose words the report states. A new mode is a subclass and one entry in :data:`MODES`.
"""

from __future__ import annotations

import functools
import sys

from .bubblewrap import Bubblewrap
from .sandbox import NoIsolation, SandboxMode, SandboxUnavailable
from .unprivileged_user import UnprivilegedUser

MODES: dict[str, type[SandboxMode]] = {mode.name: mode for mode in (Bubblewrap, UnprivilegedUser, NoIsolation)}
"""Every mode by name, strongest first."""
AUTO = "auto"
CHOICES = (AUTO, *MODES)
"""``--sandbox``'s choices: ``auto`` picks the strongest automatic mode that works here."""


@functools.cache
def named(name: str) -> SandboxMode | None:
    """The mode a report names, as this machine runs it (None for a name no mode has)."""
    mode = MODES.get(name)
    return mode.configured() if mode else None


@functools.cache
def choose(name: str) -> SandboxMode:
    """The mode to run for ``--sandbox name`` (``auto``: the strongest that works); raises
    :class:`.sandbox.SandboxUnavailable` saying why the requested one does not work here."""
    if name not in CHOICES:
        raise ValueError(f"sandbox must be one of {', '.join(CHOICES)}, got {name!r}")
    reasons: dict[str, str | None] = {}
    for candidate in [n for n, mode in MODES.items() if mode.automatic] if name == AUTO else [name]:
        mode = named(candidate)
        reasons[candidate] = mode.unavailable()
        if reasons[candidate] is None:
            failed = "; ".join(f"{k} does not: {v}" for k, v in reasons.items() if v)
            if failed:  # never a weaker mode in silence
                print(f"sandbox: {candidate}, the strongest that works here ({failed})", file=sys.stderr, flush=True)
            return mode
    raise SandboxUnavailable("no sandbox works here: " + "; ".join(f"{k}: {v}" for k, v in reasons.items())
                             + " (grade trusted notebooks only with --sandbox none)")


def forget() -> None:
    """Forget what was learnt of this machine's modes (for a caller that changed the machine)."""
    named.cache_clear()
    choose.cache_clear()

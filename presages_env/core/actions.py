"""Validation of an agent's action, shared by every entry point that applies one."""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.core.validation import exact_int


def legal_actions(mask: np.ndarray) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask)]


def check_action(action: Any, mask: np.ndarray, describe=None) -> int:
    """Return ``action`` as an ``int`` if ``mask`` allows it, else raise a clear error.

    ``describe(action) -> str`` names actions in the message (the game's ``action_label``).
    Raises ``TypeError`` for a non-integer and ``ValueError`` for an out-of-range or
    illegal action; nothing is applied in either case.
    """
    if type(action) is int and 0 <= action < len(mask) and mask[action]:
        return action  # the common case, a plain int the mask allows: nothing to convert
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()

    def listing() -> str:
        legal = legal_actions(mask)
        if describe is None:
            return str(legal)
        return ", ".join(f"{a} ({describe(a)})" for a in legal)

    try:
        action = exact_int(action, "an action")
    except TypeError:
        raise TypeError(
            f"an action is an int in [0, {len(mask)}), got {type(action).__name__} {action!r}; "
            f"legal actions: {listing()}"
        ) from None
    if not 0 <= action < len(mask):
        raise ValueError(
            f"action {action} is not legal: out of range [0, {len(mask)}); "
            f"legal actions: {listing()}"
        )
    if not mask[action]:
        name = f" ({describe(action)})" if describe is not None else ""
        raise ValueError(f"action {action}{name} is not legal now; legal actions: {listing()}")
    return action

"""Placeholder (untracked in this worktree): the real validator lands on main."""


def validate_state(state) -> None:
    """Header checks only (core)."""

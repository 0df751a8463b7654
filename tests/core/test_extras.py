"""The test helpers' own logic: the newest local PostgreSQL is found by version number."""

from __future__ import annotations

import glob
import os
import shutil

import extras


def test_the_newest_postgresql_is_picked_by_number_not_by_text(monkeypatch):
    """As text "9" sorts after "16": the old PostgreSQL 9 was picked over 16."""
    folders = [f"/usr/lib/postgresql/{v}/bin" for v in ("9", "16", "12")]
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(glob, "glob", lambda pattern: list(folders))
    monkeypatch.setattr(os.path, "exists", lambda path: True)
    assert extras.postgres_bin() == "/usr/lib/postgresql/16/bin"

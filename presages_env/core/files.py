"""Files from and for outside: JSON parsed within bounds, text written whole or not at all.

A JSON document from a user (a game record, a metadata file) can be crafted: nested deep
enough to exhaust the parser's recursion (``json.loads`` raises ``RecursionError``), huge,
or holding ``NaN``/``Infinity`` (not JSON numbers), integers of thousands of digits and
duplicate keys. :func:`parse_json` refuses all of these with a ``ValueError`` before any
caller sees the data; the caller then checks the exact structure it expects.
:func:`write_text_atomically` encodes everything first and replaces the file in one rename,
so a failure never leaves an empty or half-written file.

Every file a loader reads (records, checkpoints, configs, exported data) is opened with
:func:`open_regular`: only a regular file, found so by ``os.stat`` before it is opened and by
``fstat`` on the opened descriptor (opened without waiting, so a named pipe swapped in
between is not waited for). A folder, a named pipe, a socket or a device (``/dev/zero``,
through a symbolic link or not) is refused at once with a ``ValueError`` naming the path,
never read without end or waited on; a missing file is still ``FileNotFoundError``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import secrets
import stat
from collections import Counter
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO

from presages_env.core.validation import check_text

# A JSON string literal, escapes included; one left open runs to the end of the text, so the
# match never fails and scanning stays linear whatever the input.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
MAX_KEY = 200  # characters of an object key
MAX_INT_DIGITS = 64  # far more than any 64-bit value; longer ones are refused, not parsed


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``, counted without recursion
    (strings skipped), so that it is safe on any input."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def parse_json(text: str | bytes, what: str, max_bytes: int, max_depth: int) -> Any:
    """The value of the JSON document ``text`` (UTF-8 when bytes), refused with a
    ``ValueError`` naming ``what`` if it is longer than ``max_bytes``, nested deeper than
    ``max_depth``, not JSON, or holds a non-finite number, an integer of more than
    :data:`MAX_INT_DIGITS` digits, a duplicate key or a key that is not valid text.
    Strings inside are the caller's to check (:func:`check_text`)."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise ValueError(f"{what} is {len(text)} bytes, more than the {max_bytes} allowed")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"{what} is not UTF-8 text: {err}") from None
    if not isinstance(text, str):
        raise TypeError(f"{what} must be JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > max_bytes:
        raise ValueError(f"{what} is {len(text)} characters, more than the {max_bytes} allowed")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise ValueError(f"{what} is nested {depth} deep; at most {max_depth} is allowed")
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_short_int,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as err:
        raise ValueError(f"{what} is not JSON: {err}") from None


def read_json(path: str | Path, what: str, max_bytes: int, max_depth: int) -> Any:
    """:func:`parse_json` of the regular file at ``path`` (:func:`read_regular`); ``what``
    (``"the record"``, say) and the path name it in any refusal."""
    data = read_regular(path, what, max_bytes)
    return parse_json(data, f"{what} {path}", max_bytes, max_depth)


# What a path that is not a regular file is, for a refusal, by its ``stat`` mode.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def check_regular(
    status: os.stat_result, path: str | Path, what: str, max_bytes: int | None = None
) -> None:
    """Refuse (``ValueError`` naming ``what`` and ``path``) a ``stat`` result that is not a
    regular file's, or, where ``max_bytes`` is given, one of more bytes."""
    if not stat.S_ISREG(status.st_mode):
        kind = next((kind for test, kind in _KINDS if test(status.st_mode)), "another kind of file")
        raise ValueError(f"{what} {path} is {kind}, not a regular file")
    if max_bytes is not None and status.st_size > max_bytes:
        raise ValueError(
            f"{what} {path} is {status.st_size:,} bytes, more than the {max_bytes:,} allowed"
        )


def open_regular(path: str | Path, what: str, max_bytes: int | None = None) -> BinaryIO:
    """The regular file at ``path`` open for reading in binary; anything else (see the
    module's docstring) and, where ``max_bytes`` is given, a larger file are refused by
    :func:`check_regular` before it is opened and again once it is."""
    if "\0" in str(path):
        raise ValueError(f"{what} {str(path)!r} holds a NUL character")
    check_regular(os.stat(path), path, what, max_bytes)
    # O_NONBLOCK: a named pipe put there since the check opens at once instead of waiting
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        check_regular(os.fstat(descriptor), path, what, max_bytes)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: str | Path, what: str, max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path`` (:func:`open_regular`), at most
    ``max_bytes`` of them: a file grown past them since it was checked is refused too."""
    with open_regular(path, what, max_bytes) as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ValueError(f"{what} {path} is more than the {max_bytes:,} bytes allowed")
    return data


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: encoded first (a ``ValueError``
    for text that cannot be), written to a temporary file in the same folder, then renamed
    over ``path``; on any failure ``path`` is left as it was and nothing else remains."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"cannot write {path}: the text is not valid Unicode ({err})") from None
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        with open(temporary, "xb") as file:  # a new file, with the usual permissions
            file.write(data)
        os.replace(temporary, path)
    except OSError as err:  # naming the caller's path: the temporary file is ours alone
        raise OSError(err.errno, err.strerror, str(path)) from None
    finally:
        with contextlib.suppress(OSError):  # its folder may be gone, or never was
            temporary.unlink(missing_ok=True)


RUNS = Path("runs")  # where the command line writes when not told where (git-ignored here)


def in_runs(name: str) -> Path:
    """``runs/<name>`` under the current folder, made if missing: where ``play`` and
    ``replay`` write their files by default, out of the way of ``git status``."""
    RUNS.mkdir(exist_ok=True)
    return RUNS / name


def check_output_path(path: str | Path, what: str) -> Path:
    """``path`` if a file can be written there: refused with a ``ValueError`` naming it when
    its folder is missing or not writable, or it is a folder or a device. Checked before
    long work (a game played) whose result would otherwise be lost at the end."""
    path = Path(path)
    if "\0" in str(path):
        raise ValueError(f"{what} {str(path)!r} holds a NUL character")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: its folder {folder} does not exist")
    if path.exists() and not path.is_file():
        raise ValueError(f"{what} {path} is a folder or a device, not a file")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{what} {path}: its folder {folder} is not writable")
    return path


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _short_int(literal: str) -> int:
    if len(literal) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(literal)} digits; at most {MAX_INT_DIGITS} are read")
    return int(literal)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ValueError(f"the number {literal[:40]} is too large")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        counts = Counter(key for key, _ in pairs)
        twice = next(key for key, count in counts.items() if count > 1)
        raise ValueError(f"the key {twice[:MAX_KEY]!r} appears twice in one object")
    for key in data:
        check_text(key, "a key", MAX_KEY)
    return data

#!/usr/bin/env bash
# Build the wheel, install it alone in a fresh venv (no torch, no Ray) and run the smoke test
# from outside the source tree, so only what the wheel ships is importable.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# The build runs in the dev venv, which holds setuptools (the dev extra): without build
# isolation and without an index, building fetches nothing (a fetch could fail the run).
BUILD_PYTHON="${BUILD_PYTHON:-.venv/bin/python}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$PYTHON" -m venv "$work/venv"
mkdir "$work/src"  # build from a copy: the build leaves nothing in the work tree
cp -r pyproject.toml README.md presages_env "$work/src/"
"$BUILD_PYTHON" -m pip wheel --quiet --no-deps --no-build-isolation --no-index \
    --wheel-dir "$work/dist" "$work/src"
"$work/venv/bin/python" -m pip install --quiet --no-compile "$work"/dist/presages_env-*.whl
cp .ci/wheel_smoke.py "$work/"
cd "$work" && "$work/venv/bin/python" wheel_smoke.py

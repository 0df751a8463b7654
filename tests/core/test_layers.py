"""The package's layers, read from its imports (every one, those inside functions and
behind ``TYPE_CHECKING`` too): a module imports only from its own layer and those below.

core → games → the package's API (``presages_env``) and records → agents and the text
agents → evaluation and training → integrations, ui and the lab → the fuzzing and the
command line."""

from __future__ import annotations

import ast
from pathlib import Path

import presages_env

PACKAGE = Path(presages_env.__file__).parent
LAYERS = {
    "core": 0,
    "games": 1,
    "__init__": 2,
    "records": 2,
    "agents": 3,
    "evaluation": 4,
    "training": 4,
    "integrations": 5,
    "openspiel": 5,
    "rllib": 5,
    "ui": 5,
    "text": 3,
    "lab": 5,
    "fuzzing": 6,
    "__main__": 6,
}


def part_of(module: str) -> str:
    """The top-level part of the package a dotted module name is in."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported(path: Path, package_dir: Path = PACKAGE) -> list[tuple[int, str]]:
    """``(line, module)`` of each of ``presages_env``'s modules ``path`` imports."""
    module = ".".join(path.relative_to(package_dir.parent).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(p for p in (base, node.module or "") if p)
            found.append((node.lineno, name))
    return [(line, name) for line, name in found if name.split(".")[0] == "presages_env"]


def upward_imports() -> list[str]:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = part_of(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        for line, name in imported(path):
            there = part_of(name)
            if LAYERS[there] > LAYERS[here]:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {here} imports {name}")
    return wrong


def test_every_part_of_the_package_has_a_layer():
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()}
    python = {p for p in parts if (PACKAGE / p).is_dir() and any((PACKAGE / p).glob("*.py"))}
    python |= {p.stem for p in PACKAGE.glob("*.py")}
    assert python == set(LAYERS)


def test_no_layer_imports_a_higher_one():
    """In particular the core imports no game (it is handed the game, or a resolver from
    the registry), and ``presages_env.register_envs`` does not reach up into training."""
    assert upward_imports() == []


def test_the_scan_finds_an_upward_import_even_inside_a_function(tmp_path):
    fake = tmp_path / "presages_env"
    (fake / "core").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "core" / "__init__.py").write_text("")
    (fake / "core" / "x.py").write_text(
        "def f():\n    from presages_env.games import get_game\n    from . import y\n"
    )
    assert imported(fake / "core" / "x.py", fake) == [
        (2, "presages_env.games"),
        (3, "presages_env.core"),
    ]

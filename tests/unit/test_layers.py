"""The engine is the pure game, read from the source with `ast`: no web framework, database, task
queue, clock or global random. That the service's layers point one way is import-linter's contract
in pyproject.toml (`lint-imports`, run by `make test`); here, that every package stands in it."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from importlinter.api import read_configuration

SERVICE = Path(__file__).resolve().parents[2] / "service"

# Top-level modules the engine may not import (or anything under them).
ENGINE_FORBIDDEN_MODULES = ("flask", "flask_smorest", "webargs", "psycopg", "psycopg_pool", "celery", "kombu", "time")
# The clock, however it is reached: `datetime.now()`, `datetime.datetime.utcnow()`, `date.today()`.
ENGINE_FORBIDDEN_NAMES = frozenset({"datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
                                    "datetime.date.today", "time.time", "time.monotonic"})
# What the random module may lend the engine: the classes whose instances carry their own state. An
# instance handed in by the caller is the engine's only source of chance; the module's functions
# (random.random, random.shuffle, ...) draw from one hidden global generator.
RANDOM_CLASSES = frozenset({"Random", "SystemRandom"})

def _module_name(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(path: Path) -> str:
    module = _module_name(path)
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imported(node: ast.ImportFrom, path: Path) -> str:
    """The absolute name of the module an ImportFrom reads from (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = _package_of(path).split(".")
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(path: Path, source: str | None = None) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, at any depth (a function's too);
    `from package import name` gives `package.name` as well, which may be a module."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _imported(node, path)
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> the absolute name it was imported as."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _dotted(node: ast.expr, bound: dict[str, str]) -> str | None:
    """`a.b.c` as the absolute dotted name it refers to, when it starts from an imported name."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in bound:
        return None
    return ".".join([bound[node.id], *reversed(attrs)])


def engine_violations(path: Path, source: str | None = None) -> list[str]:
    """What in one engine file reaches for the web, the database, the task queue, the clock or the
    global random."""
    text = path.read_text(encoding="utf-8") if source is None else source
    found = []
    for line, module in imports(path, text):
        top = module.partition(".")[0]
        if top in ENGINE_FORBIDDEN_MODULES:
            found.append(f"{path.relative_to(SERVICE.parent)}:{line} imports {module}")
        elif top == "random" and module != "random" and module.partition(".")[2] not in RANDOM_CLASSES:
            found.append(f"{path.relative_to(SERVICE.parent)}:{line} imports {module} (the global random's)")
    tree = ast.parse(text)
    bound = _aliases(tree)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    random_classes_used = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute | ast.Name) or id(node) in inner:
            continue   # only whole names: `random.Random`, not its `random`
        name = _dotted(node, bound)
        if name is None:
            continue
        if name in ENGINE_FORBIDDEN_NAMES:
            found.append(f"{path.relative_to(SERVICE.parent)}:{node.lineno} uses {name}")
        elif name == "random" or (name.startswith("random.") and name.split(".")[1] not in RANDOM_CLASSES):
            found.append(f"{path.relative_to(SERVICE.parent)}:{node.lineno} uses {name} (the global random)")
        elif name.startswith("random."):
            random_classes_used = True
    if "random" in bound.values() and not random_classes_used:
        found.append(f"{path.relative_to(SERVICE.parent)} imports random and uses none of its generator classes")
    return sorted(set(found))


def _sources(package: str) -> list[Path]:
    return sorted((SERVICE / package).rglob("*.py"))


def test_the_engine_has_no_web_database_queue_clock_or_global_random():
    violations = [v for path in _sources("engine") for v in engine_violations(path)]
    assert violations == []


def test_every_package_stands_in_a_layer():
    """A new package fails here until pyproject.toml's layers contract places it."""
    packages = {p.stem if p.suffix == ".py" else p.name for p in SERVICE.iterdir()
                if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    contract, = (options for options in read_configuration(str(SERVICE.parent / "pyproject.toml"))["contracts_options"]
                 if options["type"] == "layers")
    layered = [name.strip() for layer in contract["layers"] for name in re.split(r"[:|]", layer)]
    assert sorted(layered) == sorted(set(layered)), "a package stands in two layers"
    assert packages ^ set(layered) == set()


# The checks themselves, on sources written to break them: a check that found nothing because it
# could not see would pass the tests above.
ENGINE_FILE = SERVICE / "engine" / "games" / "canberra" / "example.py"


@pytest.mark.parametrize("source", [
    "import flask",
    "from flask import g",
    "import psycopg.rows",
    "from psycopg_pool import ConnectionPool",
    "from celery import shared_task",
    "import time",
    "from time import monotonic",
    "def later():\n    import time\n    return time.time()",
    "import random",
    "import random as r\nr.shuffle([])",
    "from random import shuffle",
    "from random import random as draw",
    "from datetime import datetime\nnow = datetime.now()",
    "import datetime\nstamp = datetime.datetime.utcnow()",
    "import datetime as dt\nday = dt.date.today()",
    "from datetime import date\nday = date.today",
])
def test_the_engine_check_sees(source):
    assert engine_violations(ENGINE_FILE, source)


@pytest.mark.parametrize("source", [
    "import secrets",
    "from random import Random\n\ndef deal(rng: Random) -> float:\n    return rng.random()",
    "import random\n\ndef deal(rng: random.Random) -> float:\n    return rng.random()",
    "from datetime import datetime, timezone\n\ndef at(when: datetime) -> datetime:\n"
    "    return when.astimezone(timezone.utc)",
    "from ...shoe import RandomSource",
])
def test_the_engine_check_lets_pass(source):
    assert engine_violations(ENGINE_FILE, source) == []

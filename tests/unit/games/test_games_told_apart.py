"""Outside the games themselves nothing in the service tells the games apart: every place that shows or
drives a game asks the table's game family (service.games) instead.

What counts as telling the games apart, in the service's code (Python and the console's templates):
- a choice that mentions a game: the test of an `if`, `elif`, `while`, conditional expression,
  comprehension filter or assert, and any comparison, naming a game or a thing only one game has
  (`if "banker" in result`, `table.game == "traditional"`, `{% if state.banker %}`);
- a type check against a game's class (`isinstance(rules, CanberraRules)`);
- a mapping keyed by a game's name (`{"canberra": ..., "traditional": ...}`);
- one module bringing in two games' code (it can only be there to choose between them).
A game's words are its names and what only it has: canberra, traditional, shoot, banker.

What does not: comments and docstrings; the help, descriptions and messages a person reads (a
string that is more than a game's name); a default rules file's name; fields that describe one
game's shape where they are declared (the API's schemas list every game's fields for the OpenAPI
document, which fields a response holds is the family's); and code that is one game's own, listed
below with why. There, choices within the game (Shoot Pontoon's kitty) are the game's business,
but naming another game is still telling them apart."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
SERVICE = ROOT / "service"

# A game's words, and the game each belongs to.
GAME_WORDS = {"canberra": "canberra", "traditional": "traditional", "shoot": "traditional", "banker": "traditional"}
GAME_NAMES = ("canberra", "traditional")
WORD = re.compile("|".join(GAME_WORDS), re.IGNORECASE)

# The games themselves: the engine's game packages, and the families with their registration list
# and their own parts of the console's pages.
GAMES = ("service/engine/games/", "service/games/")

# One game's own code outside those, each reached only through its family or its own endpoints,
# where it makes choices within its game (a game's own modules that make none need no entry).
ONE_GAMES_OWN = {
    "service/traditional/": ("traditional", "the player-banked table's bank, kitty and pack"),
    "service/analysis/": ("canberra", "the strategy and house-edge analyses, of the house-banked game alone "
                                      "(and its European blackjack variant)"),
    "service/ledger/transfers.py": ("traditional", "the player-banked game's transfers as ledger rows"),
}

# A document's shape checked where it is declared, naming one game's field: (file, the check's
# expression as Python writes it back) and why it is not a choice between games.
DECLARED_SHAPES = {
    ("service/api/schemas/rounds.py", "data.get('banker_place') is not None and data.get('players') is None"):
        "the round-opening body's two shapes, as its OpenAPI one-of declares them: a banker's chair comes "
        "only with players",
    ("service/engine/transcript.py", "'shoot' in raw"):
        "the transcript format's name for a split's shoot bet, read as the decision's amount",
}


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _own_game(relative: str) -> str | None:
    for prefix, (game, _why) in ONE_GAMES_OWN.items():
        if relative == prefix or (prefix.endswith("/") and relative.startswith(prefix)):
            return game
    return None


def _games_named(text: str) -> set[str]:
    return {GAME_WORDS[match.group(0).lower()] for match in WORD.finditer(text)}


def _names_in(node: ast.AST) -> list[str]:
    """The identifiers and short strings (a game's name as a key or a value, not a sentence) in an expression."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.append(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.append(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and " " not in sub.value:
            found.append(sub.value)
    return found


def python_findings(source: str, own_game: str | None = None, relative: str = "") -> list[str]:
    """Where this module tells the games apart (line: what), as the module docstring defines it."""
    tree = ast.parse(source)
    findings: list[str] = []

    def told(node: ast.AST, what: str, expression: ast.AST) -> None:
        if (relative, ast.unparse(expression)) in DECLARED_SHAPES or any(
                (relative, ast.unparse(outer)) in DECLARED_SHAPES for outer in _enclosing_tests.get(node, ())):
            return
        games = set().union(*(_games_named(name) for name in _names_in(expression)))
        if games and (own_game is None or games - {own_game}):
            findings.append(f"{node.lineno}: {what} names {', '.join(sorted(games))}")

    # A comparison inside a declared shape's check is part of it.
    _enclosing_tests: dict[ast.AST, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            for sub in ast.walk(node.test):
                _enclosing_tests.setdefault(sub, []).append(node.test)
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            told(node, "a choice", node.test)
        elif isinstance(node, ast.comprehension):
            for condition in node.ifs:
                told(condition, "a filter", condition)
        elif isinstance(node, ast.Compare):
            told(node, "a comparison", node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance",
                                                                                                 "issubclass"):
            told(node, "a type check", node.args[1] if len(node.args) > 1 else node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower() in GAME_NAMES:
                    findings.append(f"{key.lineno}: a mapping keyed by the game {key.value!r}")
        elif isinstance(node, ast.ImportFrom):
            imported |= _games_named(node.module or "") | set().union(
                *(_games_named(alias.name) for alias in node.names))
        elif isinstance(node, ast.Import):
            imported |= set().union(*(_games_named(alias.name) for alias in node.names))
    if len(imported - ({own_game} if own_game else set())) > (0 if own_game else 1):
        findings.append(f"0: imports the code of {', '.join(sorted(imported))}")
    return findings


_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
# The tests of a template's choices: {% if %} and {% elif %}, a for loop's filter, an inline if.
_TEMPLATE_CHOICES = (re.compile(r"\{%-?\s*(?:el)?if\b(.*?)-?%\}", re.DOTALL),
                     re.compile(r"\{%-?\s*for\b[^%]*?\bif\b(.*?)-?%\}", re.DOTALL),
                     re.compile(r"\{\{-?[^}]*?\bif\b(.*?)-?\}\}", re.DOTALL))


def template_findings(source: str) -> list[str]:
    """Where a template tells the games apart: a choice of what to show that mentions a game."""
    text = _COMMENT.sub(lambda match: "\n" * match.group(0).count("\n"), source)
    findings = []
    for pattern in _TEMPLATE_CHOICES:
        for match in pattern.finditer(text):
            games = _games_named(match.group(1))
            if games:
                line = text.count("\n", 0, match.start()) + 1
                findings.append(f"{line}: a choice names {', '.join(sorted(games))}")
    return findings


def _service_files() -> list[Path]:
    return sorted(path for path in SERVICE.rglob("*") if path.suffix in (".py", ".html")
                  and not _relative(path).startswith(GAMES))


def test_nothing_outside_the_games_tells_them_apart():
    told = {}
    for path in _service_files():
        relative = _relative(path)
        source = path.read_text(encoding="utf-8")
        findings = (python_findings(source, _own_game(relative), relative) if path.suffix == ".py"
                    else template_findings(source))
        if findings:
            told[relative] = findings
    assert not told, ("these tell the games apart: ask the table's game family (service.games) instead\n"
                      + "\n".join(f"{path}:{finding}" for path, findings in told.items() for finding in findings))


def test_each_games_own_code_is_there_and_is_of_one_game():
    for prefix, (game, why) in ONE_GAMES_OWN.items():
        assert (ROOT / prefix).exists(), f"{prefix} ({why}) is gone: take it off the list"
        assert game in GAME_NAMES


def test_each_declared_shape_is_still_there():
    for (relative, expression), why in DECLARED_SHAPES.items():
        tests = {ast.unparse(node.test) for node in ast.walk(ast.parse((ROOT / relative).read_text(encoding="utf-8")))
                 if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert))}
        assert expression in tests, f"{relative} no longer checks {expression} ({why}): take it off the list"


@pytest.mark.parametrize("code", [
    'if rules.game == "canberra":\n    pass',
    'outcome = "a" if "banker" in result else "b"',
    "if isinstance(rules, CanberraRules):\n    pass",
    'NAMES = {"canberra": "Pontoon", "traditional": "Traditional"}',
    "from .engine.games.canberra import CanberraRound\nfrom .engine.games.traditional import TraditionalRound",
    "cards = [hand for hand in hands if hand.shoot]",
])
def test_the_check_finds_a_game_told_apart(code):
    assert python_findings(code)


@pytest.mark.parametrize("code", [
    '"""Counts the banker\'s hand too."""\n# traditional Pontoon has a banker\nx = 1',
    'DESCRIPTION = "Shoot Pontoon: the kitty now"',
    'def run(rules: str = "canberra") -> None:\n    pass',
    "banker = ma.fields.Nested(BankerSchema)",
    "if family.virtual_shoe_deals:\n    pass",
])
def test_the_check_lets_a_mention_be(code):
    assert not python_findings(code)


def test_the_check_finds_a_template_choosing_a_game():
    assert template_findings("{% if state.banker %}<h4>Banker</h4>{% endif %}")
    assert template_findings('{{ h.shoot|money if h.shoot else "" }}')
    assert not template_findings("{# the banker's hand #}<h4>Banker</h4>{% include game_view(table.game, 'x') %}")


def test_a_games_own_code_may_choose_within_its_game_but_not_name_another():
    assert not python_findings("if rules.shoot:\n    pass", own_game="traditional")
    assert python_findings('if rules.game == "canberra":\n    pass', own_game="traditional")

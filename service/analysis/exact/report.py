"""The exact analysis as a plain dict (what `--json` prints and the cache keeps) and as text."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import math
import os
import time
from dataclasses import replace
from typing import Any

from ...engine.games.canberra.paytable import Paytable
from ...engine.games.canberra.rules import CanberraRules
from ..side_bets import side_bets
from .blackjack import GameValues, HandValues, analyse_even_money, even_money_gaps, is_even_money
from .canberra_game import AfterDouble, CanberraValues, analyse_canberra
from .canberra_pay import DOUBLED_WIN_LINE, WIN_LINE
from .canberra_sweep import least_double, split_pontoon_cost
from .shoe import VALUE_RANKS

log = logging.getLogger(__name__)

# Bump when the recursion changes what it computes, so cached reports are not reused.
METHOD_VERSION = "5"
# Lines paid at even money on what was staked (a win, a doubled win): no bonus.
EVEN_MONEY_LINES = (WIN_LINE, DOUBLED_WIN_LINE)
SPLIT_METHOD = ("a split hand's play knows how many hands were split so far (their pair cards are out of the "
                "shoe), not the other cards drawn to them")


def _hand_row(hand: HandValues) -> dict[str, Any]:
    row: dict[str, Any] = {"upcard": VALUE_RANKS[hand.upcard],
                           "cards": f"{VALUE_RANKS[hand.first]},{VALUE_RANKS[hand.second]}",
                           "probability": hand.probability}
    if hand.suits:
        row["suits"] = hand.suits
    row.update({decision: round(value, 9) for decision, value in hand.values.items()})
    row["best"] = hand.best
    return row


def _after_double_row(row: AfterDouble) -> dict[str, Any]:
    return {"upcard": VALUE_RANKS[row.upcard], "cards": f"{VALUE_RANKS[row.first]},{VALUE_RANKS[row.second]}",
            "double_card": VALUE_RANKS[row.card], "stand": round(row.stand, 9), "forfeit": row.forfeit,
            "best": row.best}


def _even_money_lines(game: GameValues, paytable: Paytable) -> list[dict[str, Any]]:
    # A Pontoon pushed by a dealer Pontoon is not paid: the line's chance counts paid ones.
    share = sum(h.probability * h.values[h.best] for h in game.hands if h.best == "pontoon")
    pays = paytable.pontoon.numerator / paytable.pontoon.denominator
    return [{"line": "pontoon", "probability": share / pays, "return_share": share}]


def _canberra_lines(game: CanberraValues) -> list[dict[str, Any]]:
    return [{"line": name, "probability": float(chance), "return_share": float(won)}
            for name, chance, won in zip(game.pay.names, game.line_chance, game.line_won)]


def as_dict(rules: CanberraRules, paytable: Paytable, game: GameValues | CanberraValues,
            seconds: float) -> dict[str, Any]:
    """The report: overall return, house edge, variance, the lines' shares and every hand's values."""
    expected, variance = game.expected_return, game.variance
    report: dict[str, Any] = {
        "rules": rules.name, "paytable": paytable.name, "method": "composition-dependent recursion off the top "
        "of a full shoe, one seat", "splits": SPLIT_METHOD,
        "return": expected, "house_edge": -expected, "house_edge_percent": -expected * 100,
        "variance": variance, "standard_deviation": variance ** 0.5,
    }
    if isinstance(game, CanberraValues):
        report["wager_cents"] = game.pay.wager
        report["lines"] = _canberra_lines(game)
        super_bonus = next(line for line in report["lines"] if line["line"] == "super_bonus")
        envy = paytable.super_bonus.envy if paytable.super_bonus else 0
        report["envy_per_extra_seat"] = super_bonus["probability"] * envy / game.pay.wager
        report["split_pontoon_cost"] = split_pontoon_cost(rules)
        least = least_double(rules, game.pay.wager)
        report["double_cents"] = {"double": game.pay.wager,
                                  **({"double_least": round(least * game.pay.wager)} if least < 1.0 else {})}
    else:
        report["lines"] = _even_money_lines(game, paytable)
    report["side_bets"] = side_bets(rules, paytable)
    report["hands"] = [_hand_row(h) for h in game.hands]
    if isinstance(game, CanberraValues) and game.after_double:
        report["after_double"] = [_after_double_row(row) for row in game.after_double]
    report["elapsed_seconds"] = seconds
    return report


def content_key(rules: CanberraRules, paytable: Paytable, wager: int | None = None) -> str:
    """Hash of everything the main game's analysis depends on: the rules, what the paytable pays on
    the main wager, the wager and the method. A paytable's name and version, the rules it names
    and its side bets (exact fractions, computed afresh) are left out, so a draft that pays as an
    analysed version does is answered from the cache."""
    paid = replace(paytable, name="", side_bets=(), measured_under="")
    text = json.dumps([METHOD_VERSION, repr(rules), repr(paid), wager])
    return hashlib.sha256(text.encode()).hexdigest()


# Where reports are cached unless the caller names a folder (Settings.analysis_cache does).
DEFAULT_CACHE_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), "run", "analysis")


def analyse(rules: CanberraRules, paytable: Paytable, wager: int | None = None,
            use_cache: bool = True, refresh: bool = False, cache_dir: str | None = None) -> dict[str, Any]:
    """The exact report for the rules and paytable, from the cache (in `cache_dir`, default
    DEFAULT_CACHE_DIR) when it holds this content.

    Bonus paytables are analysed at `wager` cents (default: the table minimum), since rounding
    and the super bonus's fixed prize depend on it. `refresh` computes the report afresh and
    replaces the cached one; `use_cache=False` neither reads nor writes the cache.
    """
    even_money = is_even_money(rules, paytable)
    wager = None if even_money else wager or rules.main_limits.minimum
    path = os.path.join(cache_dir or DEFAULT_CACHE_DIR, content_key(rules, paytable, wager) + ".json")
    if use_cache and not refresh and os.path.exists(path):
        with open(path, encoding="utf-8") as cached:
            report: dict[str, Any] = json.load(cached)
        report["paytable"] = paytable.name
        report["side_bets"] = side_bets(rules, paytable)
        return report
    started = time.perf_counter()
    game: GameValues | CanberraValues
    if even_money:
        game = analyse_even_money(rules, paytable)
    else:
        game = _canberra_or_refusal(rules, paytable, wager)
    report = as_dict(rules, paytable, game, time.perf_counter() - started)
    if use_cache:
        _keep(path, report)
    return report


def _canberra_or_refusal(rules: CanberraRules, paytable: Paytable, wager: int | None) -> CanberraValues:
    """Canberra's recursion, or a refusal naming what keeps each recursion from these rules."""
    try:
        return analyse_canberra(rules, paytable, wager)
    except ValueError as exc:
        raise ValueError(f"{exc}; nor, as a game of even-money wins, {even_money_gaps(rules, paytable)}") from None


def _keep(path: str, report: dict[str, Any]) -> None:
    """Write the report to the cache; a cache that cannot be written costs only the next request's time."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump(report, out)
        os.replace(temporary, path)
    except OSError as exc:
        log.warning("exact analysis not cached at %s: %s", path, exc)


def significant(value: float, digits: int = 4) -> str:
    """A figure in plain decimals with at least `digits` significant digits, however small
    (a one-in-a-million line keeps its digits instead of printing as 0.000001)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:.{digits}f}"
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), digits)
    return f"{value:.{decimals}f}"


def edge_words(house_edge_percent: float) -> str:
    """The house edge for a person: where the house loses, the player's edge it is."""
    if house_edge_percent < 0:
        return f"player's edge {-house_edge_percent:.5f}% (the house loses)"
    return f"house edge {house_edge_percent:.5f}%"


def as_text(report: dict[str, Any]) -> str:
    """The report for a person: the figures, then the strategy's values hand by hand."""
    lines = [f"Exact analysis of {report['rules']} with {report['paytable']} ({report['method']})",
             f"  return {report['return']:+.7f} per initial wager   {edge_words(report['house_edge_percent'])}",
             f"  variance {report['variance']:.4f}   standard deviation {report['standard_deviation']:.4f}",
             f"  splits: {report['splits']}"]
    if "wager_cents" in report:
        lines.append(f"  wager {report['wager_cents']} cents; envy is worth "
                     f"{significant(report['envy_per_extra_seat'])} wagers per extra seat dealt in")
    lines.append("  lines (probability: hands a round; share: winnings per initial wager):")
    for line in report["lines"]:
        lines.append(f"    {line['line']:<16} probability {significant(line['probability']):<14}"
                     f"share of the return {significant(line['return_share'])}")
    for name, bet in report["side_bets"].items():
        if bet["offered"]:
            lines.append(f"    {name:<16} side bet, {edge_words(bet['house_edge_percent'])} "
                         f"(exactly {bet['house_edge'].removeprefix('-')})")
    decisions: tuple[str, ...] = ("stand", "hit", "double", "double_least", "surrender", "split")
    if not any("double_least" in row for row in report["hands"]):
        decisions = tuple(d for d in decisions if d != "double_least")
    after = after_double_plays(report)
    if after:
        lines.append(f"  after a double, by the card it draws ({''.join(VALUE_RANKS)}): "
                     "S stand, F forfeit, . a total of 21 or more")
    lines.append(f"  {'up':<3}{'hand':<12}" + "".join(f"{d:>13}" for d in decisions) + "  best"
                 + ("    after a double" if after else ""))
    for row in report["hands"]:
        cells = "".join(f"{row[d]:>13.6f}" if d in row else f"{'':>13}" for d in decisions)
        if "pontoon" in row:
            cells = f"{'pontoon ' + format(row['pontoon'], '.6f'):>{13 * len(decisions)}}"
        hand = f"{row['cards']} {row.get('suits', '')}".strip()
        plays = after.get((row["upcard"], row["cards"]), "")
        lines.append(f"  {row['upcard']:<3}{hand:<12}{cells}  {row['best']:<8}  {plays}".rstrip())
    return "\n".join(lines) + "\n"


def after_double_plays(report: dict[str, Any]) -> dict[tuple[str, str], str]:
    """Per upcard and two-card hand, the play after a double by the card it draws, one letter each
    in rank order: S stand, F forfeit, '.' where the double's card makes 21 or more."""
    by_hand: dict[tuple[str, str], dict[str, str]] = {}
    for row in report.get("after_double", []):
        by_hand.setdefault((row["upcard"], row["cards"]), {})[row["double_card"]] = row["best"][0].upper()
    return {hand: "".join(plays.get(rank, ".") for rank in VALUE_RANKS) for hand, plays in by_hand.items()}


def as_csv(report: dict[str, Any]) -> str:
    """The strategy chart: every upcard and two-card hand, each decision's value and the best."""
    decisions = ("stand", "hit", "double", "double_least", "surrender", "split", "pontoon")
    after = after_double_plays(report)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("upcard", "cards", "suits", "probability", *decisions, "best", "after_double"))
    for row in report["hands"]:
        writer.writerow((row["upcard"], row["cards"], row.get("suits", ""), f"{row['probability']:.10f}",
                         *(f"{row[d]:.6f}" if d in row else "" for d in decisions), row["best"],
                         after.get((row["upcard"], row["cards"]), "")))
    return out.getvalue()

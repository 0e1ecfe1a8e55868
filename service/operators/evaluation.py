"""The house edge and RTP a paytable version's evaluation measures (and its approval keeps): the
exact analysis (service.analysis.exact), cached by content, or the simulation where the analysis
does not reach."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis.exact.report import EVEN_MONEY_LINES, analyse
from ..analysis.house_edge import compute
from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules
from ..games import family_of
from ..refusals import Invalid
from ..rules import RulesError, load_house_banked_rules
from .documents import NAME

# The simulation, for a paytable the exact analysis does not cover: a standard error of 0.1
# percentage points, about 2 million simulated rounds, a second or two.
PRECISION = 0.001
SEED = 20240601          # a fixed seed: the same document always gets the same figures
MAX_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class Evaluation:
    house_edge_percent: float
    rtp_percent: float
    detail: dict[str, Any]


def measuring_rules(paytable: Any) -> CanberraRules:
    """The house-banked rules the paytable names as its own (`measured_under`, the Canberra game's
    unless it says otherwise): what its figures are measured under. Invalid when they are none: a
    paytable no evaluation could measure is refused as it is submitted."""
    rules = None
    if NAME.fullmatch(paytable.measured_under):   # a file's stem: no version, no path
        try:
            rules = load_house_banked_rules(paytable.measured_under)
        except (RulesError, OSError):
            pass
    if rules is None or not family_of(rules).evaluates_paytables:
        raise Invalid(f"{paytable.name}: measured_under must name the house-banked rules it is dealt under, "
                      f"not {paytable.measured_under!r}", code="paytable_unmeasurable",
                      errors={"measured_under": ["a house-banked rules file in rules_config/"]})
    return rules


def evaluate_paytable(paytable: Any) -> Evaluation:
    """The paytable's figures under its measuring rules, at the table minimum, one seat: exact
    where the analysis covers the rules and paytable (a paytable analysed before is read from the
    cache at once), simulated otherwise. Seconds to a minute of numba: a worker's job
    (evaluation_jobs), never a web request's. Other errors propagate: figures that could not be
    had are no figures."""
    rules = measuring_rules(paytable)
    try:
        report = analyse(rules, paytable)
    except ValueError:
        # A rule or line the recursion does not yet cover (named in `pontoon analyse`): the
        # simulation measures every paytable the engine can deal.
        return _simulated(rules, paytable)
    return _exact(report)


def _exact(report: dict[str, Any]) -> Evaluation:
    """The exact report's figures; each line paid above even money with its chance a round, its
    winnings and what it adds to the RTP beyond an even-money win."""
    lines = [{"line": line["line"], "probability": line["probability"],
              "per_million_rounds": line["probability"] * 1e6, "return_share": line["return_share"],
              "contribution_percent": (line["return_share"] - line["probability"]) * 100}
             for line in report["lines"] if line["line"] not in EVEN_MONEY_LINES]
    detail = {"method": "exact", "rules": report["rules"], "paytable": report["paytable"],
              "wager_cents": report.get("wager_cents"), "seats": 1, "splits": report["splits"],
              "variance": report["variance"], "standard_deviation": report["standard_deviation"],
              "elapsed_seconds": report["elapsed_seconds"], "bonus_lines": lines,
              "side_bets": report["side_bets"]}
    house_edge = report["house_edge_percent"]
    return Evaluation(round(house_edge, 4), round(100 - house_edge, 4), detail)


def _simulated(rules: CanberraRules, paytable: Paytable) -> Evaluation:
    """The simulation at the table minimum, one seat, dealing to the cut card."""
    result = compute(rules, paytable, precision=PRECISION, seed=SEED, max_seconds=MAX_SECONDS)
    detail = {key: result[key] for key in ("rules", "paytable", "seats", "wager_cents", "shoe", "seed", "precision",
                                          "precision_reached", "rounds", "house_edge_se_percent",
                                          "elapsed_seconds", "bonus_lines", "side_bets") if key in result}
    detail["method"] = "simulation"
    return Evaluation(round(result["house_edge_percent"], 4), round(result["rtp_percent"], 4), detail)

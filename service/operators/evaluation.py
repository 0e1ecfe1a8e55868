"""The house edge and RTP recorded when a paytable version is approved: the analysis engineer's
simulation (service.analysis.house_edge.compute) at a precision that keeps approval to seconds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis.house_edge import compute
from ..games import family_of
from ..rounds.errors import Invalid
from ..rules import RulesError, load_house_banked_rules
from .documents import NAME

# A standard error of 0.1 percentage points: about 2 million simulated rounds, a second or two.
PRECISION = 0.001
SEED = 20240601          # a fixed seed: the same document always gets the same figures
MAX_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class Evaluation:
    house_edge_percent: float
    rtp_percent: float
    detail: dict[str, Any]


def evaluate_paytable(paytable: Any) -> Evaluation:
    """Simulate the paytable under the house-banked rules it names as its own (`measured_under`,
    the Canberra game's unless it says otherwise), at the table minimum, one seat, dealing to the
    cut card. Other errors propagate: an approval without its figures is not an approval."""
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
    result = compute(rules, paytable, precision=PRECISION, seed=SEED, max_seconds=MAX_SECONDS)
    detail = {key: result[key] for key in ("rules", "paytable", "seats", "wager_cents", "shoe", "seed", "precision",
                                          "precision_reached", "rounds", "house_edge_se_percent",
                                          "elapsed_seconds") if key in result}
    return Evaluation(round(result["house_edge_percent"], 4), round(result["rtp_percent"], 4), detail)

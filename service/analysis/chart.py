"""The derived strategy as a chart: rows of hands by upcard, as text, CSV and a PNG picture."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ..engine.cards import RANKS
from .model import (
    ACE,
    ACTION_LETTERS,
    ACTION_NAMES,
    DOUBLE,
    HIT,
    KIND_NAMES,
    SPLIT_ACE,
    SPLIT_HAND,
    STAND,
    SURRENDER,
    UNSPLIT,
    VALUES,
)
from .strategy import Strategy

LEGEND = "H hit, S stand, D double, R surrender, P split, F forfeit after a double, . never dealt"
# Picture colours by decision letter.
COLOURS = {"H": "#f4f1bb", "S": "#9bc1bc", "D": "#5ca4a9", "R": "#ed6a5a", "P": "#e6c79c", "F": "#c8553d",
           ".": "#ffffff"}


@dataclass(frozen=True)
class Row:
    section: str
    label: str
    cells: tuple[str, ...]     # one decision letter per upcard


def upcards(strategy: Strategy) -> list[str]:
    return [rank for rank in RANKS if strategy.model.counts[RANKS.index(rank)] > 0]


def _cards_label(first: int, last: int, cap: int) -> str:
    if last == cap:
        return f"{first}+ cards"
    return f"{first} cards" if first == last else f"{first}-{last} cards"


def rows(strategy: Strategy) -> list[Row]:
    """Every hand the calculation reached, grouped by kind, bonus cards, softness and total.

    Consecutive card counts with the same decisions against every upcard share one row.
    """
    u_index = [RANKS.index(u) for u in upcards(strategy)]
    out = _play_rows(strategy, u_index) + _pair_rows(strategy, u_index) + _after_double_rows(strategy, u_index)
    # Rows of one section together, sections in the order they first appear.
    first: dict[str, int] = {}
    for row in out:
        first.setdefault(row.section, len(first))
    return sorted(out, key=lambda row: first[row.section])


def _cells(strategy: Strategy, u_index: list[int], kind: int, n: int, total: int, soft: int,
           lid: int) -> tuple[str, ...]:
    """A hand's decision against each upcard ('.' where the calculation never reached it)."""
    return tuple(ACTION_LETTERS[strategy.play[u, kind, n, total, soft, lid]]
                 if (u, kind, n, total, soft, lid) in strategy.states else "." for u in u_index)


def _play_rows(strategy: Strategy, u_index: list[int]) -> list[Row]:
    """Hands by kind, bonus cards, softness and total; card counts that play alike share a row."""
    m = strategy.model
    out: list[Row] = []
    for kind in (UNSPLIT, SPLIT_HAND, SPLIT_ACE):
        hands = sorted({(lid, soft, total, n) for (u, k, n, total, soft, lid) in strategy.states if k == kind})
        groups: dict[tuple[int, int, int], list[int]] = {}
        for lid, soft, total, n in hands:
            groups.setdefault((lid, soft, total), []).append(n)
        for (lid, soft, total), counts in sorted(groups.items(),
                                                 key=lambda g: (g[0][0] != 0, g[0][0], g[0][1], g[0][2])):
            if lid:
                section = f"{KIND_NAMES[kind]} hands keeping a bonus"
                label = f"{m.bonus.describe(lid)} ({total})"
            else:
                section = f"{KIND_NAMES[kind]} hands, {'soft' if soft else 'hard'} totals"
                label = f"{'soft' if soft else 'hard'} {total}"
            counts.sort()
            start = counts[0]
            for i, n in enumerate(counts):
                cells = _cells(strategy, u_index, kind, n, total, soft, lid)
                if i + 1 < len(counts) and counts[i + 1] == n + 1 and \
                        _cells(strategy, u_index, kind, counts[i + 1], total, soft, lid) == cells:
                    continue    # the next count plays alike: the row goes on
                out.append(Row(section, f"{label}, {_cards_label(start, n, m.n_cap)}", cells))
                if i + 1 < len(counts):
                    start = counts[i + 1]
    return out


def _pair_rows(strategy: Strategy, u_index: list[int]) -> list[Row]:
    """Pairs: P where the pair is split (when the rules still allow it), else the hand's play."""
    out: list[Row] = []
    seen = set()
    for r, total, soft, lid in strategy.pair_hands:
        after = SPLIT_ACE if r == ACE else SPLIT_HAND
        for kind, section in ((UNSPLIT, "pairs, first split"), (after, "pairs, re-split")):
            if (kind, total, soft, lid) in seen or (kind == after and not strategy.may_resplit(r)):
                continue
            seen.add((kind, total, soft, lid))
            letters = []
            for u in u_index:
                if strategy.pair_split[u, kind, total, soft, lid]:
                    letters.append("P")
                elif (u, kind, 2, total, soft, lid) in strategy.states:
                    letters.append(ACTION_LETTERS[strategy.play[u, kind, 2, total, soft, lid]])
                else:
                    letters.append(".")
            if lid:
                label = strategy.model.bonus.describe(lid)
            elif VALUES[r] == 10:
                label = "ten-valued pair"
            else:
                label = f"{RANKS[r]}-{RANKS[r]}"
            out.append(Row(section, label, tuple(letters)))
    return out


def _after_double_rows(strategy: Strategy, u_index: list[int]) -> list[Row]:
    """Where the rules let a doubled hand forfeit: its decision by total after the double's card."""
    if not strategy.rules.forfeit_after_double:
        return []
    return [Row(f"after a double, {KIND_NAMES[kind]} hand", f"total {total}",
                tuple(ACTION_LETTERS[strategy.after_double[u, kind, total]] for u in u_index))
            for kind in (UNSPLIT, SPLIT_HAND) for total in range(4, 21)]


def text(strategy: Strategy) -> str:
    """The chart as a plain-text table."""
    ups = upcards(strategy)
    chart = rows(strategy)
    width = max(len(row.label) for row in chart) + 2
    lines = [f"Strategy for {strategy.rules.name} with {strategy.paytable.name}, "
             f"wager {strategy.model.wager} cents (derived by expected value)",
             f"Decisions by dealer upcard: {LEGEND}.",
             f"Calculated EV of a round: {strategy.estimate * 100:+.3f}% of the wager "
             "(total-dependent, shoe less the upcard; the simulation measures the exact figure)."]
    section = None
    for row in chart:
        if row.section != section:
            section = row.section
            lines.append("")
            lines.append(section[:1].upper() + section[1:])
            lines.append(" " * width + " ".join(u.rjust(2) for u in ups))
        lines.append(row.label.ljust(width) + " ".join(c.rjust(2) for c in row.cells))
    return "\n".join(lines) + "\n"


def csv_text(strategy: Strategy) -> str:
    """Every hand against every upcard with its decision and the expected value of each option."""
    m = strategy.model
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    options = (HIT, STAND, DOUBLE, SURRENDER)
    out.writerow(["upcard", "hand", "cards", "total", "soft", "bonus_cards", "decision",
                  *(f"ev_{ACTION_NAMES[a]}" for a in options), "ev_split", "ev_forfeit"])
    for (u, kind, n, total, soft, lid), evs in sorted(strategy.states.items()):
        cards = f"{n}+" if n == m.n_cap else str(n)
        decision = ACTION_NAMES[strategy.play[u, kind, n, total, soft, lid]]
        out.writerow([RANKS[u], KIND_NAMES[kind], cards, total, bool(soft), m.bonus.describe(lid), decision,
                      *(_ev(evs.get(a)) for a in options), "", ""])
    for (u, kind, total, soft, lid), evs in sorted(strategy.pairs.items()):
        decision = "split" if strategy.pair_split[u, kind, total, soft, lid] else "no split"
        out.writerow([RANKS[u], f"{KIND_NAMES[kind]} pair", 2, total, bool(soft), m.bonus.describe(lid), decision,
                      "", "", "", "", _ev(evs["split"]), ""])
    for (u, kind, total), evs in sorted(strategy.doubles.items()):
        decision = ACTION_NAMES[strategy.after_double[u, kind, total]]
        out.writerow([RANKS[u], f"{KIND_NAMES[kind]} after double", "", total, "", "", decision,
                      "", _ev(evs["stand"]), "", "", "", _ev(evs["forfeit"])])
    return buf.getvalue()


def _ev(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def png(strategy: Strategy, path: str) -> None:
    """The chart as a colour-coded picture: one image for the colours, a letter in each cell. Drawn on
    a Figure of its own (no pyplot), so no GUI backend or global figure state is involved."""
    ups = upcards(strategy)
    letters = list(COLOURS)
    labels: list[str] = []
    grid: list[tuple[str, ...] | None] = []
    section = None
    for row in rows(strategy):
        if row.section != section:
            section = row.section
            labels.append(section.upper())
            grid.append(None)
        labels.append(row.label)
        grid.append(row.cells)
    codes = np.full((len(grid), len(ups)), np.nan)
    for y, cells in enumerate(grid):
        if cells is not None:
            codes[y] = [letters.index(c) for c in cells]
    height = 1.2 + 0.16 * len(labels)
    fig = Figure(figsize=(2.6 + 0.36 * len(ups), height))
    left, top, bottom = 1.9 / fig.get_figwidth(), 1 - 0.6 / height, 0.45 / height
    ax = fig.add_axes((left, bottom, 0.97 - left, top - bottom))
    cmap = ListedColormap([COLOURS[k] for k in letters])
    cmap.set_bad("white")
    ax.imshow(np.ma.masked_invalid(codes), cmap=cmap, vmin=-0.5, vmax=len(letters) - 0.5, aspect="auto",
              interpolation="nearest")
    for y, cells in enumerate(grid):
        for x, letter in enumerate(cells or ()):
            ax.text(x, y, letter, ha="center", va="center", fontsize=5.5)
    ax.set_xticks(range(len(ups)), ups, fontsize=7)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(labels)), labels, fontsize=5.5)
    for tick, cells in zip(ax.get_yticklabels(), grid):
        if cells is None:
            tick.set_fontweight("bold")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig.suptitle(f"{strategy.rules.name} / {strategy.paytable.name}: decision by dealer upcard", fontsize=8,
                 y=1 - 0.15 / height)
    handles = [Patch(facecolor=COLOURS[k], label=f"{k} {name}") for k, name in
               (("H", "hit"), ("S", "stand"), ("D", "double"), ("R", "surrender"), ("P", "split"), ("F", "forfeit"))]
    fig.legend(handles=handles, loc="lower center", ncol=6, fontsize=6, frameon=False)
    fig.savefig(path, dpi=150)

"""Builds traditional transcripts for tests and plays them through the replay path."""
from __future__ import annotations

from service.replay import replay_data


def transcript(players, cards, actions, options=None, kitty=None, rules="british-traditional") -> dict:
    """A transcript dict; players are (seat, stake) or (seat, stake, shoot) tuples, actions tuples too."""
    out = {"rules": rules,
           "players": [dict(zip(("seat", "stake", "shoot"), p)) for p in players],
           "cards": list(cards),
           "actions": [_action(a) for a in actions]}
    if options:
        out["options"] = options
    if kitty is not None:
        out["kitty"] = kitty
    return out


def _action(spec) -> dict:
    """(seat, action) / (seat, action, hand) / (seat, action, hand, amount); seat 0 is the banker.
    A dict passes through as written."""
    if isinstance(spec, dict):
        return spec
    seat, action, *rest = spec
    out = {"seat": seat, "action": action}
    if rest and rest[0] is not None:
        out["hand"] = rest[0]
    if len(rest) > 1:
        out["amount"] = rest[1]
    return out


def play(*args, **kwargs) -> dict:
    return replay_data(transcript(*args, **kwargs))


def nets(result: dict) -> dict:
    """{"banker": net, seat: net, ...} for compact money assertions."""
    out = {"banker": result["banker"]["net"]}
    out.update({p["seat"]: p["net"] for p in result["players"]})
    return out

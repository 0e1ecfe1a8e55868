"""The benchmark floor: a plain single-pass Canberra replayer with the rules hard-coded and few
checks, run the same way as `pontoon replay --batch` (one process, JSON lines in and out)."""
import json
import sys

V = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10}


def tot(cards):
    h = sum(V[c[0]] for c in cards)
    return h + 10 if any(c[0] == "A" for c in cards) and h + 10 <= 21 else h


def play(t):
    cards = iter(t["cards"])
    seats = sorted(t["seats"], key=lambda s: s["seat"])
    hands = {s["seat"]: [[next(cards)]] for s in seats}
    up = next(cards)
    for s in seats:
        hands[s["seat"]][0].append(next(cards))
    pair = {s["seat"]: s.get("side_bets", {}).get("pair", s.get("pair_bet", 0)) for s in seats}
    money = {s["seat"]: [s["wager"] + pair[s["seat"]], 0] for s in seats}
    for s in seats:
        c = hands[s["seat"]][0]
        if pair[s["seat"]] and c[0][0] == c[1][0]:
            money[s["seat"]][1] += pair[s["seat"]] * 12
    state = {}
    for s in seats:
        c = hands[s["seat"]][0]
        pontoon = {c[0][0], c[1][0]} in ({"A", "J"}, {"A", "Q"}, {"A", "K"})
        state[(s["seat"], 0)] = {"w": s["wager"], "d": 0, "st": "pontoon" if pontoon else "play", "sa": False}
    ins = {}
    for a in t["actions"]:
        seat, act, h = a["seat"], a["action"], a.get("hand", 0)
        if act == "insurance":
            ins[seat] = a["amount"]
            money[seat][0] += a["amount"]
            continue
        hs = state[(seat, h)]
        hand = hands[seat][h]
        if len(hand) == 1:
            hand.append(next(cards))
        if act == "hit":
            hand.append(next(cards))
        elif act == "stand":
            if hs["d"] == 0 and tot(hand) < 13:
                raise ValueError("stand under 13")
            hs["st"] = "stood"
        elif act == "double":
            hs["d"] = a["amount"]
            money[seat][0] += a["amount"]
            base = sum(V[c[0]] for c in hand)
            hand.append(next(cards))
            hs["t"] = base + (11 if hand[-1][0] == "A" and base + 11 <= 21 else V[hand[-1][0]])
        elif act == "forfeit":
            hs["st"] = "forfeit"
        elif act == "surrender":
            hs["st"] = "surrender"
        elif act == "split":
            new = len(hands[seat])
            hands[seat].append([hand.pop()])
            money[seat][0] += hs["w"]
            state[(seat, new)] = {"w": hs["w"], "d": 0, "st": "play", "sa": hand[0][0] == "A"}
            hs["sa"] = hand[0][0] == "A"
            hand.append(next(cards))
        for key, st in state.items():
            cs = hands[key[0]][key[1]]
            t_ = st.get("t", tot(cs))
            if st["st"] == "play" and len(cs) >= 2 and (t_ >= 21 or (st["sa"] and len(cs) == 2)):
                st["st"] = "21" if t_ == 21 else "bust" if t_ > 21 else "stood"
    dealer = [up, next(cards)]
    dp = {dealer[0][0], dealer[1][0]} in ({"A", "J"}, {"A", "Q"}, {"A", "K"})
    waiting = any(st["st"] == "stood" for st in state.values())
    while waiting and not dp and (tot(dealer) < 17 or (tot(dealer) == 17 and "A" in [c[0] for c in dealer]
                                                       and sum(V[c[0]] for c in dealer) == 7)):
        dealer.append(next(cards))
    dt = tot(dealer)
    taken = set()
    for (seat, h), st in sorted(state.items()):
        w, d, cs = st["w"], st["d"], hands[seat][h]
        t_ = st.get("t", tot(cs))
        m = money[seat]
        if st["st"] == "pontoon":
            m[1] += w + w * 3 // 2
        elif st["st"] == "21":
            m[1] += 2 * (w + d)
        elif st["st"] == "forfeit":
            m[1] += d
        elif st["st"] == "surrender":
            m[1] += 0 if dp else w // 2
        elif st["st"] == "stood":
            if dp:
                m[1] += d if seat in taken else (w + d if False else d)
                if seat in taken:
                    m[1] += w
                taken.add(seat)
            elif dt > 21 or t_ > dt:
                m[1] += 2 * (w + d)
            elif t_ == dt:
                m[1] += w + d
    for seat, amount in ins.items():
        if dealer[1][0] in "TJQK":
            money[seat][1] += 3 * amount
    return {"dealer": {"cards": dealer, "total": dt, "pontoon": dp, "bust": dt > 21},
            "seats": [{"seat": s, "staked": m[0], "returned": m[1], "net": m[1] - m[0]} for s, m in money.items()]}


def main():
    out = []
    for line in open(sys.argv[1]):
        try:
            out.append(json.dumps(play(json.loads(line))))
        except Exception as exc:  # the floor does not care which error
            out.append(json.dumps({"error": str(exc)}))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

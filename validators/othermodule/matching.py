"""Their palette matched to ours, each pair with a score.

A piece is known by the words of its name and of its properties: "15 Pz / 8 Pz 1" and our
"8th Panzer Regiment (I. Abteilung) (15PZ)", id 15pz-8pz-1, share 15, pz, 8 and 1.  The score is
the share of their words found among ours (a word of 3 letters or more also matches the start of
one of ours: "Comb." = "Combined"), weighed with how much of our id their words cover, so that
"8 Pz 1" prefers 8pz-1 to 8pz-2.  Their side-like property (a property with few values, such as
Army = DAK / 8A) is learnt from the pairs that matched well and then counts for or against the
rest.  Each of ours is given to one of theirs at most, best scores first.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict

from builder.model.schema import PieceMatch
from validators.othermodule.ours import our_id
from validators.othermodule.slots import Slot

THRESHOLD = 0.5  # below it a piece is left for the user
SURE = 0.85  # pairs this good teach which of their property values means which of our sides
_STOP = {"th", "st", "nd", "rd", "the", "of", "de", "di"}


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"\d+|[a-z]+", text.lower()) if w not in _STOP}


def _found(w: str, ours: set[str]) -> bool:
    return w in ours or (len(w) >= 3 and not w.isdigit() and any(o.startswith(w) for o in ours))


def _name_score(theirs: set[str], ours: set[str], our_key: set[str]) -> float:
    if not theirs:
        return 0.0
    cover = sum(_found(w, ours) for w in theirs) / len(theirs)
    key = sum(any(_found(w, {k}) for w in theirs) for k in our_key) / len(our_key) if our_key else cover
    return 0.75 * cover + 0.25 * key


def _their_words(s: Slot, side_props: set[str]) -> set[str]:
    return words(s.name) | {w for k, v in s.props.items() if k not in side_props for w in words(v)}


def _our_words(s: Slot) -> tuple[set[str], set[str]]:
    key = words(our_id(s) or "")
    return words(s.name) | key | words(s.props.get("Formation", "")), key


def side_like(slots: list[Slot]) -> set[str]:
    """Their properties with two or three values over many pieces: sides, armies, nationalities."""
    values = defaultdict(Counter)
    for s in slots:
        for k, v in s.props.items():
            values[k][v] += 1
    return {k for k, c in values.items() if 2 <= len(c) <= 3 and sum(c.values()) >= 4}


def match(theirs: list[Slot], ours: list[Slot]) -> list[PieceMatch]:
    ours = [o for o in ours if our_id(o)]
    sides = side_like(theirs)
    tw = [_their_words(t, sides) for t in theirs]
    ow = [_our_words(o) for o in ours]
    scores = [[_name_score(tw[i], ow[j][0], ow[j][1]) for j in range(len(ours))] for i in range(len(theirs))]
    # learn what their side-like values mean from the sure pairs
    votes: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for i, t in enumerate(theirs):
        j = max(range(len(ours)), key=scores[i].__getitem__, default=None)
        if j is not None and scores[i][j] >= SURE and ours[j].props.get("Side"):
            for k in sides & t.props.keys():
                votes[(k, t.props[k])][ours[j].props["Side"]] += 1
    means = {kv: c.most_common(1)[0][0] for kv, c in votes.items()}
    side_of = [next((means[(k, t.props[k])] for k in sorted(sides & t.props.keys()) if (k, t.props[k]) in means), None)
               for t in theirs]
    for i in range(len(theirs)):
        for j, o in enumerate(ours):
            if side_of[i] and o.props.get("Side"):
                scores[i][j] = scores[i][j] * 0.85 + (0.15 if side_of[i] == o.props["Side"] else 0.0)
    pairs = sorted(((scores[i][j], i, j) for i in range(len(theirs)) for j in range(len(ours))), reverse=True)
    given: dict[int, tuple[float, int]] = {}
    taken: set[int] = set()
    for sc, i, j in pairs:
        if sc < THRESHOLD:
            break
        if i not in given and j not in taken:
            given[i] = (sc, j)
            taken.add(j)
    out = []
    for i, t in enumerate(theirs):
        if i in given:
            sc, j = given[i]
            side = f", side {side_of[i]}" if side_of[i] else ""
            out.append(PieceMatch(name=t.name, gpid=t.gpid or None, ours=our_id(ours[j]), score=round(sc, 2),
                                  why=f"name{side}: {ours[j].name}"))
        else:
            j = max(range(len(ours)), key=scores[i].__getitem__, default=None)
            close = f"closest: {our_id(ours[j])} ({scores[i][j]:.2f})" if j is not None else "nothing close"
            out.append(PieceMatch(name=t.name, gpid=t.gpid or None, ours=None,
                                  score=round(scores[i][j], 2) if j is not None else 0.0, why=close))
    return out

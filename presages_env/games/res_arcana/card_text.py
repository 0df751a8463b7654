"""Res Arcana's components and rules in words, for people (``Game.card_help`` ...).

The one place a component's text is put together: each line is read off its row in
``cards.ROWS`` (kind, cost, VP, collect, powers, reaction), so the text cannot drift from the
rules the kernel plays. The terminal, the replay page and the views use it; the decision
wording (``DECISION_TEXT``) is the views' "now: ..." line.
"""

from __future__ import annotations

from presages_env.core.view import name_key
from presages_env.games.res_arcana import cards as cd

# what each pending decision (layout.NODE_*, in order) asks of the deciding player
DECISION_TEXT = (
    "choose an action",
    "choose an essence to pay",
    "pay one more essence for X, or stop",
    "choose an essence to gain",
    "choose a component",  # the views name what for (event_text.TARGET_KIND_NAMES)
    "accept a Life loss or ignore it",
    "use the Golden Statue at this victory check, or not",
    "pay 1 Death for the Cursed Forge, or turn it",
    "choose which deck to look at",
    "choose the order of the cards looked at",
    "choose a rival to count the essences of",
    "nothing: the game is over",
)

LEGEND = (
    ("E", "Elan (red flame)"),
    ("L", "Life (green flask)"),
    ("C", "Calm (blue drop)"),
    ("D", "Death (black skull)"),
    ("G", "Gold (yellow nugget)"),
    ("any", "an essence of any type, Gold included, unless the text says otherwise"),
    ("X=", "X essences all of one type (X may be 0)"),
    ("turn", "tap the component: its powers cannot be used again until it is straightened"),
    ("on this", "essences stored on the card, taken at a later collect (all or none)"),
    ("\u2192", "left of the arrow: what you pay; right of it: what you get"),
    ("(turned)", "a component used this round"),
    ("[1E 2G]", "essences stored on a component, or a player's pool"),
    ("VP", "victory points: 10 or more at a round's end wins"),
    ("P1, P2", "the players by seat, counted from 1"),
)

RULES_SUMMARY = "\n".join(
    (
        "Res Arcana: 2 to 4 mages race to 10 victory points (VP).",
        "Setup: each player keeps 1 of 2 mages, has a deck of 8 artifacts (3 in hand) and "
        "takes a magic item (last player first). Everyone starts with 1 essence of each type.",
        "Each round has three phases:",
        "1. Collect: every collect ability of your components gives essences; you may take "
        "the essences stored on your components (all or none per component).",
        "2. Actions, one per turn, clockwise from the first player, until everyone has "
        "passed: place an artifact from your hand (pay its cost); claim a monument for 4 Gold"
        " (face up, or the top of the deck unseen); claim a Place of Power (pay its cost); "
        "discard a card for 1 Gold or 2 other essences; use a power of a component that is "
        "not turned (pay its cost, turning it if the cost says so); or pass (the first to "
        "pass takes the first player token, worth 1 VP; swap your magic item; draw 1 card).",
        "3. Victory check: with 10 VP or more, the most VP wins (tie: most essences in the "
        "pool, Gold counting double; still tied: a shared win). Otherwise straighten "
        "everything and play the next round.",
        "Attacks: each rival who has not passed loses the Life shown; for each Life they "
        "cannot pay they lose 2 other essences. Reactions (Protection, Healer, ...) can "
        "ignore a loss, even on another player's turn.",
        "VP come from artifacts, monuments, Places of Power (and essences on them) and the "
        "first player token.",
    )
)

_KINDS = {cd.ARTIFACT, cd.MONUMENT, cd.PLACE}  # the kinds with a cost to place or claim
_ONLY_SETUP = {cd.MAGE: "kept at setup (1 of 2)", cd.ITEM: "taken at setup, swapped on passing"}


def _essence_names(mask: int) -> str:
    if mask == cd.NON_GOLD:
        return "non-Gold"
    return "/".join(cd.ESSENCE_NAMES[e] for e in range(cd.NUM_ESSENCES) if mask >> e & 1)


def _fixed_text(essences: str) -> str:
    fixed, any_count = cd.parse_essences(essences)
    text = cd.essences_text(fixed) if any(fixed) else ""
    if any_count:
        text = f"{text} + {any_count} any" if text else f"{any_count} any"
    return text


def _collect(row: cd.Card) -> str:
    parts = [_fixed_text(row.collect)] if row.collect else []
    if row.collect_choice:
        parts.append(f"{row.collect_choice} {_essence_names(row.collect_mask)} of your choice")
    return "collect: " + " and ".join(parts) if parts else ""


def _vp(row: cd.Card) -> str:
    parts = [f"{row.vp} VP"] if row.vp else []
    if row.vp_per:
        parts.append(f"1 VP per {cd.ESSENCE_NAMES[cd.ESSENCES.index(row.vp_per)]} on it")
    if row.vp_per_beast:
        parts.append("1 VP per creature and 2 per dragon you have in play")
    return " + ".join(parts)


def _kind(row: cd.Card) -> str:
    tags = [t for t, on in (("dragon", row.dragon), ("creature", row.creature)) if on]
    return cd.KIND_NAMES[row.kind] + (f" ({', '.join(tags)})" if tags else "")


def _cost(row: cd.Card) -> str:
    if row.kind in _KINDS:
        return f"cost {cd.cost_text(cd.CID[row.name])}"
    return _ONLY_SETUP[row.kind]


def _effects(row: cd.Card) -> list[str]:
    """Collect, passive text, powers and reaction, each a short line."""
    lines = [_collect(row), row.text]
    lines += [f"power: {power.text}" for power in row.powers]
    if row.reaction is not None:
        lines.append(row.reaction.text)
    return [line for line in lines if line]


def _help(row: cd.Card) -> str:
    french = f" ({row.french})" if row.french != row.name else ""
    head = f"{row.name}{french}: {_kind(row)}, {_cost(row)}"
    vp = _vp(row)
    lines = [head + (f", {vp}" if vp else "")]
    lines += [f"  {line}" for line in _effects(row)] or ["  no power of its own"]
    return "\n".join(lines)


def _summary(row: cd.Card) -> str:
    vp = _vp(row)
    parts = [_cost(row), *([vp] if vp else []), *_effects(row)]
    return "; ".join(parts)


CARD_NAMES = cd.NAMES
_ROWS = {name_key(key): row for row in cd.ROWS for key in (row.name, row.french)}


def card_help(name: str) -> str | None:
    """``name`` (English or French, any case) in words: kind, cost, VP, collect, powers."""
    row = _ROWS.get(name_key(name))
    return None if row is None else _help(row)


def card_summary(name: str) -> str | None:
    """One line: cost, VP and effects of ``name``."""
    row = _ROWS.get(name_key(name))
    return None if row is None else _summary(row)

"""Res Arcana's 78 components as one table: one row per card, abilities as records.

Every component has an id (``cid``): artifacts 0-39, mages 40-49, magic items 50-57,
monuments 58-67, Places of Power 68-77 (tile t: sun face ``68 + 2t``, moon face
``69 + 2t``). Rows give the placement cost, victory points, type, collect ability, passive
discounts, reaction and powers; :func:`_compile` turns them into the numba-friendly arrays
below, indexed by cid (components) or by power id (``0..NUM_POWERS-1``, in row order).

Essences are E (Elan), L (Life), C (Calm), D (Death), G (Gold), indices 0-4; an essence mask
has bit e set for each allowed essence. Cost and gain strings read ``"2D 3A"``: a number and
a letter per part, ``A`` meaning that many essences of any allowed type. Card text is
paraphrased from ``shared/rules/res_arcana.md``; its section numbers are cited per row.
"""

from __future__ import annotations

import dataclasses

import numpy as np

ESSENCES = "ELCDG"
ESSENCE_NAMES = ("Elan", "Life", "Calm", "Death", "Gold")
NUM_ESSENCES = 5
E, L, C, D, G = range(5)
ALL = 0b11111
NON_GOLD = 0b01111
NO_GOLD_NO_DEATH = 0b00111  # Celestial Horse
NON_LIFE = ALL & ~(1 << L)  # the 2 essences paid per Life one cannot pay


def mask_of(letters: str) -> int:
    """``"CL"`` -> the mask of Calm and Life."""
    return sum(1 << ESSENCES.index(x) for x in letters)


# ---- component kinds ---------------------------------------------------------------------
ARTIFACT, MAGE, ITEM, MONUMENT, PLACE = range(5)
KIND_NAMES = ("artifact", "mage", "magic item", "monument", "place of power")
NUM_ARTIFACTS, NUM_MAGES, NUM_ITEMS, NUM_MONUMENTS, NUM_PLACES = 40, 10, 8, 10, 10
FIRST_MAGE = 40
FIRST_ITEM = 50
FIRST_MONUMENT = 58
FIRST_PLACE = 68
NUM_COMPONENTS = 78
NUM_TILES = 5
MONUMENT_COST_GOLD = 4

# ---- ability vocabulary ------------------------------------------------------------------
# collect specials (besides the fixed and chosen essences every row may have)
COLLECT_PLAIN, COLLECT_VAULT, COLLECT_WINDUP, COLLECT_FORGE = range(4)
# reaction triggers
REACT_NONE, REACT_LIFE, REACT_DRAGON, REACT_CHECK = range(4)
# power effects
(
    EF_BASIC,  # gain / put on this / rivals gain fixed essences, plus chosen essences
    EF_DRAW,  # draw `amount` cards
    EF_DIVINATION,  # draw `amount`, then discard as many as were drawn
    EF_LOOK,  # look at the top `amount` of the own deck or the monument deck, reorder
    EF_STRAIGHTEN,  # straighten a target (`param`: STRAIGHTEN_*)
    EF_ATTACK,  # each rival loses `amount` Life (`param`: IGNORE_*, `param2`: its essence)
    EF_PLACE,  # place an artifact (`param`: SOURCE_*; discount `amount` any part, `param2`
    # non-gold part)
    EF_CHECK,  # check victory now
    EF_X_TO_GOLD,  # gain X Gold, X paid with the X= cost
    EF_X_TO_CHOICE,  # gain X essences of one type of `choice_mask`
    EF_COST_GAIN,  # gain (printed cost of the card destroyed or discarded as cost + `amount`)
    # essences of `choice_mask`
    EF_RIVAL_COUNT,  # choose a rival: gain essence `param` per essence `param2` they hold
    EF_PUT_PAID,  # put the essence just paid on a component (`param`: PUT_*)
) = range(13)
STRAIGHTEN_ANY, STRAIGHTEN_CREATURE, STRAIGHTEN_SELF = range(3)
IGNORE_NONE, IGNORE_PAY, IGNORE_DESTROY, IGNORE_DISCARD = range(4)
SOURCE_HAND_DRAGON, SOURCE_OWN_DISCARD, SOURCE_ANY_DISCARD_DRAGON = range(3)
PUT_SELF, PUT_OWN_COMPONENT = range(2)
# destroy-as-cost filters
SACRIFICE_NONE, SACRIFICE_ANY, SACRIFICE_OTHER, SACRIFICE_BEAST = range(4)
TURN_OTHER_NONE, TURN_OTHER_DRAGON, TURN_OTHER_CREATURE = range(3)
FREE = 99  # a discount no cost reaches: the placement costs nothing


@dataclasses.dataclass(frozen=True)
class Power:
    """One power: its cost (everything before the arrow) and its effect (after it)."""

    text: str
    turn: bool = True
    cost: str = ""
    any_mask: int = ALL
    x_equal: bool = False  # "pay X=": X >= 0 essences of one type
    remove: str = ""  # essences removed from this card as cost (Athanor)
    destroy_self: bool = False
    sacrifice: int = SACRIFICE_NONE
    discard: bool = False  # discard a card from hand as cost
    turn_other: int = TURN_OTHER_NONE
    needs_turned: bool = False  # usable only while turned (Guard Dog)
    effect: int = EF_BASIC
    gain: str = ""
    put: str = ""
    rivals: str = ""
    choice: int = 0
    choice_mask: int = NON_GOLD
    choice_on_self: bool = False
    amount: int = 0
    param: int = 0
    param2: int = 0


@dataclasses.dataclass(frozen=True)
class Reaction:
    trigger: int
    text: str
    turn: bool = True
    cost: str = ""
    put: str = ""  # put on this (Dancing Sword)
    vp: int = 0  # temporary victory points at this check (Golden Statue)


@dataclasses.dataclass(frozen=True)
class Card:
    name: str
    french: str
    kind: int
    cost: str = ""
    vp: int = 0
    dragon: bool = False
    creature: bool = False
    collect: str = ""
    collect_choice: int = 0
    collect_mask: int = NON_GOLD
    collect_special: int = COLLECT_PLAIN
    dragon_discount: int = 0  # your dragons cost this much less (any part)
    artifact_discount: int = 0  # your artifacts cost this much less (non-gold part)
    claim_choice: int = 0  # essences of NON_GOLD gained when claimed (Obelisk)
    vp_per: str = ""  # Places of Power: 1 VP per essence of this type on it
    vp_per_beast: bool = False  # Sorcerer's Bestiary: 1 per creature, 2 per dragon
    starter_set: int = 0
    powers: tuple[Power, ...] = ()
    reaction: Reaction | None = None
    text: str = ""


def _turn_gain(text: str, gain: str, **kw) -> Power:
    return Power(text, gain=gain, **kw)


def _attack(ignore: int, essence: int = 0, life: int = 2) -> Power:
    how = {
        IGNORE_NONE: "",
        IGNORE_PAY: f"; a rival may pay 1 {ESSENCE_NAMES[essence]} to ignore",
        IGNORE_DESTROY: "; a rival may destroy one of their artifacts to ignore",
        IGNORE_DISCARD: "; a rival may discard a card to ignore",
    }[ignore]
    return Power(
        f"turn → each rival loses {life} Life{how}",
        effect=EF_ATTACK,
        amount=life,
        param=ignore,
        param2=essence,
    )


_LIFE_TURN = Reaction(REACT_LIFE, "react to a Life loss: turn → ignore it")
_LOOK = Power(
    "turn → look at the top 3 of your deck or the monument deck, reorder", effect=EF_LOOK, amount=3
)
_DRAW_1 = Power("turn → draw 1 card", effect=EF_DRAW, amount=1)

# ---- §6 artifacts (spec order) -----------------------------------------------------------
ARTIFACT_ROWS = (
    Card(
        "Athanor",
        "Athanor",
        ARTIFACT,
        "1E 1G",
        powers=(
            Power("turn + 1 Elan → put 2 Elan on this", cost="1E", put="2E"),
            Power(
                "turn + remove 6 Elan from this + X= → gain X Gold",
                remove="6E",
                x_equal=True,
                effect=EF_X_TO_GOLD,
            ),
        ),
    ),
    Card(
        "Bone Dragon",
        "Dragon d'Os",
        ARTIFACT,
        "4D 1L",
        vp=1,
        dragon=True,
        powers=(_attack(IGNORE_PAY, D),),
    ),
    Card(
        "Celestial Horse",
        "Monture Céleste",
        ARTIFACT,
        "2C 1E",
        creature=True,
        collect_choice=2,
        collect_mask=NO_GOLD_NO_DEATH,
        starter_set=3,
    ),
    Card(
        "Chalice of Fire",
        "Coupe de Feu",
        ARTIFACT,
        "1E 1G",
        collect="2E",
        powers=(
            Power(
                "turn + 1 Elan → straighten one of your components",
                cost="1E",
                effect=EF_STRAIGHTEN,
                param=STRAIGHTEN_ANY,
            ),
        ),
    ),
    Card(
        "Chalice of Life",
        "Calice de Vie",
        ARTIFACT,
        "1L 1C 1G",
        collect="1L 1C",
        starter_set=2,
        powers=(Power("2 Calm → put 2 Calm + 1 Life on this", turn=False, cost="2C", put="1L 2C"),),
        reaction=_LIFE_TURN,
    ),
    Card(
        "Corrupt Altar",
        "Autel Corrompu",
        ARTIFACT,
        "2D 3A",
        collect="1L 1D",
        powers=(
            Power("2 Life → put 3 Elan on this", turn=False, cost="2L", put="3E"),
            Power(
                "turn + destroy one of your artifacts (this one too) → gain its printed cost + 2 "
                "as non-Gold essences",
                sacrifice=SACRIFICE_ANY,
                effect=EF_COST_GAIN,
                amount=2,
            ),
        ),
    ),
    Card(
        "Crypt",
        "Crypte",
        ARTIFACT,
        "2D 3A",
        powers=(
            _turn_gain("turn → gain 2 Death", "2D"),
            Power(
                "turn + 1 Death → place a card from your discard pile at 2 less (not Gold)",
                cost="1D",
                effect=EF_PLACE,
                param=SOURCE_OWN_DISCARD,
                param2=2,
            ),
        ),
    ),
    Card(
        "Cursed Skull",
        "Crâne Maudit",
        ARTIFACT,
        "2D",
        powers=(
            Power(
                "turn + 1 Life → put 3 essences on this, no Life or Gold",
                cost="1L",
                choice=3,
                choice_mask=mask_of("ECD"),
                choice_on_self=True,
            ),
        ),
    ),
    Card(
        "Dancing Sword",
        "Épée Vive",
        ARTIFACT,
        "1E 1G",
        collect="1E 1D",
        starter_set=4,
        reaction=Reaction(
            REACT_LIFE,
            "react to a Life loss: 1 Elan → ignore it, put 1 Death on this",
            turn=False,
            cost="1E",
            put="1D",
        ),
    ),
    Card(
        "Dragon Bridle",
        "Harnais de Dragon",
        ARTIFACT,
        "1E 1L 1C 1D",
        vp=1,
        dragon_discount=3,
        reaction=Reaction(REACT_DRAGON, "react to a Dragon's power: turn → ignore it"),
        text="your dragons cost 3 less",
    ),
    Card(
        "Dragon Egg",
        "Oeuf de Dragon",
        ARTIFACT,
        "1G",
        vp=1,
        powers=(
            Power(
                "destroy this → place a dragon from your hand at 4 less",
                turn=False,
                destroy_self=True,
                effect=EF_PLACE,
                param=SOURCE_HAND_DRAGON,
                amount=4,
            ),
        ),
    ),
    Card(
        "Dragon Teeth",
        "Dent de Dragon",
        ARTIFACT,
        "1E 1D",
        starter_set=1,
        powers=(
            Power("2 Elan → put 3 Elan on this", turn=False, cost="2E", put="3E"),
            Power(
                "turn + 3 Elan → place a dragon from your hand for free",
                cost="3E",
                effect=EF_PLACE,
                param=SOURCE_HAND_DRAGON,
                amount=FREE,
            ),
        ),
    ),
    Card(
        "Dwarven Pickaxe",
        "Pioche des Nains",
        ARTIFACT,
        "1E",
        powers=(_turn_gain("turn + 1 Elan → gain 1 Gold", "1G", cost="1E"),),
    ),
    Card(
        "Earth Dragon",
        "Dragon de Terre",
        ARTIFACT,
        "4E 3L",
        vp=1,
        dragon=True,
        powers=(_attack(IGNORE_PAY, G),),
    ),
    Card(
        "Elemental Spring",
        "Source Élémentaire",
        ARTIFACT,
        "2E 1L 1C",
        collect="1E 1L 1C",
        starter_set=1,
        reaction=Reaction(
            REACT_LIFE, "react to a Life loss: 1 Calm → ignore it", turn=False, cost="1C"
        ),
    ),
    Card(
        "Elvish Bow",
        "Arc Elfique",
        ARTIFACT,
        "2E 1L",
        powers=(
            _attack(IGNORE_NONE, life=1),
            _DRAW_1,
        ),
    ),
    Card(
        "Fiery Whip",
        "Fouet Ardent",
        ARTIFACT,
        "2E 2D",
        powers=(
            _turn_gain("turn → gain 3 Elan; each rival gains 1 Elan", "3E", rivals="1E"),
            Power(
                "turn + destroy another of your artifacts → gain its printed cost + 2 as "
                "non-Gold essences",
                sacrifice=SACRIFICE_OTHER,
                effect=EF_COST_GAIN,
                amount=2,
            ),
        ),
    ),
    Card(
        "Fire Dragon",
        "Dragon de Feu",
        ARTIFACT,
        "6E",
        vp=1,
        dragon=True,
        powers=(_attack(IGNORE_PAY, C),),
    ),
    Card(
        "Flaming Pit",
        "Puits Calcifère",
        ARTIFACT,
        "2E",
        collect="1E",
        starter_set=2,
        powers=(_turn_gain("turn + 1 Life → gain 1 Elan + 1 Death", "1E 1D", cost="1L"),),
    ),
    Card(
        "Fountain of Youth",
        "Fontaine de Jouvence",
        ARTIFACT,
        "1C 1D",
        collect="1L",
        starter_set=4,
        powers=(
            Power("2 Death → put 2 Calm + 1 Life on this", turn=False, cost="2D", put="1L 2C"),
        ),
    ),
    Card(
        "Guard Dog",
        "Molosse",
        ARTIFACT,
        "1E",
        creature=True,
        powers=(
            Power(
                "1 Elan → straighten this (only while turned)",
                turn=False,
                cost="1E",
                needs_turned=True,
                effect=EF_STRAIGHTEN,
                param=STRAIGHTEN_SELF,
            ),
        ),
        reaction=_LIFE_TURN,
    ),
    Card(
        "Hand of Glory",
        "Main de Gloire",
        ARTIFACT,
        "1L 1D",
        starter_set=1,
        powers=(_turn_gain("turn → gain 2 Death; each rival gains 1 Death", "2D", rivals="1D"),),
    ),
    Card(
        "Hawk",
        "Faucon",
        ARTIFACT,
        "1L 1C",
        creature=True,
        collect="1C",
        starter_set=4,
        powers=(
            _LOOK,
            Power("turn + 2 Calm → draw 1 card", cost="2C", effect=EF_DRAW, amount=1),
        ),
    ),
    Card(
        "Horn of Plenty",
        "Corne d'Abondance",
        ARTIFACT,
        "2G",
        powers=(
            Power("turn → gain 3 non-Gold essences", choice=3),
            _turn_gain("turn → gain 1 Gold", "1G"),
        ),
    ),
    Card(
        "Hypnotic Basin",
        "Étang de Sérénité",
        ARTIFACT,
        "2C 1E 1D",
        collect="2C",
        powers=(
            Power(
                "turn → choose a rival: gain 1 Calm per Elan they hold",
                effect=EF_RIVAL_COUNT,
                param=C,
                param2=E,
            ),
        ),
    ),
    Card(
        "Jeweled Statuette",
        "Statuette Ornée",
        ARTIFACT,
        "2D 1G",
        vp=1,
        powers=(
            _turn_gain("turn → gain 3 Death; each rival gains 1 Death", "3D", rivals="1D"),
            Power(
                "destroy this → gain 2 Gold + 1 Elan", turn=False, destroy_self=True, gain="1E 2G"
            ),
        ),
    ),
    Card(
        "Magical Shard",
        "Éclat Élémentaire",
        ARTIFACT,
        "",
        starter_set=3,
        powers=(Power("turn → gain 1 non-Gold essence", choice=1),),
    ),
    Card(
        "Mermaid",
        "Sirène",
        ARTIFACT,
        "2L 2C",
        creature=True,
        collect="1C",
        powers=(
            Power(
                "turn + 1 Calm, Life or Gold → put it on one of your components",
                cost="1A",
                any_mask=mask_of("LCG"),
                effect=EF_PUT_PAID,
                param=PUT_OWN_COMPONENT,
            ),
        ),
    ),
    Card("Nightingale", "Rossignol", ARTIFACT, "1L 1C", vp=1, creature=True),
    Card(
        "Philosopher's Stone",
        "Pierre Philosophale",
        ARTIFACT,
        "2E 2L 2C 2D",
        vp=1,
        powers=(
            Power("turn + 2 any + X= → gain X Gold", cost="2A", x_equal=True, effect=EF_X_TO_GOLD),
        ),
    ),
    Card(
        "Prism",
        "Prisme",
        ARTIFACT,
        "",
        powers=(
            Power("turn + 1 any → gain 2 non-Gold essences", cost="1A", choice=2),
            Power(
                "turn + X= → gain X essences of one non-Gold type",
                x_equal=True,
                effect=EF_X_TO_CHOICE,
            ),
        ),
    ),
    Card(
        "Ring of Midas",
        "Anneau de Midas",
        ARTIFACT,
        "1L 1G",
        vp=1,
        powers=(
            Power("2 Life → put 1 Gold on this", turn=False, cost="2L", put="1G"),
            Power("turn → put 1 Gold on this", put="1G"),
        ),
    ),
    Card(
        "Sacrificial Dagger",
        "Dague Sacrificielle",
        ARTIFACT,
        "1D 1G",
        powers=(
            Power("turn + 1 Life → put 3 Death on this", cost="1L", put="3D"),
            Power(
                "destroy this + discard a card → gain the discarded card's printed cost as "
                "non-Gold essences",
                turn=False,
                destroy_self=True,
                discard=True,
                effect=EF_COST_GAIN,
            ),
        ),
    ),
    Card(
        "Sea Serpent",
        "Serpent de Mer",
        ARTIFACT,
        "3L 6C",
        vp=1,
        dragon=True,
        creature=True,
        powers=(_attack(IGNORE_DESTROY),),
    ),
    Card(
        "Treant",
        "Tréant",
        ARTIFACT,
        "2E 3L",
        creature=True,
        collect="2L",
        powers=(
            Power(
                "turn → choose a rival: gain 1 Elan per Death they hold",
                effect=EF_RIVAL_COUNT,
                param=E,
                param2=D,
            ),
        ),
    ),
    Card(
        "Tree of Life",
        "Arbre de Vie",
        ARTIFACT,
        "1L 2A",
        starter_set=3,
        powers=(_turn_gain("turn → gain 3 Life; each rival gains 1 Life", "3L", rivals="1L"),),
        reaction=Reaction(
            REACT_LIFE, "react to a Life loss: 1 Life → ignore it", turn=False, cost="1L"
        ),
    ),
    Card(
        "Vault",
        "Coffre-Fort",
        ARTIFACT,
        "1G 1A",
        collect_special=COLLECT_VAULT,
        starter_set=2,
        powers=(Power("turn → put 1 Gold on this", put="1G"),),
        text="collect: if Gold is left on this, gain 2 non-Gold essences",
    ),
    Card(
        "Water Dragon",
        "Dragon des Eaux",
        ARTIFACT,
        "6C",
        vp=1,
        dragon=True,
        powers=(_attack(IGNORE_PAY, E),),
    ),
    Card(
        "Wind Dragon",
        "Dragon des Vents",
        ARTIFACT,
        "4C 4A",
        vp=1,
        dragon=True,
        powers=(_attack(IGNORE_DISCARD),),
    ),
    Card(
        "Windup Man",
        "Automate",
        ARTIFACT,
        "1E 1L 1C 1G",
        collect_special=COLLECT_WINDUP,
        powers=(
            Power("turn + 1 any → put it on this", cost="1A", effect=EF_PUT_PAID, param=PUT_SELF),
        ),
        text="collect: if essences are left on this, add 2 of each type on it",
    ),
)

# ---- §4 mages ----------------------------------------------------------------------------
MAGE_ROWS = (
    Card(
        "Alchemist",
        "Alchimiste",
        MAGE,
        starter_set=3,
        powers=(
            _turn_gain("turn + 4 any → gain 2 Gold", "2G", cost="4A"),
            Power("turn → gain 1 non-Gold essence", choice=1),
        ),
    ),
    Card(
        "Artificer",
        "Artificier",
        MAGE,
        artifact_discount=1,
        text="your artifacts cost 1 less (not Gold)",
    ),
    Card(
        "Druid",
        "Druidesse",
        MAGE,
        collect="1L",
        powers=(
            Power(
                "turn → straighten one of your creatures",
                effect=EF_STRAIGHTEN,
                param=STRAIGHTEN_CREATURE,
            ),
        ),
    ),
    Card(
        "Duelist",
        "Duelliste",
        MAGE,
        collect="1E",
        starter_set=1,
        powers=(Power("turn + 1 Death → put 1 Gold on this", cost="1D", put="1G"),),
    ),
    Card(
        "Healer",
        "Guérisseur",
        MAGE,
        collect_choice=1,
        collect_mask=mask_of("LC"),
        reaction=_LIFE_TURN,
    ),
    Card(
        "Necromancer",
        "Nécromancienne",
        MAGE,
        collect="1D",
        powers=(Power("turn + 2 Life → put 3 Death on this", cost="2L", put="3D"),),
    ),
    Card(
        "Scholar",
        "Érudit",
        MAGE,
        powers=(Power("turn + 1 any → draw 1 card", cost="1A", effect=EF_DRAW, amount=1),),
    ),
    Card("Seer", "Voyante", MAGE, collect="1C", starter_set=2, powers=(_LOOK,)),
    Card(
        "Transmuter",
        "Transmutatrice",
        MAGE,
        starter_set=4,
        powers=(Power("turn + 2 any → gain 3 non-Gold essences", cost="2A", choice=3),),
    ),
    Card(
        "Witch",
        "Sorcière",
        MAGE,
        collect_choice=1,
        collect_mask=mask_of("LD"),
        powers=(
            Power(
                "turn + 2 any → straighten one of your components",
                cost="2A",
                effect=EF_STRAIGHTEN,
                param=STRAIGHTEN_ANY,
            ),
        ),
    ),
)

# ---- §5 magic items ----------------------------------------------------------------------
ITEM_ROWS = (
    Card(
        "Alchemy",
        "Alchimie",
        ITEM,
        powers=(_turn_gain("turn + 4 any → gain 2 Gold", "2G", cost="4A"),),
    ),
    Card("Calm / Elan", "Sérénité | Vigueur", ITEM, collect_choice=1, collect_mask=mask_of("CE")),
    Card("Death / Life", "Mort | Vie", ITEM, collect_choice=1, collect_mask=mask_of("DL")),
    Card(
        "Divination",
        "Divination",
        ITEM,
        powers=(
            Power("turn → draw 3 cards, then discard as many", effect=EF_DIVINATION, amount=3),
        ),
    ),
    Card("Protection", "Protection", ITEM, reaction=_LIFE_TURN),
    Card(
        "Reanimate",
        "Réanimation",
        ITEM,
        powers=(
            Power(
                "turn + 1 any → straighten one of your components",
                cost="1A",
                effect=EF_STRAIGHTEN,
                param=STRAIGHTEN_ANY,
            ),
        ),
    ),
    Card(
        "Research",
        "Recherches",
        ITEM,
        powers=(Power("turn + 1 any → draw 1 card", cost="1A", effect=EF_DRAW, amount=1),),
    ),
    Card(
        "Transmutation",
        "Transmutation",
        ITEM,
        powers=(Power("turn + 3 any → gain 3 non-Gold essences", cost="3A", choice=3),),
    ),
)

# ---- §7 monuments (all cost 4 Gold) ------------------------------------------------------
MONUMENT_ROWS = (
    Card(
        "Colossus",
        "Colosse",
        MONUMENT,
        "4G",
        vp=2,
        powers=(Power("turn + 1 any → put 1 Gold on this", cost="1A", put="1G"),),
    ),
    Card(
        "Golden Statue",
        "Statue Sacrée",
        MONUMENT,
        "4G",
        vp=1,
        reaction=Reaction(
            REACT_CHECK,
            "react to a victory check: turn + 3 Gold → 3 VP at this check",
            cost="3G",
            vp=3,
        ),
    ),
    Card("Great Pyramid", "Grande Pyramide", MONUMENT, "4G", vp=3),
    Card("Hanging Gardens", "Jardins Suspendus", MONUMENT, "4G", vp=1, collect_choice=3),
    Card("Library", "Bibliothèque", MONUMENT, "4G", vp=1, powers=(_DRAW_1,)),
    Card(
        "Mausoleum",
        "Mausolée",
        MONUMENT,
        "4G",
        vp=2,
        powers=(Power("1 any → put 1 Death on this", turn=False, cost="1A", put="1D"),),
    ),
    Card(
        "Obelisk",
        "Obélisque",
        MONUMENT,
        "4G",
        vp=1,
        claim_choice=6,
        text="when claimed: gain 6 non-Gold essences",
    ),
    Card("Oracle", "Oracle", MONUMENT, "4G", vp=2, powers=(_LOOK,)),
    Card(
        "Solomon's Mine",
        "Mine de Salomon",
        MONUMENT,
        "4G",
        vp=1,
        powers=(_turn_gain("turn → gain 1 Gold", "1G"),),
    ),
    Card("Temple", "Temple", MONUMENT, "4G", vp=2, collect="1L", reaction=_LIFE_TURN),
)

# ---- §8 Places of Power: sun face then moon face of each tile ------------------------------
_CHECK = Power("turn → check victory now", effect=EF_CHECK)
PLACE_ROWS = (
    Card(
        "Dragon's Lair",
        "Repaire des Dragons",
        PLACE,
        "3E 3L 3C 3D",
        vp_per="G",
        dragon_discount=3,
        text="your dragons cost 3 less",
        powers=(
            _turn_gain("turn → gain 2 Gold", "2G"),
            Power(
                "turn + turn one of your dragons → put 2 Gold on this",
                turn_other=TURN_OTHER_DRAGON,
                put="2G",
            ),
        ),
    ),
    Card(
        "Sorcerer's Bestiary",
        "Bestiaire du Sorcier",
        PLACE,
        "2E 4L 2C 2D",
        vp_per_beast=True,
        powers=(
            _CHECK,
            Power(
                "turn + 4 any → place a dragon from any discard pile, paying its cost",
                cost="4A",
                effect=EF_PLACE,
                param=SOURCE_ANY_DISCARD_DRAGON,
            ),
        ),
    ),
    Card(
        "Coral Castle",
        "Manoir de Corail",
        PLACE,
        "5E 5L 5C",
        vp=3,
        powers=(_CHECK,),
        reaction=_LIFE_TURN,
    ),
    Card(
        "Sunken Reef",
        "Récif des Naufrageurs",
        PLACE,
        "2E 2L 5C",
        vp_per="C",
        collect="1G",
        powers=(Power("2 Calm + 1 Life → put 1 Calm on this", turn=False, cost="1L 2C", put="1C"),),
    ),
    Card(
        "Sacred Grove",
        "Bosquet Sacré",
        PLACE,
        "8L 4C",
        vp=2,
        vp_per="L",
        powers=(
            _turn_gain("turn + 1 Calm → gain 5 Life", "5L", cost="1C"),
            Power(
                "turn + turn one of your creatures → put 1 Life on this",
                turn_other=TURN_OTHER_CREATURE,
                put="1L",
            ),
        ),
    ),
    Card(
        "Alchemist's Tower",
        "Tour de l'Alchimiste",
        PLACE,
        "3G",
        vp_per="G",
        collect_choice=3,
        reaction=_LIFE_TURN,
        powers=(
            Power(
                "1 Elan + 1 Life + 1 Calm + 1 Death → put 1 Gold on this",
                turn=False,
                cost="1E 1L 1C 1D",
                put="1G",
            ),
        ),
    ),
    Card(
        "Catacombs of the Dead",
        "Catacombes de la Mort",
        PLACE,
        "9D",
        vp_per="D",
        collect="1D",
        powers=(
            Power("5 Death → put 1 Death on this", turn=False, cost="5D", put="1D"),
            Power("turn → put 1 Death on this", put="1D"),
        ),
    ),
    Card(
        "Sacrificial Pit",
        "Puits Sacrificiel",
        PLACE,
        "8E 4D",
        vp=2,
        vp_per="D",
        powers=(
            Power("turn + 3 Life → put 1 Death on this", cost="3L", put="1D"),
            Power(
                "turn + 1 Death + destroy one of your dragons or creatures → gain Gold equal to "
                "its printed cost",
                cost="1D",
                sacrifice=SACRIFICE_BEAST,
                effect=EF_COST_GAIN,
                choice_mask=1 << G,
            ),
        ),
    ),
    Card(
        "Cursed Forge",
        "Forge Maudite",
        PLACE,
        "6E 3D",
        vp=1,
        vp_per="G",
        collect_special=COLLECT_FORGE,
        text="collect: pay 1 Death or turn this",
        powers=(Power("2 Elan + 1 Gold → put 1 Gold on this", turn=False, cost="2E 1G", put="1G"),),
    ),
    Card(
        "Dwarven Mines",
        "Mine des Nains",
        PLACE,
        "4E 2L 1G",
        vp_per="G",
        collect="1G",
        powers=(
            _turn_gain("turn + 5 Elan → gain 3 Gold", "3G", cost="5E"),
            Power("turn + 3 Elan + 3 Death → put 2 Gold on this", cost="3E 3D", put="2G"),
        ),
    ),
)

ROWS = ARTIFACT_ROWS + MAGE_ROWS + ITEM_ROWS + MONUMENT_ROWS + PLACE_ROWS
NAMES = tuple(row.name for row in ROWS)
FRENCH_NAMES = tuple(row.french for row in ROWS)
CID = {row.name: cid for cid, row in enumerate(ROWS)}
STARTER_SETS = 4


# ---- compilation into arrays -------------------------------------------------------------
def parse_essences(text: str) -> tuple[list[int], int]:
    """``"2D 3A"`` -> ([0, 0, 0, 2, 0], 3): fixed essences and the number of "any"."""
    fixed = [0] * NUM_ESSENCES
    any_count = 0
    for part in text.split():
        count, letter = int(part[:-1]), part[-1]
        if letter == "A":
            any_count += count
        else:
            fixed[ESSENCES.index(letter)] += count
    return fixed, any_count


def _fixed(text: str) -> list[int]:
    fixed, any_count = parse_essences(text)
    if any_count:
        raise ValueError(f"{text!r} may not hold 'any' essences here")
    return fixed


def _compile() -> dict[str, np.ndarray]:
    """Every row as arrays: per component ``[78]`` / ``[78, 5]``, per power ``[NUM_POWERS]``."""
    n = len(ROWS)
    assert n == NUM_COMPONENTS
    out: dict[str, np.ndarray] = {}

    def comp(name: str, values) -> None:
        out[name] = np.array(values, dtype=np.int64)

    costs = [parse_essences(row.cost) for row in ROWS]
    comp("KIND", [row.kind for row in ROWS])
    comp("COST", [c[0] for c in costs])
    comp("COST_ANY", [c[1] for c in costs])
    comp("PRINTED_COST", [sum(c[0]) + c[1] for c in costs])
    comp("VP", [row.vp for row in ROWS])
    comp("IS_DRAGON", [row.dragon for row in ROWS])
    comp("IS_CREATURE", [row.creature for row in ROWS])
    comp("COLLECT", [_fixed(row.collect) for row in ROWS])
    comp("COLLECT_CHOICE", [row.collect_choice for row in ROWS])
    comp("COLLECT_MASK", [row.collect_mask for row in ROWS])
    comp("COLLECT_SPECIAL", [row.collect_special for row in ROWS])
    comp("DRAGON_DISCOUNT", [row.dragon_discount for row in ROWS])
    comp("ARTIFACT_DISCOUNT", [row.artifact_discount for row in ROWS])
    comp("CLAIM_CHOICE", [row.claim_choice for row in ROWS])
    comp("VP_PER", [ESSENCES.index(row.vp_per) if row.vp_per else -1 for row in ROWS])
    comp("VP_PER_BEAST", [row.vp_per_beast for row in ROWS])
    comp("STARTER_SET", [row.starter_set for row in ROWS])
    reactions = [row.reaction or Reaction(REACT_NONE, "") for row in ROWS]
    comp("REACT_TRIGGER", [r.trigger for r in reactions])
    comp("REACT_TURN", [r.trigger != REACT_NONE and r.turn for r in reactions])
    comp("REACT_COST", [_fixed(r.cost) for r in reactions])
    comp("REACT_PUT", [_fixed(r.put) for r in reactions])
    comp("REACT_VP", [r.vp for r in reactions])

    powers = [(cid, p) for cid, row in enumerate(ROWS) for p in row.powers]
    first = [0] * n
    count = [0] * n
    for index, (cid, _p) in reversed(list(enumerate(powers))):
        first[cid] = index
        count[cid] += 1
    comp("FIRST_POWER", first)
    comp("POWER_COUNT", count)
    power_costs = [parse_essences(p.cost) for _cid, p in powers]
    removes = [_fixed(p.remove) for _cid, p in powers]
    comp("PW_COMP", [cid for cid, _p in powers])
    comp(
        "PW_INDEX",
        [sum(1 for c, _ in powers[:i] if c == cid) for i, (cid, _p) in enumerate(powers)],
    )
    comp("PW_TURN", [p.turn for _c, p in powers])
    comp("PW_COST", [c[0] for c in power_costs])
    comp("PW_ANY", [c[1] for c in power_costs])
    comp("PW_ANY_MASK", [p.any_mask for _c, p in powers])
    comp("PW_X", [p.x_equal for _c, p in powers])
    comp("PW_REMOVE", removes)
    comp("PW_DESTROY_SELF", [p.destroy_self for _c, p in powers])
    comp("PW_SACRIFICE", [p.sacrifice for _c, p in powers])
    comp("PW_DISCARD", [p.discard for _c, p in powers])
    comp("PW_TURN_OTHER", [p.turn_other for _c, p in powers])
    comp("PW_NEEDS_TURNED", [p.needs_turned for _c, p in powers])
    comp("PW_EFFECT", [p.effect for _c, p in powers])
    comp("PW_GAIN", [_fixed(p.gain) for _c, p in powers])
    comp("PW_PUT", [_fixed(p.put) for _c, p in powers])
    comp("PW_RIVALS", [_fixed(p.rivals) for _c, p in powers])
    comp("PW_CHOICE", [p.choice for _c, p in powers])
    comp("PW_CHOICE_MASK", [p.choice_mask for _c, p in powers])
    comp("PW_CHOICE_ON_SELF", [p.choice_on_self for _c, p in powers])
    comp("PW_AMOUNT", [p.amount for _c, p in powers])
    comp("PW_PARAM", [p.param for _c, p in powers])
    comp("PW_PARAM2", [p.param2 for _c, p in powers])
    return out


_ARRAYS = _compile()
KIND = _ARRAYS["KIND"]
COST = _ARRAYS["COST"]
COST_ANY = _ARRAYS["COST_ANY"]
PRINTED_COST = _ARRAYS["PRINTED_COST"]
VP = _ARRAYS["VP"]
IS_DRAGON = _ARRAYS["IS_DRAGON"]
IS_CREATURE = _ARRAYS["IS_CREATURE"]
COLLECT = _ARRAYS["COLLECT"]
COLLECT_CHOICE = _ARRAYS["COLLECT_CHOICE"]
COLLECT_MASK = _ARRAYS["COLLECT_MASK"]
COLLECT_SPECIAL = _ARRAYS["COLLECT_SPECIAL"]
DRAGON_DISCOUNT = _ARRAYS["DRAGON_DISCOUNT"]
ARTIFACT_DISCOUNT = _ARRAYS["ARTIFACT_DISCOUNT"]
CLAIM_CHOICE = _ARRAYS["CLAIM_CHOICE"]
VP_PER = _ARRAYS["VP_PER"]
VP_PER_BEAST = _ARRAYS["VP_PER_BEAST"]
STARTER_SET = _ARRAYS["STARTER_SET"]
REACT_TRIGGER = _ARRAYS["REACT_TRIGGER"]
REACT_TURN = _ARRAYS["REACT_TURN"]
REACT_COST = _ARRAYS["REACT_COST"]
REACT_PUT = _ARRAYS["REACT_PUT"]
REACT_VP = _ARRAYS["REACT_VP"]
FIRST_POWER = _ARRAYS["FIRST_POWER"]
POWER_COUNT = _ARRAYS["POWER_COUNT"]
PW_COMP = _ARRAYS["PW_COMP"]
PW_INDEX = _ARRAYS["PW_INDEX"]
PW_TURN = _ARRAYS["PW_TURN"]
PW_COST = _ARRAYS["PW_COST"]
PW_ANY = _ARRAYS["PW_ANY"]
PW_ANY_MASK = _ARRAYS["PW_ANY_MASK"]
PW_X = _ARRAYS["PW_X"]
PW_REMOVE = _ARRAYS["PW_REMOVE"]
PW_DESTROY_SELF = _ARRAYS["PW_DESTROY_SELF"]
PW_SACRIFICE = _ARRAYS["PW_SACRIFICE"]
PW_DISCARD = _ARRAYS["PW_DISCARD"]
PW_TURN_OTHER = _ARRAYS["PW_TURN_OTHER"]
PW_NEEDS_TURNED = _ARRAYS["PW_NEEDS_TURNED"]
PW_EFFECT = _ARRAYS["PW_EFFECT"]
PW_GAIN = _ARRAYS["PW_GAIN"]
PW_PUT = _ARRAYS["PW_PUT"]
PW_RIVALS = _ARRAYS["PW_RIVALS"]
PW_CHOICE = _ARRAYS["PW_CHOICE"]
PW_CHOICE_MASK = _ARRAYS["PW_CHOICE_MASK"]
PW_CHOICE_ON_SELF = _ARRAYS["PW_CHOICE_ON_SELF"]
PW_AMOUNT = _ARRAYS["PW_AMOUNT"]
PW_PARAM = _ARRAYS["PW_PARAM"]
PW_PARAM2 = _ARRAYS["PW_PARAM2"]
NUM_POWERS = len(PW_COMP)
# the one Place of Power scoring beasts (Sorcerer's Bestiary)
BEAST_SCORER = int(np.flatnonzero(VP_PER_BEAST)[0])
# components that score by themselves (printed VP or essences stored on them)
SCORING_CIDS = np.flatnonzero((VP > 0) | (VP_PER >= 0)).astype(np.int64)
# components with a passive discount (Artificer, Dragon Bridle, Dragon's Lair)
DISCOUNT_CIDS = np.flatnonzero(DRAGON_DISCOUNT + ARTIFACT_DISCOUNT).astype(np.int64)
POWER_TEXTS = tuple(p.text for row in ROWS for p in row.powers)
REACTION_TEXTS = tuple(row.reaction.text if row.reaction else "" for row in ROWS)


def as_numpy_scalars(names: dict) -> None:
    """Integer constants as ``np.int64``: numba types a Python int global as a literal and
    compiles a separate copy of every function for each literal argument it receives, which
    multiplies compile time; a NumPy scalar is typed plain ``int64``."""
    for name, value in list(names.items()):
        if name.isupper() and type(value) is int:
            names[name] = np.int64(value)


as_numpy_scalars(globals())


def cid_of(name: str) -> int:
    """The component id of ``name`` (English name as in the table)."""
    if name not in CID:
        raise ValueError(f"unknown Res Arcana component {name!r}; known: {sorted(CID)}")
    return CID[name]


def power_id(name: str, index: int = 0) -> int:
    """Power ``index`` (0 = the card's first power, 1 = its second) of component ``name``."""
    cid = cid_of(name)
    if not 0 <= index < POWER_COUNT[cid]:
        raise ValueError(f"{name} has {POWER_COUNT[cid]} power(s); no power {index}")
    return int(FIRST_POWER[cid]) + index


def essences_text(vector) -> str:
    """``[1, 0, 0, 0, 2]`` -> ``"1 Elan + 2 Gold"`` (``"nothing"`` when empty)."""
    parts = [f"{int(n)} {ESSENCE_NAMES[e]}" for e, n in enumerate(vector) if n]
    return " + ".join(parts) if parts else "nothing"


def cost_text(cid: int) -> str:
    parts = essences_text(COST[cid]) if COST[cid].any() else ""
    if COST_ANY[cid]:
        parts = f"{parts} + {COST_ANY[cid]} any" if parts else f"{COST_ANY[cid]} any"
    return parts or "free"

"""Squad Combat (rulebook v0.5): three characters each, decks of attacks, actions and edges.

The rules as the seed states them, in the order a game plays (``rules.md`` has every reading
the truncated text left open):

* Setup: each player puts their three characters in a row, shuffles their deck and draws 5
  cards; then rolls each character's dice pool onto it, left to right. A random player goes
  first; turn order runs to the left (rising seat numbers).
* A turn: action phases in turn order, repeating, until every player has passed. In an action
  phase a player plays an action or attack card from hand, or refreshes a character's dice,
  or passes (no more actions this turn; edges still allowed).
* Performing a card: a character sharing a trait with the card pays every cost -- energy
  ``<X>``, a die of at least X for each ``[X]``, a card discard for each ``C`` -- and the card
  resolves, then is discarded.
* Attacks: pay, choose an enemy defender, the attacker's then the defender's optional die,
  modifiers, and a hit when the attack rating is at least the defense rating: the card goes
  under the defender as a wound. Wounds >= Life removes the character.
* End of turn: spent energy clears; each player may discard up to two cards, then draws up
  to the hand size. The last player with a character alive wins.

Every decision is one small action, with ``to_act`` naming whoever decides now: the card and
performer, each die paid, each card discarded, the target, the optional dice, edges in the
reaction windows, the dice kept after a refresh, the end-of-turn discards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple

from pydantic import Field, model_validator

from meeple.core.errors import NotationError
from meeple.core.game import AgentFactory, Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register
from meeple.core.rng import make_rng
from meeple.games.squad_combat.content import (
    DIE_FACES,
    FILES,
    PARTY_SIZE,
    TARGETED_EFFECTS,
    Card,
    CharacterCard,
    Content,
    ContentError,
    dice_cover,
    load_content,
)

if TYPE_CHECKING:
    import random

    from rich.console import RenderableType

SEAT_NAMES = ("Red", "Blue", "Green", "Gold")
SLOTS = "abc"
"""Characters are named by their place in the row, left to right."""
LOG_LINES = 24
"""How many recent log lines a state keeps (and every view shows)."""
END_DISCARDS = 2
"""'Each player may then discard up to two cards from their hand'."""


# -- options --------------------------------------------------------------------------------
class SquadCombatOptions(GameOptions):
    """Options of Squad Combat."""

    players: int = Field(default=2, ge=2, le=4, description="number of players (2 to 4)")
    decks: str | None = Field(
        default=None,
        description="deck ids for the seats in order, comma-separated; a shorter list repeats; "
        "default: the content's decks in file order, alternating",
        json_schema_extra={"allowed": "deck ids, e.g. iron-line,shadow-circle"},
    )
    content: str | None = Field(
        default=None,
        description="folder holding characters.toml, cards.toml and decks.toml; "
        "default: the demo content shipped with the game",
        json_schema_extra={"allowed": "a folder path", "external": list(FILES.values())},
    )
    hand_size: int = Field(default=5, ge=1, le=12, description="cards drawn up to (seed: 5)")
    first: int | Literal["random"] = Field(
        default="random",
        description="seat that takes the first turn; random draws it from the seed",
        json_schema_extra={"allowed": "random | a seat number"},
    )
    lead: Literal["fixed", "rotate"] = Field(
        default="fixed",
        description="who opens each turn: fixed = the first player every turn (as written); "
        "rotate = the next player to the left each turn",
    )
    reactions: Literal["defender-first", "attacker-first"] = Field(
        default="defender-first",
        description="order of the reaction windows of an attack, after the dice are chosen",
    )
    reaction_prompts: Literal["playable", "always"] = Field(
        default="playable",
        description="playable: a reaction window opens, and an action phase asks, only when "
        "the player has something to play; always: every time (hides what a hand holds)",
    )
    turn_limit: int = Field(
        default=100,
        ge=1,
        le=100_000,
        description="safeguard: after this many turns the game ends as a draw, and says so",
    )

    @model_validator(mode="after")
    def _fits(self) -> SquadCombatOptions:
        if self.first != "random" and not 0 <= self.first < self.players:
            raise ValueError(
                f"first must be random or a seat from 0 to {self.players - 1}, not {self.first}"
            )
        try:
            content = load_content(self.content)
            resolve_decks(self, content)
        except ContentError as exc:
            raise ValueError(str(exc)) from None
        return self


def resolve_decks(options: SquadCombatOptions, content: Content) -> tuple[str, ...]:
    """The deck id of every seat: the ``decks`` list (repeated), else the content's decks."""
    keys = content.deck_ids(options.decks)
    return tuple(keys[p % len(keys)] for p in range(options.players))


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Play:
    """Announce a card from hand, performed by your character in that slot: ``play slash by a``."""

    card: str
    slot: int

    def __str__(self) -> str:
        return f"play {self.card} by {SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Refresh:
    """Refresh the dice pool of your character in that slot (an action): ``refresh b``."""

    slot: int

    def __str__(self) -> str:
        return f"refresh {SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: no more actions this turn (edges are still allowed): ``pass``."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PayDie:
    """Pay the highest die cost still due with a die of this value: ``pay 4``."""

    value: int

    def __str__(self) -> str:
        return f"pay {self.value}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card from hand, to pay a ``C`` cost or at the end of a turn: ``discard parry``."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Target:
    """Choose the character a card acts on, by seat and slot: ``target 1b``."""

    seat: int
    slot: int

    def __str__(self) -> str:
        return f"target {self.seat}{SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Die:
    """Choose a die of this value: the attack or defense die, or the die a boost raises."""

    value: int

    def __str__(self) -> str:
        return f"die {self.value}"


@dataclass(frozen=True, slots=True)
class NoDie:
    """Decline to spend an attack or defense die (it counts as a 0): ``no die``."""

    def __str__(self) -> str:
        return "no die"


@dataclass(frozen=True, slots=True)
class Drop:
    """After a refresh, remove a die of this value from the character: ``drop 2``."""

    value: int

    def __str__(self) -> str:
        return f"drop {self.value}"


@dataclass(frozen=True, slots=True)
class Done:
    """Close a reaction window, or stop discarding at the end of the turn: ``done``."""

    def __str__(self) -> str:
        return "done"


SquadAction = Play | Refresh | Pass | PayDie | Discard | Target | Die | NoDie | Drop | Done
PASS, DONE, NO_DIE = Pass(), Done(), NoDie()

_VALUE_RE = re.compile(r"^\s*(pay|die|drop)\s+(\d)\s*$", re.IGNORECASE)
_REFRESH_RE = re.compile(r"^\s*refresh\s+([a-zA-Z])\s*$", re.IGNORECASE)
_TARGET_RE = re.compile(r"^\s*target\s+(\d)\s*([a-zA-Z])\s*$", re.IGNORECASE)
_WORDS: dict[str, SquadAction] = {"pass": PASS, "done": DONE, "no die": NO_DIE, "nodie": NO_DIE}


def _letter(word: str) -> bool:
    """True for one ASCII letter (a character slot is written as one)."""
    return len(word) == 1 and word.isascii() and word.isalpha()


def slug(text: str) -> str:
    """A card name as an id: ``Heavy Blow`` -> ``heavy-blow``."""
    return re.sub(r"[\s_]+", "-", text.strip().lower())


# -- steps: who decides what, now ---------------------------------------------------------
PHASE = "action phase"
PAY_DIE = "die payment"
PAY_CARD = "card discard payment"
TARGET = "target choice"
BOOST_DIE = "boost die choice"
ATTACK_DIE = "attack die choice"
DEFENSE_DIE = "defense die choice"
REACT = "reaction window"
DROP = "dice trim after a refresh"
END_DISCARD = "end-of-turn discard"
RESOLVE = "resolution"
OVER = "game over"

FORCED = frozenset({PAY_DIE, PAY_CARD, TARGET, BOOST_DIE, DROP})
"""Steps where a single legal choice is made for the player: only optional decisions ask."""


class Step(NamedTuple):
    """The decision pending now and the seat that makes it (-1 when nobody does)."""

    kind: str
    seat: int


class Wound(NamedTuple):
    """An attack card under a character: which card, and whose deck it came from."""

    card: int
    owner: int


class Character(NamedTuple):
    """A character in play: its card, spent energy, the dice on it and the wounds under it."""

    card: int
    """Index of its character card in the content."""
    spent: int
    """Spent energy (burden) tokens; cleared at the end of each turn."""
    dice: tuple[int, ...]
    """Values of the dice on it, lowest first."""
    wounds: tuple[Wound, ...] = ()
    removed: bool = False
    """Wounds reached its Life: it is out of the game."""


class Performance(NamedTuple):
    """A card being performed: who plays it, by which character, and what is still to settle."""

    player: int
    card: int
    slot: int
    """The performing character (the attacker, for an attack)."""
    dice_due: tuple[int, ...]
    """Die costs still to pay, highest first."""
    cards_due: int
    """Card discards still to pay."""
    target: tuple[int, int] | None = None
    """(seat, slot) of the defender, or of the character an effect acts on."""
    boost_die: int | None = None
    attack_die: int | None = None
    """Value of the attack die; 0 when declined; None until chosen."""
    defense_die: int | None = None
    attack_bonus: int = 0
    defense_bonus: int = 0
    windows: tuple[int, ...] | None = None
    """Seats still to be offered a reaction window; None until both dice are chosen."""


# -- the game -------------------------------------------------------------------------------
@register
class SquadCombatGame(Game[SquadCombatOptions, "SquadCombatState", SquadAction]):
    """Squad Combat for 2 to 4 players, on the demo content or a designer's own."""

    name: ClassVar[str] = "squad-combat"
    title: ClassVar[str] = "Squad Combat"
    summary: ClassVar[str] = (
        "Three characters each; attack, act and react with cards paid in energy, dice and cards."
    )
    Options: ClassVar[type[GameOptions]] = SquadCombatOptions
    players: ClassVar[str] = "2-4"
    perfect_information: ClassVar[bool] = False
    heuristic_agent: ClassVar[str | None] = "heuristic"

    def __init__(self, options: SquadCombatOptions) -> None:
        super().__init__(options)
        self.content: Content = load_content(options.content)
        self.deck_keys: tuple[str, ...] = resolve_decks(options, self.content)
        self.decklists: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(self.content.deck_cards(k))) for k in self.deck_keys
        )
        self.parties: tuple[tuple[int, ...], ...] = tuple(
            self.content.party(k) for k in self.deck_keys
        )
        self.cards: tuple[Card, ...] = self.content.cards
        self.characters: tuple[CharacterCard, ...] = self.content.characters
        self.card_keys: tuple[str, ...] = tuple(c.key for c in self.cards)
        self.damages: tuple[int, ...] = tuple(c.damage or 0 for c in self.cards)
        """Wound damage of each card (0 for cards that are not attacks)."""
        # 'A character must have at least one trait ... that matches a trait on the card.'
        self.matches: tuple[tuple[bool, ...], ...] = tuple(
            tuple(bool(set(ch.traits) & set(card.traits)) for card in self.cards)
            for ch in self.characters
        )
        self._build_actions()

    def _build_actions(self) -> None:
        keys = [c.key for c in self.cards]
        faces = range(1, DIE_FACES + 1)
        seats = range(self.options.players)
        actions: list[SquadAction] = [PASS, DONE, NO_DIE]
        actions += [Die(v) for v in faces]
        actions += [PayDie(v) for v in faces]
        actions += [Drop(v) for v in faces]
        actions += [Refresh(s) for s in range(PARTY_SIZE)]
        actions += [Target(p, s) for p in seats for s in range(PARTY_SIZE)]
        actions += [Play(k, s) for k in keys for s in range(PARTY_SIZE)]
        actions += [Discard(k) for k in keys]
        self._actions: tuple[SquadAction, ...] = tuple(actions)
        self._ids: dict[SquadAction, int] = {a: i for i, a in enumerate(actions)}
        # Shared objects by meaning, so that legal-move generation allocates nothing.
        self.die = {v: Die(v) for v in faces}
        self.pay = {v: PayDie(v) for v in faces}
        self.drop = {v: Drop(v) for v in faces}
        self.refresh = tuple(Refresh(s) for s in range(PARTY_SIZE))
        self.target = {(p, s): Target(p, s) for p in seats for s in range(PARTY_SIZE)}
        self.play = tuple(tuple(Play(k, s) for s in range(PARTY_SIZE)) for k in keys)
        self.discard = tuple(Discard(k) for k in keys)

    # -- seats ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """2 to 4."""
        return self.options.players

    def seat_name(self, player: Player) -> str:
        """Red, Blue, Green, Gold."""
        return SEAT_NAMES[player]

    # -- states -----------------------------------------------------------------------------
    def new_game(self, seed: int) -> SquadCombatState:
        """Set up as the rulebook says: rows of three characters, shuffled decks, 5-card
        hands, each character's dice rolled left to right, and a random first player."""
        n = self.num_players
        first = self.options.first
        if first == "random":
            first = make_rng(seed, "squad-combat", "first").randrange(n)
        order = tuple((first + k) % n for k in range(n))
        hands, decks, parties = [], [], []
        log = [f"{self.seat_name(first)} takes the first turn."]
        for seat in range(n):
            deck = list(self.decklists[seat])
            make_rng(seed, "squad-combat", "deck", seat).shuffle(deck)
            cut = max(0, len(deck) - self.options.hand_size)  # the top card is the last
            hands.append(tuple(sorted(deck[cut:])))
            decks.append(tuple(deck[:cut]))
            dice_rng = make_rng(seed, "squad-combat", "setup-dice", seat)
            party = []
            for slot, index in enumerate(self.parties[seat]):
                rolled = sorted(
                    dice_rng.randint(1, DIE_FACES) for _ in range(self.characters[index].dice_pool)
                )
                party.append(Character(index, 0, tuple(rolled)))
                log.append(
                    f"{self.seat_name(seat)} {self.characters[index].name} ({seat}{SLOTS[slot]}) "
                    f"rolls {_dice_text(rolled)}."
                )
            parties.append(tuple(party))
        log.append(f"Turn 1: {self.seat_name(first)} leads.")
        return SquadCombatState(
            game=self,
            seed=seed,
            rolls=0,
            order=order,
            turn=1,
            lead=first,
            phase=first,
            passed=(False,) * n,
            parties=tuple(parties),
            hands=tuple(hands),
            decks=tuple(decks),
            discards=((),) * n,
            log=tuple(log[-LOG_LINES:]),
        )

    # -- notation and encoding --------------------------------------------------------------
    def _parse_action(self, text: str) -> SquadAction:
        """Read an action in the notation of :meth:`notation_help`."""
        # Card names are read from the words, not by a regex: a lazy ``(.+?)`` before
        # ``\s+by`` rescanned every run of spaces from each of its positions (quadratic).
        parts = text.split()
        verb = parts[0].lower() if parts else ""
        words = " ".join(parts).lower()
        if words in _WORDS:
            return _WORDS[words]
        m = _VALUE_RE.match(text)
        if m:
            value = int(m.group(2))
            if not 1 <= value <= DIE_FACES:
                raise NotationError(f"{text!r}: a die shows 1 to {DIE_FACES}")
            verb = m.group(1).lower()
            return (self.pay if verb == "pay" else self.die if verb == "die" else self.drop)[value]
        if verb == "play" and len(parts) >= 4 and parts[-2].lower() == "by" and _letter(parts[-1]):
            return self.play[self._card(" ".join(parts[1:-2]), text)][self._slot(parts[-1], text)]
        m = _REFRESH_RE.match(text)
        if m:
            return self.refresh[self._slot(m.group(1), text)]
        m = _TARGET_RE.match(text)
        if m:
            seat = int(m.group(1))
            if seat >= self.num_players:
                raise NotationError(
                    f"{text!r}: there is no seat {seat}; seats are 0 to {self.num_players - 1}"
                )
            return self.target[(seat, self._slot(m.group(2), text))]
        if verb == "discard" and len(parts) >= 2:
            return self.discard[self._card(" ".join(parts[1:]), text)]
        raise NotationError(f"{text!r} is not a Squad Combat action; {self.notation_help()}")

    def _card(self, name: str, text: str) -> int:
        key = slug(name)
        index = self.content.card_index.get(key)
        if index is None:
            known = ", ".join(c.key for c in self.cards)
            raise NotationError(f"{text!r}: there is no card {key!r}; the cards are: {known}")
        return index

    def _slot(self, letter: str, text: str) -> int:
        slot = SLOTS.find(letter.lower())
        if slot < 0:
            raise NotationError(f"{text!r}: characters are a, b and c, left to right")
        return slot

    def notation_help(self) -> str:
        """How to write an action."""
        return (
            "write 'play <card> by <a|b|c>', 'refresh <a|b|c>', 'pass', 'pay <die>', "
            "'discard <card>', 'target <seat><a|b|c>' (e.g. target 1b), 'die <value>', "
            "'no die', 'drop <value>' or 'done'"
        )

    @property
    def num_actions(self) -> int:
        """Fixed words and dice, refreshes, targets, then a play per card and slot and a
        discard per card of the content."""
        return len(self._actions)

    def action_id(self, action: SquadAction) -> int:
        """The stable id: ``pass``, ``done``, ``no die``, ``die 1-6``, ``pay 1-6``,
        ``drop 1-6``, ``refresh a-c``, ``target`` seat by slot, ``play`` card by slot,
        ``discard`` card (cards in content order)."""
        try:
            return self._ids[action]
        except KeyError:
            raise ValueError(f"{action!r} is not an action of this game") from None

    def action_from_id(self, action_id: int) -> SquadAction:
        """The action with this id; ValueError if out of range."""
        if not 0 <= action_id < len(self._actions):
            raise ValueError(f"action id {action_id} is outside 0..{len(self._actions) - 1}")
        return self._actions[action_id]

    # -- extras -----------------------------------------------------------------------------
    def card_list(self) -> list[dict[str, Any]]:
        """Every action, attack and edge card of the content, as JSON: views name cards by
        id only, and the browser draws each with its name, cost (as written), traits and
        what it does."""
        return [
            {
                "id": card.key,
                "name": card.name,
                "kind": card.kind,
                "traits": list(card.traits),
                "cost": str(card.cost),
                "hit": card.hit,
                "damage": card.damage,
                "effect": card.effect,
                "amount": card.amount,
                "timing": card.timing,
                "text": card.describe(),
            }
            for card in self.cards
        ]

    def agents(self) -> Mapping[str, AgentFactory]:
        """``heuristic``: attacks where it hits, defends where it saves a wound."""
        from meeple.games.squad_combat.agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, state: SquadCombatState, player: Player | None = None) -> RenderableType:
        """The table, the seat's hand, the pending decision and the log."""
        from meeple.games.squad_combat.render import render_state

        return render_state(state, player)

    def who(self, seat: int, slot: int, state: _Table | SquadCombatState) -> str:
        """``Red Vanguard (0a)``: a character as logs name it."""
        card = self.characters[state.parties[seat][slot].card]
        return f"{SEAT_NAMES[seat]} {card.name} ({seat}{SLOTS[slot]})"


def _dice_text(dice: Any) -> str:
    return " ".join(map(str, dice)) if dice else "no dice"


# -- reading a position (shared by states and the working copy of a transition) -------------
class _Reading:
    """Questions about a position; every answer depends only on the fields."""

    __slots__ = ()
    game: SquadCombatGame
    order: tuple[int, ...]
    phase: int
    passed: tuple[bool, ...]
    parties: tuple[tuple[Character, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    decks: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    stack: tuple[Performance, ...]
    dropping: int
    discarding: tuple[int, ...]
    ended: str | None

    @property
    def step(self) -> Step:
        """The decision pending now, and the seat that makes it."""
        return self.find_step()

    def find_step(self) -> Step:
        """Work out :attr:`step` from the fields."""
        if self.ended is not None:
            return Step(OVER, -1)
        if self.discarding:
            return Step(END_DISCARD, self.discarding[0])
        if self.dropping >= 0:
            return Step(DROP, self.phase)
        if not self.stack:
            return Step(PHASE, self.phase)
        perf = self.stack[-1]
        card = self.game.cards[perf.card]
        if perf.dice_due:
            return Step(PAY_DIE, perf.player)
        if perf.cards_due:
            return Step(PAY_CARD, perf.player)
        needs_target = card.kind == "attack" or card.effect in TARGETED_EFFECTS
        if needs_target and perf.target is None:
            return Step(TARGET, perf.player)
        if card.effect == "boost" and perf.boost_die is None:
            return Step(BOOST_DIE, perf.player)
        if card.kind == "attack":
            if perf.attack_die is None:
                return Step(ATTACK_DIE, perf.player)
            if perf.defense_die is None:
                assert perf.target is not None
                return Step(DEFENSE_DIE, perf.target[0])
            if perf.windows:
                return Step(REACT, perf.windows[0])
        return Step(RESOLVE, perf.player)

    def alive(self, seat: int) -> bool:
        """Whether the seat still has a character in play."""
        return any(not c.removed for c in self.parties[seat])

    def energy_left(self, seat: int, slot: int) -> int:
        """The character's energy minus its spent energy."""
        ch = self.parties[seat][slot]
        return self.game.characters[ch.card].energy - ch.spent

    def damage(self, seat: int, slot: int) -> int:
        """Total damage of the wounds under the character."""
        damages = self.game.damages
        return sum(damages[w.card] for w in self.parties[seat][slot].wounds)

    def can_perform(self, seat: int, slot: int, card: int, hand_after: int) -> bool:
        """'Performing actions and edges': a character in play that shares a trait with the
        card, has the energy, dice of at least each die cost, and ``hand_after`` cards left
        in its controller's hand for the card costs."""
        ch = self.parties[seat][slot]
        game = self.game
        if ch.removed or not game.matches[ch.card][card]:
            return False
        cost = game.cards[card].cost
        if cost.energy and game.characters[ch.card].energy - ch.spent < cost.energy:
            return False
        if cost.dice and not dice_cover(ch.dice, cost.dice):
            return False
        return hand_after >= cost.cards

    def effect_targets(self, seat: int, card: Card) -> list[tuple[int, int]]:
        """The characters a card may target when played by ``seat``: any enemy character for
        an attack; for an effect, one of the seat's own characters it would change."""
        out = []
        if card.kind == "attack":
            for other, party in enumerate(self.parties):
                if other != seat:
                    out += [(other, s) for s, ch in enumerate(party) if not ch.removed]
            return out
        amount = card.amount or 0
        cards = self.game.cards
        for slot, ch in enumerate(self.parties[seat]):
            if ch.removed:
                continue
            if card.effect == "heal":
                ok = any((cards[w.card].damage or 0) <= amount for w in ch.wounds)
            elif card.effect == "boost":
                ok = bool(ch.dice) and ch.dice[0] < DIE_FACES
            elif card.effect == "energy":
                ok = ch.spent > 0
            else:
                ok = False
            if ok:
                out.append((seat, slot))
        return out

    def playable(self, seat: int, timings: tuple[str, ...]) -> list[Play]:
        """Cards in ``seat``'s hand it may announce now: action and attack cards when
        ``timings`` includes ``action``, edges of the given timings; each with every
        character able to perform it."""
        game = self.game
        hand = self.hands[seat]
        out: list[Play] = []
        previous = -1
        for k in hand:
            if k == previous:
                continue  # the hand is sorted: copies of a card make one choice
            previous = k
            card = game.cards[k]
            timing = "action" if card.kind != "edge" else card.timing
            if timing not in timings:
                continue
            # A card that acts on one of your characters needs one it would change.
            if card.effect in TARGETED_EFFECTS and not self.effect_targets(seat, card):
                continue
            plays = game.play[k]
            out += [
                plays[s] for s in range(PARTY_SIZE) if self.can_perform(seat, s, k, len(hand) - 1)
            ]
        return out

    def window_timings(self, seat: int) -> tuple[str, ...]:
        """Edge timings ``seat`` may use in the reaction window of the attack on the stack."""
        perf = self.stack[-1]
        assert perf.target is not None
        role = "defending" if seat == perf.target[0] else "attacking"
        return ("anytime", role)

    def legal(self, player: Player) -> list[SquadAction]:
        """Every action ``player`` may take now."""
        kind, seat = self.step
        if player != seat:
            return []
        game = self.game
        if kind == PHASE:
            actions: list[SquadAction] = list(self.playable(seat, ("action", "anytime")))
            for slot, ch in enumerate(self.parties[seat]):
                if not ch.removed and self.energy_left(seat, slot) >= (
                    game.characters[ch.card].refresh
                ):
                    actions.append(game.refresh[slot])
            actions.append(PASS)
            return actions
        if kind == END_DISCARD:
            return [game.discard[k] for k in sorted(set(self.hands[seat]))] + [DONE]
        if kind == DROP:
            dice = self.parties[seat][self.dropping].dice
            return [game.drop[v] for v in sorted(set(dice))]
        perf = self.stack[-1]
        if kind == PAY_DIE:
            dice = self.parties[seat][perf.slot].dice
            return [game.pay[v] for v in sorted(set(dice)) if v >= perf.dice_due[0]]
        if kind == PAY_CARD:
            return [game.discard[k] for k in sorted(set(self.hands[seat]))]
        if kind == TARGET:
            card = game.cards[perf.card]
            return [game.target[t] for t in self.effect_targets(seat, card)]
        if kind == BOOST_DIE:
            assert perf.target is not None
            dice = self.parties[perf.target[0]][perf.target[1]].dice
            return [game.die[v] for v in sorted(set(dice)) if v < DIE_FACES]
        if kind in (ATTACK_DIE, DEFENSE_DIE):
            assert perf.target is not None
            owner, slot = (seat, perf.slot) if kind == ATTACK_DIE else perf.target
            return [NO_DIE] + [game.die[v] for v in sorted(set(self.parties[owner][slot].dice))]
        if kind == REACT:
            return [*self.playable(seat, self.window_timings(seat)), DONE]
        return []


# -- the state ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SquadCombatState(_Reading, State[SquadAction]):
    """A position: the characters on the table, every hand, deck and discard pile, the turn,
    and the card being performed (with any edge played in reaction to it)."""

    game: SquadCombatGame
    seed: int
    """Seed of the dice and reshuffles still to come (determinize resamples it)."""
    rolls: int
    """Random events so far: each roll or reshuffle draws from the stream numbered by it."""
    order: tuple[int, ...]
    """Seats in turn order, the first player first."""
    turn: int
    lead: int
    """The seat that opens this turn."""
    phase: int
    """The seat whose action phase it is."""
    passed: tuple[bool, ...]
    """Seats that passed this turn (and seats with no character left)."""
    parties: tuple[tuple[Character, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    """Card indices in each hand, sorted: a hand has no order."""
    decks: tuple[tuple[int, ...], ...]
    """Card indices in each deck; the top card is the last."""
    discards: tuple[tuple[int, ...], ...]
    """Each discard pile, oldest first; public."""
    stack: tuple[Performance, ...] = ()
    """Cards being performed; an edge played in reaction sits above the attack."""
    dropping: int = -1
    """Slot of the phase player's character choosing dice to keep after a refresh."""
    discarding: tuple[int, ...] = ()
    """Seats still to make their end-of-turn discards, the deciding seat first."""
    discarded: int = 0
    """End-of-turn discards made so far by the deciding seat."""
    winner: int | None = None
    ended: str | None = None
    """Why the game ended; None while it goes on."""
    log: tuple[str, ...] = ()
    """The most recent things that happened, oldest first (public facts only)."""
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The step and legal actions, worked out once per state (a state never changes)."""

    # -- whose turn -------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        """The decision pending now, and the seat that makes it."""
        step = self._cache.get("step")
        if step is None:
            step = self._cache["step"] = self.find_step()
        return step

    @property
    def to_act(self) -> tuple[Player, ...]:
        """The seat that decides now; nobody once the game is over."""
        seat = self.step.seat
        return () if seat < 0 else (seat,)

    def legal_actions(self, player: Player) -> list[SquadAction]:
        """Every action ``player`` may take now (computed once per state)."""
        # A copy: the cached list is the state's own, and a caller editing it would change
        # which moves this state accepts.
        return list(self._legal_cached(player))

    def _legal_cached(self, player: Player) -> list[SquadAction]:
        cached = self._cache.get(player)
        if cached is None:
            cached = self._cache[player] = self.legal(player)
        return cached

    def why_illegal(self, player: Player, action: SquadAction) -> str | None:
        """A specific reason, naming the pending decision and what the rules require."""
        if action in self._legal_cached(player):
            return None
        return _explain(self, player, action)

    def _next(self, player: Player, action: SquadAction) -> SquadCombatState:
        table = _Table(self)
        table.act(player, action)
        table.settle()
        return table.freeze()

    # -- outcome ----------------------------------------------------------------------------
    @property
    def returns(self) -> tuple[float, ...]:
        """+1 for the last player with a character alive, -1 for the others; 0 on a draw."""
        n = self.game.num_players
        if self.ended is None or self.winner is None:
            return (0.0,) * n
        return tuple(1.0 if p == self.winner else -1.0 for p in range(n))

    @property
    def result(self) -> dict[str, Any]:
        """Winner, why the game ended, the turn, and what is left of each party."""
        game = self.game
        return {
            "over": self.ended is not None,
            "reason": self.ended,
            "winner": self.winner,
            "winner_name": None if self.winner is None else game.seat_name(self.winner),
            "turn": self.turn,
            "characters_left": [sum(not c.removed for c in party) for party in self.parties],
            "life_left": [
                sum(
                    game.characters[c.card].life - self.damage(seat, slot)
                    for slot, c in enumerate(party)
                    if not c.removed
                )
                for seat, party in enumerate(self.parties)
            ],
        }

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """The table is public (dice values, energy, wounds, discard piles, the card being
        performed); a seat sees its own hand and only the size of other hands and of decks."""
        game = self.game
        keys = game.card_keys
        kind, seat = self.step
        return {
            "game": game.name,
            "seats": [game.seat_name(p) for p in range(game.num_players)],
            "decks": list(game.deck_keys),
            "order": list(self.order),
            "turn": self.turn,
            "lead": self.lead,
            "phase": self.phase,
            "passed": list(self.passed),
            "step": {"kind": kind, "seat": seat},
            "to_act": list(self.to_act),
            "characters": [
                [self._character_view(s, slot) for slot in range(PARTY_SIZE)]
                for s in range(game.num_players)
            ],
            "hand": None if player is None else [keys[k] for k in self.hands[player]],
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": [len(d) for d in self.decks],
            "discards": [[keys[k] for k in pile] for pile in self.discards],
            "stack": [_performance_view(game, p) for p in self.stack],
            "dropping": self.dropping,
            "discarding": list(self.discarding),
            "discarded": self.discarded,
            "log": list(self.log),
            "result": self.result,
        }

    def _character_view(self, seat: int, slot: int) -> dict[str, Any]:
        game = self.game
        ch = self.parties[seat][slot]
        card = game.characters[ch.card]
        keys, damages = game.card_keys, game.damages
        return {
            "ref": f"{seat}{SLOTS[slot]}",
            "id": card.key,
            "name": card.name,
            "traits": list(card.traits),
            "life": card.life,
            "damage": sum(damages[w.card] for w in ch.wounds),
            "wounds": [
                {"card": keys[w.card], "owner": w.owner, "damage": damages[w.card]}
                for w in ch.wounds
            ],
            "energy": card.energy,
            "spent": ch.spent,
            "dice": list(ch.dice),
            "dice_pool": card.dice_pool,
            "refresh": card.refresh,
            "removed": ch.removed,
        }

    def determinize(self, player: Player, rng: random.Random) -> SquadCombatState:
        """Resample what ``player`` cannot know: the other hands (from the cards their
        owners have not shown: hand and deck together), the order of every deck, and the
        seed of the dice still to be rolled."""
        hands = list(self.hands)
        decks = list(self.decks)
        for seat in range(self.game.num_players):
            if seat == player:
                decks[seat] = _shuffled(decks[seat], rng)
                continue
            pool = _shuffled(hands[seat] + decks[seat], rng)
            size = len(hands[seat])
            hands[seat] = tuple(sorted(pool[:size]))
            decks[seat] = pool[size:]
        state = replace(self, hands=tuple(hands), decks=tuple(decks), seed=rng.getrandbits(62))
        # The step is public and the seat's own legal actions depend on nothing resampled.
        for key in ("step", player):
            if key in self._cache:
                state._cache[key] = self._cache[key]
        return state

    @property
    def top(self) -> Performance | None:
        """The card being performed now (the topmost, when an edge answers an attack)."""
        return self.stack[-1] if self.stack else None


def _shuffled(cards: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """The cards in a random order drawn from ``rng`` alone: starting from the sorted cards,
    so the order they were in cannot shine through (keyed sorting is a fast shuffle)."""
    return tuple(sorted(sorted(cards), key=lambda _: rng.random()))


def _performance_view(game: SquadCombatGame, perf: Performance) -> dict[str, Any]:
    card = game.cards[perf.card]
    return {
        "player": perf.player,
        "card": card.key,
        "performer": f"{perf.player}{SLOTS[perf.slot]}",
        "dice_due": list(perf.dice_due),
        "cards_due": perf.cards_due,
        "target": None if perf.target is None else f"{perf.target[0]}{SLOTS[perf.target[1]]}",
        "boost_die": perf.boost_die,
        "attack_die": perf.attack_die,
        "defense_die": perf.defense_die,
        "attack_bonus": perf.attack_bonus,
        "defense_bonus": perf.defense_bonus,
        "windows": None if perf.windows is None else list(perf.windows),
    }


# -- transitions ----------------------------------------------------------------------------
_FIELDS = tuple(f.name for f in fields(SquadCombatState) if f.init and f.name != "game")
"""The fields a transition may change, in the order the state's constructor takes them."""
_read_fields = attrgetter(*_FIELDS)


class _Table(_Reading):
    """A working copy of a state that one transition changes, then freezes into a state."""

    __slots__ = ("game", "known", *_FIELDS)

    def __init__(self, state: SquadCombatState) -> None:
        self.game = state.game
        self.known: tuple[Step, list[SquadAction]] | None = None
        for name, value in zip(_FIELDS, _read_fields(state), strict=True):
            setattr(self, name, value)

    def freeze(self) -> SquadCombatState:
        """The new state (with the legal actions settle worked out, if it did)."""
        state = SquadCombatState(self.game, *_read_fields(self))
        if self.known is not None:
            step, legal = self.known
            if step == state.step:
                state._cache[step.seat] = legal
        return state

    # -- small changes ----------------------------------------------------------------------
    def say(self, line: str) -> None:
        """Add a line to the log."""
        self.log = (*self.log[-(LOG_LINES - 1) :], line)

    def name(self, seat: int) -> str:
        """The seat's name (Red, Blue, ...)."""
        return self.game.seat_name(seat)

    def who(self, seat: int, slot: int) -> str:
        """A character as the log names it."""
        return self.game.who(seat, slot, self)

    def set_character(self, seat: int, slot: int, ch: Character) -> None:
        """Put the changed character back in its place."""
        party = self.parties[seat]
        self.parties = _set(self.parties, seat, _set(party, slot, ch))

    def rng(self, purpose: str) -> random.Random:
        """The stream of the next random event, numbered so that a record replays it."""
        self.rolls += 1
        return make_rng(self.seed, "squad-combat", purpose, self.rolls)

    def take_from_hand(self, seat: int, card: int) -> None:
        """Remove one copy of a card from the seat's hand."""
        hand = list(self.hands[seat])
        hand.remove(card)
        self.hands = _set(self.hands, seat, tuple(hand))

    def to_discard(self, owner: int, card: int) -> None:
        """Put a card on top of its owner's discard pile."""
        self.discards = _set(self.discards, owner, (*self.discards[owner], card))

    def spend_die(self, seat: int, slot: int, value: int) -> None:
        """Remove a die of this value from the character."""
        ch = self.parties[seat][slot]
        dice = list(ch.dice)
        dice.remove(value)
        self.set_character(seat, slot, ch._replace(dice=tuple(dice)))

    def draw(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards; an empty deck is replaced by its shuffled discards."""
        drawn = 0
        for _ in range(count):
            if not self.decks[seat]:
                pile = list(self.discards[seat])
                if not pile:
                    break
                self.rng("reshuffle").shuffle(pile)
                self.decks = _set(self.decks, seat, tuple(pile))
                self.discards = _set(self.discards, seat, ())
                self.say(f"{self.name(seat)} shuffles {len(pile)} discarded cards into a new deck.")
            deck = self.decks[seat]
            self.decks = _set(self.decks, seat, deck[:-1])
            self.hands = _set(self.hands, seat, tuple(sorted((*self.hands[seat], deck[-1]))))
            drawn += 1
        return drawn

    def replace_top(self, **changes: Any) -> None:
        """Change the card being performed on top of the stack."""
        self.stack = (*self.stack[:-1], self.stack[-1]._replace(**changes))

    # -- one action -------------------------------------------------------------------------
    def act(self, player: int, action: SquadAction) -> None:
        """Apply a legal action of ``player`` at the pending step."""
        kind = self.step.kind
        game = self.game
        if isinstance(action, Play):
            self.announce(player, game.content.card_index[action.card], action.slot)
        elif isinstance(action, Pass):
            self.passed = _set(self.passed, player, True)
            self.say(f"{self.name(player)} passes.")
            self.advance_phase(player)
        elif isinstance(action, Refresh):
            self.refresh_dice(player, action.slot)
        elif isinstance(action, Drop):
            self.drop_die(player, action.value)
        elif isinstance(action, PayDie):
            perf = self.stack[-1]
            self.spend_die(player, perf.slot, action.value)
            self.replace_top(dice_due=perf.dice_due[1:])
            self.say(
                f"{self.who(player, perf.slot)} spends a {action.value} for [{perf.dice_due[0]}]."
            )
        elif isinstance(action, Discard):
            k = game.content.card_index[action.card]
            self.take_from_hand(player, k)
            self.to_discard(player, k)
            if kind == PAY_CARD:
                self.replace_top(cards_due=self.stack[-1].cards_due - 1)
                self.say(f"{self.name(player)} discards {game.cards[k].name} to pay C.")
            else:
                self.discarded += 1
                self.say(f"{self.name(player)} discards {game.cards[k].name}.")
                if self.discarded >= END_DISCARDS:
                    self.finish_discards(player)
        elif isinstance(action, Target):
            self.replace_top(target=(action.seat, action.slot))
            perf = self.stack[-1]
            self.say(f"{game.cards[perf.card].name} targets {self.who(action.seat, action.slot)}.")
        elif isinstance(action, Die | NoDie):
            self.choose_die(player, kind, action.value if isinstance(action, Die) else 0)
        elif isinstance(action, Done):
            if kind == REACT:
                windows = self.stack[-1].windows or ()
                self.replace_top(windows=windows[1:])
            else:
                self.finish_discards(player)

    def announce(self, seat: int, card: int, slot: int) -> None:
        """'Announce you are playing the card. Pay for any costs': the card leaves the hand,
        energy is spent at once; dice and card costs follow as decisions."""
        spec = self.game.cards[card]
        self.take_from_hand(seat, card)
        ch = self.parties[seat][slot]
        if spec.cost.energy:
            self.set_character(seat, slot, ch._replace(spent=ch.spent + spec.cost.energy))
        self.stack = (
            *self.stack,
            Performance(seat, card, slot, spec.cost.dice, spec.cost.cards),
        )
        self.say(f"{self.who(seat, slot)} plays {spec.name} ({spec.cost}).")

    def refresh_dice(self, seat: int, slot: int) -> None:
        """'Pay the character's dice refresh energy cost to roll a number of dice equal to
        the character's dice pool value and add them to the character.'"""
        ch = self.parties[seat][slot]
        card = self.game.characters[ch.card]
        rng = self.rng("refresh")
        rolled = [rng.randint(1, DIE_FACES) for _ in range(card.dice_pool)]
        dice = tuple(sorted((*ch.dice, *rolled)))
        self.set_character(seat, slot, ch._replace(spent=ch.spent + card.refresh, dice=dice))
        self.say(
            f"{self.who(seat, slot)} refreshes ({card.refresh} energy) and rolls "
            f"{_dice_text(sorted(rolled))}: dice {_dice_text(dice)}."
        )
        if len(dice) > card.dice_pool:
            self.dropping = slot
        else:
            self.advance_phase(seat)

    def drop_die(self, seat: int, value: int) -> None:
        """'Remove dice from the character until they no longer have more dice on them than
        their dice pool value', the player choosing which."""
        slot = self.dropping
        self.spend_die(seat, slot, value)
        ch = self.parties[seat][slot]
        if len(ch.dice) <= self.game.characters[ch.card].dice_pool:
            self.dropping = -1
            self.say(f"{self.who(seat, slot)} keeps {_dice_text(ch.dice)}.")
            self.advance_phase(seat)

    def choose_die(self, seat: int, kind: str, value: int) -> None:
        """The boost die, or attack step 3: the attack die, then the defense die (0 when
        declined). Once both are chosen the reaction windows open."""
        perf = self.stack[-1]
        game = self.game
        if kind == BOOST_DIE:
            self.replace_top(boost_die=value)
            return
        assert perf.target is not None
        if kind == ATTACK_DIE:
            owner, slot = seat, perf.slot
            self.replace_top(attack_die=value)
            role = "attack"
        else:
            owner, slot = perf.target
            first, second = (owner, perf.player)
            if game.options.reactions == "attacker-first":
                first, second = second, first
            self.replace_top(defense_die=value, windows=(first, second))
            role = "defense"
        if value:
            self.spend_die(owner, slot, value)
            self.say(f"{self.who(owner, slot)} spends a {value} as the {role} die.")
        else:
            self.say(f"{self.who(owner, slot)} declines the {role} die (counts as 0).")

    # -- resolving --------------------------------------------------------------------------
    def resolve(self) -> None:
        """Resolve the top card, discard it (or attach it as a wound), and move on."""
        perf = self.stack[-1]
        self.stack = self.stack[:-1]
        card = self.game.cards[perf.card]
        attached = False
        if card.kind == "attack":
            attached = self.resolve_attack(perf, card)
        else:
            self.resolve_effect(perf, card)
        if not attached:
            self.to_discard(perf.player, perf.card)
        if self.ended is None and card.kind != "edge":
            # An action or attack was the player's action; an edge takes no action phase.
            self.advance_phase(perf.player)

    def resolve_attack(self, perf: Performance, card: Card) -> bool:
        """Attack steps 4 and 5: ratings with modifiers; a hit puts the card under the
        defender as a wound. Returns whether the card was attached."""
        assert perf.target is not None and perf.attack_die is not None
        assert perf.defense_die is not None
        seat, slot = perf.target
        attack = perf.attack_die + (card.hit or 0) + perf.attack_bonus
        defense = perf.defense_die + perf.defense_bonus
        defender = self.who(seat, slot)
        if attack < defense:
            self.say(f"{card.name} misses {defender}: attack {attack} < defense {defense}.")
            return False
        ch = self.parties[seat][slot]
        ch = ch._replace(wounds=(*ch.wounds, Wound(perf.card, perf.player)))
        self.set_character(seat, slot, ch)
        life = self.game.characters[ch.card].life
        damage = self.damage(seat, slot)
        self.say(
            f"{card.name} hits {defender}: attack {attack} >= defense {defense}; "
            f"wound of {card.damage} ({damage}/{life})."
        )
        if damage >= life:
            self.remove_character(seat, slot)
        return True

    def remove_character(self, seat: int, slot: int) -> None:
        """'If a character ever has a wound value ... greater than or equal to its life,
        remove it from the game.' Its wound cards go to their owners' discard piles."""
        ch = self.parties[seat][slot]
        self.say(f"{self.who(seat, slot)} is removed from the game.")
        for w in ch.wounds:
            self.to_discard(w.owner, w.card)
        self.set_character(seat, slot, ch._replace(wounds=(), dice=(), removed=True))
        if not self.alive(seat):
            self.passed = _set(self.passed, seat, True)
            self.say(f"{self.name(seat)} has no character left.")
            alive = [s for s in range(self.game.num_players) if self.alive(s)]
            if len(alive) == 1:
                self.end(alive[0], "last player with a character alive")

    def resolve_effect(self, perf: Performance, card: Card) -> None:
        """An action's or edge's effect (see ``content.EFFECT_HELP``)."""
        amount = card.amount or 0
        effect = card.effect
        if effect in ("defense", "attack"):
            # Played in a reaction window: the attack it answers is below it.
            bonus = "defense_bonus" if effect == "defense" else "attack_bonus"
            outer = self.stack[-1]
            self.replace_top(**{bonus: getattr(outer, bonus) + amount})
            self.say(f"{card.name}: {effect} +{amount}.")
            return
        if effect == "draw":
            drawn = self.draw(perf.player, amount)
            self.say(f"{card.name}: {self.name(perf.player)} draws {drawn} card(s).")
            return
        assert perf.target is not None
        seat, slot = perf.target
        ch = self.parties[seat][slot]
        if effect == "heal":
            cards = self.game.cards
            eligible = [w for w in ch.wounds if (cards[w.card].damage or 0) <= amount]
            # The worst wound it can treat; the latest of equals.
            best = max(reversed(eligible), key=lambda w: cards[w.card].damage or 0)
            wounds = list(ch.wounds)
            del wounds[len(wounds) - 1 - wounds[::-1].index(best)]
            self.set_character(seat, slot, ch._replace(wounds=tuple(wounds)))
            self.to_discard(best.owner, best.card)
            self.say(
                f"{card.name} removes a wound of {cards[best.card].damage} from "
                f"{self.who(seat, slot)}."
            )
        elif effect == "boost":
            assert perf.boost_die is not None
            dice = list(ch.dice)
            dice.remove(perf.boost_die)
            new = min(DIE_FACES, perf.boost_die + amount)
            self.set_character(seat, slot, ch._replace(dice=tuple(sorted((*dice, new)))))
            self.say(f"{card.name} turns {self.who(seat, slot)}'s {perf.boost_die} into {new}.")
        elif effect == "energy":
            self.set_character(seat, slot, ch._replace(spent=max(0, ch.spent - amount)))
            self.say(f"{card.name} restores energy to {self.who(seat, slot)}.")

    def fizzle(self) -> None:
        """A card whose last target vanished while its costs were paid has no effect."""
        perf = self.stack[-1]
        card = self.game.cards[perf.card]
        self.stack = self.stack[:-1]
        self.to_discard(perf.player, perf.card)
        self.say(f"{card.name} has no target left and no effect.")
        if card.kind != "edge":
            self.advance_phase(perf.player)

    # -- turns ------------------------------------------------------------------------------
    def advance_phase(self, seat: int) -> None:
        """The next action phase goes to the next player in turn order who has not passed;
        when everyone has passed, the turn ends."""
        order = self.order
        n = len(order)
        i = order.index(seat)
        for k in range(1, n + 1):
            nxt = order[(i + k) % n]
            if not self.passed[nxt]:
                self.phase = nxt
                return
        self.end_turn()

    def end_turn(self) -> None:
        """'Remove all spent focus counters from characters in play', then the discards."""
        self.say(f"Turn {self.turn} ends: spent energy clears.")
        self.parties = tuple(
            tuple(c._replace(spent=0) if c.spent else c for c in party) for party in self.parties
        )
        n = len(self.order)
        i = self.order.index(self.lead)
        self.discarding = tuple(
            s for s in (self.order[(i + k) % n] for k in range(n)) if self.alive(s)
        )
        self.discarded = 0

    def finish_discards(self, seat: int) -> None:
        """The deciding seat draws up to its hand size; then the next seat discards."""
        want = self.game.options.hand_size - len(self.hands[seat])
        if want > 0:
            drawn = self.draw(seat, want)
            self.say(f"{self.name(seat)} draws {drawn} card(s).")
        self.discarding = self.discarding[1:]
        self.discarded = 0
        if not self.discarding:
            self.start_turn()

    def start_turn(self) -> None:
        """A new turn: everyone with a character in play gets action phases again."""
        game = self.game
        if not self.can_still_wound():
            self.end(None, "no character left can ever wound another (stalemate)")
            return
        if self.turn >= game.options.turn_limit:
            self.end(None, f"turn limit of {game.options.turn_limit} reached (safeguard)")
            return
        self.turn += 1
        alive = [s for s in self.order if self.alive(s)]
        if game.options.lead == "rotate":
            i = self.order.index(self.lead)
            n = len(self.order)
            self.lead = next(
                s for s in (self.order[(i + k) % n] for k in range(1, n + 1)) if s in alive
            )
        else:
            self.lead = alive[0]
        self.passed = tuple(not self.alive(s) for s in range(game.num_players))
        self.phase = self.lead
        self.say(f"Turn {self.turn}: {self.name(self.lead)} leads.")

    def can_still_wound(self) -> bool:
        """Whether any player could ever wound again: some living character of theirs can
        perform one of their attack cards (or a heal, which may bring an attack back) that is
        not stuck under a character, given enough turns to gather energy, dice and cards."""
        game = self.game
        for seat in range(game.num_players):
            if not self.alive(seat):
                continue
            owned = set(self.hands[seat]) | set(self.decks[seat]) | set(self.discards[seat])
            total = len(self.hands[seat]) + len(self.decks[seat]) + len(self.discards[seat])
            for k in owned:
                card = game.cards[k]
                if card.kind != "attack" and card.effect != "heal":
                    continue
                cost = card.cost
                for ch in self.parties[seat]:
                    spec = game.characters[ch.card]
                    if (
                        not ch.removed
                        and game.matches[ch.card][k]
                        and spec.energy >= cost.energy
                        and spec.dice_pool >= len(cost.dice)
                        and total - 1 >= cost.cards
                    ):
                        return True
        return False

    def end(self, winner: int | None, reason: str) -> None:
        """The game is over: a winner, or a draw (None), and why."""
        self.winner = winner
        self.ended = reason
        self.discarding = ()
        self.dropping = -1
        verdict = "a draw" if winner is None else f"{self.name(winner)} wins"
        self.say(f"Game over ({reason}): {verdict}.")

    # -- automatic steps --------------------------------------------------------------------
    def settle(self) -> None:
        """Carry the game on until someone has a real decision: resolve what is complete,
        make forced single choices, and skip windows and discards with nothing to decide."""
        # Under 'playable' prompts a seat is asked only when it has a choice to make.
        ask_only_choices = self.game.options.reaction_prompts == "playable"
        while True:
            kind, seat = self.step
            if kind == OVER:
                return
            if kind == RESOLVE:
                self.resolve()
                continue
            if kind == END_DISCARD and not self.hands[seat]:
                self.finish_discards(seat)
                continue
            if (
                kind == REACT
                and ask_only_choices
                and not self.playable(seat, self.window_timings(seat))
            ):
                self.replace_top(windows=(self.stack[-1].windows or ())[1:])
                continue
            if kind in FORCED:
                legal = self.legal(seat)
                if not legal:
                    self.fizzle()
                    continue
                if len(legal) == 1:
                    self.act(seat, legal[0])
                    continue
                self.known = (Step(kind, seat), legal)
            elif kind in (ATTACK_DIE, DEFENSE_DIE) or (kind == PHASE and ask_only_choices):
                # No die to spend (public), or nothing to do but pass (says the hand is dead).
                legal = self.legal(seat)
                if len(legal) == 1:
                    self.act(seat, legal[0])
                    continue
                self.known = (Step(kind, seat), legal)
            return


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _explain(state: SquadCombatState, player: Player, action: SquadAction) -> str:
    """Why an action is not legal now, in the rulebook's terms."""
    game = state.game
    kind, seat = state.step
    legal = state.legal_actions(player)
    shown = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
    now = f"now it is {game.seat_name(seat)}'s {kind}; legal: {shown}"
    reason = _specific_reason(state, player, kind, action)
    return f"{reason}; {now}" if reason else f"{action} is not possible: {now}"


def _specific_reason(
    state: SquadCombatState, player: Player, kind: str, action: SquadAction
) -> str | None:
    game = state.game
    perf = state.top
    if isinstance(action, Play) and kind in (PHASE, REACT):
        k = game.content.card_index.get(action.card)
        if k is None:
            return None
        card = game.cards[k]
        ch = state.parties[player][action.slot]
        spec = game.characters[ch.card]
        if k not in state.hands[player]:
            return f"{game.seat_name(player)} has no {card.name} in hand"
        if kind == PHASE and card.kind == "edge" and card.timing != "anytime":
            return f"{card.name} is played only when {card.timing}"
        if kind == REACT and card.kind != "edge":
            return f"only edges are played in a reaction window; {card.name} is an {card.kind}"
        if kind == REACT and card.timing not in state.window_timings(player):
            return f"{card.name} is played only when {card.timing}"
        if ch.removed:
            return f"{spec.name} ({player}{SLOTS[action.slot]}) has been removed from the game"
        if not game.matches[ch.card][k]:
            return (
                f"{spec.name} shares no trait with {card.name} "
                f"({'/'.join(card.traits)} vs {'/'.join(spec.traits)})"
            )
        hand_after = len(state.hands[player]) - 1
        if not state.can_perform(player, action.slot, k, hand_after):
            return (
                f"{spec.name} cannot pay {card.cost}: energy left "
                f"{state.energy_left(player, action.slot)}, dice {_dice_text(ch.dice)}, "
                f"other cards in hand {hand_after}"
            )
        return f"{card.name} has nothing to act on now"
    if isinstance(action, Refresh) and kind == PHASE:
        ch = state.parties[player][action.slot]
        spec = game.characters[ch.card]
        if ch.removed:
            return f"{spec.name} has been removed from the game"
        return (
            f"refreshing {spec.name} costs {spec.refresh} energy; it has "
            f"{state.energy_left(player, action.slot)} left"
        )
    if perf is not None and isinstance(action, PayDie) and kind == PAY_DIE:
        dice = state.parties[player][perf.slot].dice
        return (
            f"the cost due is [{perf.dice_due[0]}]: pay with a die of {perf.dice_due[0]} or "
            f"more (dice: {_dice_text(dice)})"
        )
    if perf is not None and isinstance(action, Die) and perf.target is not None:
        if kind == BOOST_DIE:
            owner, slot = perf.target
        elif kind == ATTACK_DIE:
            owner, slot = player, perf.slot
        elif kind == DEFENSE_DIE:
            owner, slot = perf.target
        else:
            return None
        return (
            f"{game.who(owner, slot, state)} has no die showing {action.value} "
            f"(dice: {_dice_text(state.parties[owner][slot].dice)}"
            + ("; a 6 cannot be raised)" if kind == BOOST_DIE else ")")
        )
    if isinstance(action, Discard) and kind in (PAY_CARD, END_DISCARD):
        return f"{game.seat_name(player)} has no {action.card} in hand"
    if perf is not None and isinstance(action, Target) and kind == TARGET:
        card = game.cards[perf.card]
        if card.kind == "attack":
            return f"{card.name} targets an enemy character in play"
        return f"{card.name} targets one of your characters it would change"
    if isinstance(action, Drop) and kind == DROP:
        return f"there is no die showing {action.value} to drop"
    return None

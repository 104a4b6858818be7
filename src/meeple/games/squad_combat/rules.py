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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields, make_dataclass
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from meeple.core.errors import NotationError
from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register
from meeple.core.rng import make_rng
from meeple.games.squad_combat import sight
from meeple.games.squad_combat.actions import (
    _REFRESH_RE,
    _TARGET_RE,
    _VALUE_RE,
    _WORDS,
    DONE,
    NO_DIE,
    PASS,
    Die,
    Discard,
    Done,
    Drop,
    NoDie,
    Pass,
    PayDie,
    Play,
    Refresh,
    SquadAction,
    Target,
    _letter,
    slug,
)
from meeple.games.squad_combat.combat import Combat
from meeple.games.squad_combat.content import (
    DIE_FACES,
    PARTY_SIZE,
    Card,
    CharacterCard,
    Content,
    content_problems,
    load_content,
)
from meeple.games.squad_combat.explain import explain, unplayable
from meeple.games.squad_combat.guide import guide_values
from meeple.games.squad_combat.options import SquadCombatOptions, resolve_decks
from meeple.games.squad_combat.pieces import (
    ATTACK_DIE,
    BOOST_DIE,
    DEFENSE_DIE,
    DROP,
    END_DISCARD,
    END_DISCARDS,
    END_WINDOW,
    FORCED,
    LOG_LINES,
    OVER,
    PAY_CARD,
    PAY_DIE,
    PHASE,
    REACT,
    REFRESH_WINDOW,
    RESOLVE,
    SEAT_NAMES,
    SLOTS,
    STEP_KINDS,
    TARGET,
    Character,
    Performance,
    Step,
    Wound,
    dice_text,
    put,
)
from meeple.games.squad_combat.reading import WINDOWS, Reading
from meeple.games.squad_combat.turns import Turns
from meeple.games.squad_combat.words import move_words

if TYPE_CHECKING:
    import random


__all__ = [
    "ATTACK_DIE",
    "BOOST_DIE",
    "DEFENSE_DIE",
    "DONE",
    "DROP",
    "END_DISCARD",
    "END_DISCARDS",
    "END_WINDOW",
    "FORCED",
    "LOG_LINES",
    "NO_DIE",
    "OVER",
    "PASS",
    "PAY_CARD",
    "PAY_DIE",
    "PHASE",
    "REACT",
    "REFRESH_WINDOW",
    "RESOLVE",
    "SEAT_NAMES",
    "SLOTS",
    "TARGET",
    "Character",
    "Die",
    "Discard",
    "Done",
    "Drop",
    "NoDie",
    "Pass",
    "PayDie",
    "Performance",
    "Play",
    "Refresh",
    "SquadAction",
    "SquadCombatGame",
    "SquadCombatOptions",
    "SquadCombatState",
    "Step",
    "Target",
    "Wound",
    "slug",
]


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
    step_names: ClassVar[tuple[str, ...]] = STEP_KINDS

    @classmethod
    def data_problems(cls, option: str, path: Path) -> list[str]:
        """Every problem of a content folder, one line each (``content_problems``)."""
        if option != "content":
            return super().data_problems(option, path)
        return content_problems(path)

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

    def notes(self) -> list[str]:
        """Decks of different sizes at the table, and characters whose refresh costs no
        energy, so that nothing bounds a turn (allowed, but seldom meant)."""
        keys = self.deck_keys
        return [*self.content.deck_notes(keys), *self.content.free_refresh_notes(keys)]

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

    def log_words(self, state: SquadCombatState, player: Player, action: SquadAction) -> str:
        """Every move in words (the notation's ``drop 6`` or ``target 1b`` says little):
        which character, card or die, and what for (:mod:`meeple.games.squad_combat.words`)."""
        return move_words(state, player, action)

    def log_after(
        self, state: SquadCombatState, player: Player, action: SquadAction
    ) -> tuple[str, ...]:
        """The engine's lines after the move until the next decision (dice paid and
        rolled, a hit or a miss, a character removed, the turn's end and draws:
        :meth:`SquadCombatState.aftermath`)."""
        return state.aftermath(player, action)

    def seat_role(self, player: Player) -> str | None:
        """The deck the seat plays."""
        return self.deck_keys[player]

    def length_units(self, state: SquadCombatState) -> dict[str, int]:
        """Turns, the last one (in which the game ended) included."""
        return {"turns": state.turn}

    def at_safeguard(self, result: Mapping[str, Any] | None, units: Mapping[str, int]) -> int:
        """1 where the game lasted to the turn limit: drawn by it, or decided in its last
        turn."""
        return int(units.get("turns", 0) >= self.options.turn_limit)

    def view_words(self) -> dict[str, tuple[str, ...] | None]:
        """Every kind of step; the log is free text (what it tells is in the view)."""
        return {"step.kind": STEP_KINDS, "log[*]": None}

    def card_names(self) -> tuple[str, ...]:
        """The cards of the decks at the table, in file order."""
        held = {k for deck in self.decklists for k in deck}
        return tuple(c.key for i, c in enumerate(self.cards) if i in held)

    def cards_played(
        self, state: SquadCombatState, player: Player, action: SquadAction
    ) -> tuple[str, ...]:
        """The card a play announces (``play quick-shot by a``)."""
        return (action.card,) if isinstance(action, Play) else ()

    def player_rules_values(self) -> dict[str, str]:
        """The options, the decks at the table and the tables of their characters and
        cards, for ``player_rules.md``."""
        return {**super().player_rules_values(), **guide_values(self)}

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
                    f"rolls {dice_text(rolled)}."
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
        return self._ids[action]

    def action_from_id(self, action_id: int) -> SquadAction:
        """The action with this id (``Game`` has checked it is one)."""
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

    def who(self, seat: int, slot: int, state: Reading) -> str:
        """``Red Vanguard (0a)``: a character as logs name it."""
        card = self.characters[state.parties[seat][slot].card]
        return f"{SEAT_NAMES[seat]} {card.name} ({seat}{SLOTS[slot]})"


# -- the state ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SquadCombatState(Reading, State[SquadAction]):
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
    closing: tuple[int, ...] = ()
    """Seats still to be offered the end-of-turn window for edges, the deciding seat first."""
    refreshing: int = -1
    """Slot of the phase player's character whose refresh is paid but not yet rolled."""
    refresh_windows: tuple[int, ...] = ()
    """Seats still to be offered the window before that refresh rolls, the deciding first."""
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
    def step_name(self) -> str:
        """The kind of the :attr:`step` (one of ``STEP_KINDS``)."""
        return self.step.kind

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
        return explain(self, player, action)

    def unplayable(self, player: Player) -> dict[str, str]:
        """The cards of the hand no character can play now, each with why (a page greys
        them out and says why on a tap)."""
        return unplayable(self, player)

    def _next(self, player: Player, action: SquadAction) -> SquadCombatState:
        table = _Table(*_read_fields(self))
        table.act(player, action, self.step.kind)
        step, choices = table.settle()
        return table.freeze(step, choices)

    def aftermath(self, player: Player, action: SquadAction) -> tuple[str, ...]:
        """The log lines that ``player``'s legal ``action`` here is followed by, past the
        move's own: what the engine then did by itself until the next decision (dice paid
        and rolled, a card resolving, a hit or a miss, a character removed, the turn's end,
        the draws, the game's end). A move log tells them with the move: the state's log
        keeps only its last lines, and several players' moves can push a result out of them
        before its player sees the screen again."""
        table = _Table(*_read_fields(self))
        table.act(player, action, self.step.kind)
        # The working copy is thrown away: its log is emptied to collect the new lines.
        table.log = ()
        table.settle()
        return table.log

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
            "life_left": self.standing(),
        }

    def standing(self) -> list[int]:
        """The Life each party has left (its characters in play, less their wounds).

        The rules keep no score; this is the lab's running count of who is ahead, the party
        with the most Life left leading, so a design report can say how early a game is
        decided and how often the lead changes. ``result`` reports it as ``life_left``.
        """
        characters = self.game.characters
        return [
            sum(
                characters[c.card].life - self.damage(seat, slot)
                for slot, c in enumerate(party)
                if not c.removed
            )
            for seat, party in enumerate(self.parties)
        ]

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """The table is public (dice values, energy, wounds, discard piles, the card being
        performed); a seat sees its own hand and only the size of other hands and of decks."""
        return sight.view(self, player)

    def information_key(self, player: Player) -> Hashable:
        """What :meth:`view` shows the seat, as plain tuples (search's node key)."""
        return sight.information_key(self, player)

    def determinize(self, player: Player, rng: random.Random) -> SquadCombatState:
        """Resample what ``player`` cannot know: the other hands, the order of every deck and
        the seed of the dice to come (:func:`~meeple.games.squad_combat.sight.determinize`)."""
        return sight.determinize(self, player, rng)

    @property
    def top(self) -> Performance | None:
        """The card being performed now (the topmost, when an edge answers an attack)."""
        return self.stack[-1] if self.stack else None


# -- transitions ----------------------------------------------------------------------------
_STATE_FIELDS = tuple(f for f in fields(SquadCombatState) if f.init)
"""The fields a state is made of, in the order its constructor takes them."""
_read_fields = attrgetter(*(f.name for f in _STATE_FIELDS))


class _Transition(Turns, Combat):
    """One transition, worked on a copy of a state's fields (:class:`_Table`), then frozen."""

    __slots__ = ()

    def freeze(self, step: Step, choices: list[SquadAction]) -> SquadCombatState:
        """The new state, knowing already the step and the choices :meth:`settle` found."""
        state = SquadCombatState(*_read_fields(self))
        # Settle worked them out from these very fields, unchanged since.
        state._cache["step"] = step
        if step.seat >= 0:  # nobody decides once the game is over
            state._cache[step.seat] = choices
        return state

    # -- one action -------------------------------------------------------------------------
    def act(self, player: int, action: SquadAction, kind: str) -> None:
        """Apply a legal action of ``player`` at the pending step, of this ``kind``."""
        game = self.game
        if isinstance(action, Play):
            self.announce(player, game.content.card_index[action.card], action.slot)
        elif isinstance(action, Pass):
            # A pass that was the only choice says why: made for the seat, "Red passes."
            # inside the person's own die result read as a move they never typed. Said
            # whether made for the seat or asked (auto_steps=false), the same line; never
            # under reaction_prompts=always, whose asking every time is there so that the
            # table learns nothing of a hand (the why says it holds nothing playable).
            only = game.options.reaction_prompts == "playable" and self.choices(self.step) == [
                action
            ]
            why = ": nothing else to do (no card it can play, no refresh it can pay for)"
            self.passed = put(self.passed, player, True)
            self.say(f"{self.name(player)} passes{why if only else ''}.")
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
            if kind in WINDOWS:
                self.close_window(kind)
            else:
                self.finish_discards(player)

    # -- automatic steps --------------------------------------------------------------------
    def settle(self) -> tuple[Step, list[SquadAction]]:
        """Carry the game on until someone has a real decision: resolve what is complete,
        make forced single choices, and skip windows and discards with nothing to decide.
        Returns that decision's step and the choices open to its seat."""
        # Under 'playable' prompts a seat is asked only when it has a choice to make.
        ask_only_choices = self.game.options.reaction_prompts == "playable"
        # Under auto_steps=false a single possible choice is asked too (scripts, tutorials).
        take_single = self.game.options.auto_steps
        while True:
            step = self.step
            kind, seat = step
            if kind == OVER:
                return step, []
            if kind == RESOLVE:
                if not self.stack:
                    self.roll_refresh()
                elif not self.open_action_windows():
                    self.resolve()
                continue
            if kind == END_DISCARD and not self.hands[seat]:
                self.finish_discards(seat)
                continue
            choices = self.choices(step)
            if kind in WINDOWS and ask_only_choices and choices == [DONE]:
                self.close_window(kind)  # nothing to play
                continue
            if kind in FORCED and not choices:
                self.fizzle()
                continue
            # A single choice is made for the seat at a forced step, and where it has no die
            # to spend (public) or nothing to do but pass (says the hand is dead).
            made_for_the_seat = (
                kind in FORCED
                or kind in (ATTACK_DIE, DEFENSE_DIE)
                or (kind == PHASE and ask_only_choices)
            )
            if made_for_the_seat and take_single and len(choices) == 1:
                self.act(seat, choices[0], kind)
                continue
            return step, choices


# The working copy has the state's own fields, made from them so that the two never differ,
# and it is a dataclass so that copying a state in is one generated ``__init__`` of plain
# attribute stores, not a ``setattr`` call per field (which cost a tenth of an apply).
_Table = make_dataclass(
    "_Table",
    [(f.name, f.type) for f in _STATE_FIELDS],
    bases=(_Transition,),
    namespace={
        "__doc__": "A working copy of a state that one transition changes, then freezes.",
        "__module__": __name__,
    },
    slots=True,
    eq=False,
    match_args=False,
)

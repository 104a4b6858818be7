"""A fixed-size numeric encoding of a seat's view, the same way for every game.

Research frameworks want a vector of one size for every observation; meeple's views are
JSON of varying shape (hands grow and shrink, rocks pile up). The encoder learns the
shape of a game's views once, from seeded random games, and then lays every view out in
it:

- a number or a boolean at a path (``sides[1].reserve.H``) is one slot, its value;
- a string at a path is a one-hot group over the words the game can show there
  (``hand[2]=slash``): every card id, seat name, part name or action notation where the
  words seen are such (:func:`_vocabularies`), the game's own list where
  :meth:`~meeple.core.game.Game.view_words` names the path, else the words seen, when at
  most :data:`MAX_VOCABULARY`; free text (a log line, a path the game marks so) is left out;
- each path also has a presence slot (``...?``: 1 if the value is there and not null), and
  each list a length slot (``...#``), so "empty" and "zero" differ.

Only ``state.view(seat)`` is encoded, so an observation holds nothing the seat may not
know. A view longer than any seen while learning the shape (a rarely long hand) keeps its
first entries; :meth:`ViewEncoder.describe` names every slot (docs/envs.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from meeple.core.game import Game
from meeple.core.registry import make
from meeple.core.rng import derive_seed

MAX_VOCABULARY = 128
"""A string path with more distinct values than this is free text and is not encoded."""

SAMPLE_GAMES = 16
"""Random games played to learn the shape of a game's views."""

Path = tuple[str | int, ...]


def leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, leaf) of a JSON value; a list also yields (path + ('#',), length)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, str(key)))
    elif isinstance(value, list):
        yield (*path, "#"), len(value)
        for k, item in enumerate(value):
            yield from leaves(item, (*path, k))
    else:
        yield path, value


def _general(path: Path) -> Path:
    """The path with list positions blanked: every entry of a list shares a vocabulary."""
    return tuple("*" if isinstance(p, int) else p for p in path)


def path_name(path: Path) -> str:
    """``sides[1].reserve.H`` for ("sides", 1, "reserve", "H"); a list position blanked by
    :func:`_general` is ``[*]``."""
    out = ""
    for part in path:
        if isinstance(part, int) or part == "*":
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


@dataclass(frozen=True)
class ViewEncoder:
    """The slots of one game configuration's observation vector."""

    slots: dict[tuple[Path, Any], int]
    names: tuple[str, ...]

    @property
    def size(self) -> int:
        """Length of every observation vector."""
        return len(self.names)

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The view as a float32 vector of :attr:`size` slots."""
        out = np.zeros(self.size, dtype=np.float32)
        slots = self.slots
        for path, value in leaves(view):
            if value is None:
                continue
            present = slots.get((path, "?"))
            if present is not None:
                out[present] = 1.0
            if isinstance(value, bool | int | float):
                k = slots.get((path, None))
                if k is not None:
                    out[k] = float(value)
            elif isinstance(value, str):
                k = slots.get((path, value))
                if k is not None:
                    out[k] = 1.0
        return out

    def describe(self) -> list[str]:
        """The name of every slot, in order."""
        return list(self.names)


def random_views(game: Game[Any, Any, Any], seeds: Iterable[int]) -> Iterator[dict[str, Any]]:
    """Every seat's view at every state of random games, one game per seed (the move
    chosen by ``random.Random(seed)``): what the encoder learns from, and what a check of
    it plays afresh."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed)
        while True:
            for seat in range(game.num_players):
                yield state.view(seat)
            if state.is_over:
                break
            player = state.to_act[0]
            state = state.apply(player, rng.choice(state.legal_actions(player)))


def learn_encoder(game: Game[Any, Any, Any], games: int = SAMPLE_GAMES) -> ViewEncoder:
    """The encoder for ``game``: its paths from the views of ``games`` seeded random games,
    each string path's words from what the game can show there (:func:`_vocabularies`)."""
    numbers: set[Path] = set()
    strings: dict[Path, set[str]] = {}
    paths_of_strings: set[Path] = set()
    dicts: dict[Path, _DictShape] = {}
    seeds = (derive_seed(0, "encoder", game.name, index) for index in range(games))
    for view in random_views(game, seeds):
        for path, value in _walk(view, (), dicts):
            if isinstance(value, bool | int | float):
                numbers.add(path)
            elif isinstance(value, str):
                strings.setdefault(_general(path), set()).add(value)
                paths_of_strings.add(path)
    vocabularies = _vocabularies(game, strings, dicts)
    keys: list[tuple[Path, Any]] = []
    for path in sorted(numbers | paths_of_strings, key=_sort_key):
        keys.append((path, "?"))
        if path in numbers:
            keys.append((path, None))
        if path in paths_of_strings:
            keys.extend((path, word) for word in vocabularies.get(_general(path), ()))
    names = []
    for path, token in keys:
        name = path_name(path)
        names.append(f"{name}?" if token == "?" else name if token is None else f"{name}={token}")
    return ViewEncoder({key: k for k, key in enumerate(keys)}, tuple(names))


@dataclass
class _DictShape:
    """What the sample views held in the dicts at one general path."""

    keys: set[str]
    value_keys: set[frozenset[str]]
    only_dicts: bool = True

    def is_table(self) -> bool:
        """Like parts under names (Edges' ``edges``: every edge a dict of the same fields):
        at least two names, every value a dict, all with the same fields."""
        return self.only_dicts and len(self.keys) >= 2 and len(self.value_keys) == 1


def _walk(value: Any, path: Path, dicts: dict[Path, _DictShape]) -> Iterator[tuple[Path, Any]]:
    """:func:`leaves`, noting the shape of every dict on the way in ``dicts``."""
    if isinstance(value, dict):
        shape = dicts.setdefault(_general(path), _DictShape(set(), set()))
        for key, item in value.items():
            shape.keys.add(str(key))
            if isinstance(item, dict):
                shape.value_keys.add(frozenset(map(str, item)))
            else:
                shape.only_dicts = False
            yield from _walk(item, (*path, str(key)), dicts)
    elif isinstance(value, list):
        yield (*path, "#"), len(value)
        for k, item in enumerate(value):
            yield from _walk(item, (*path, k), dicts)
    else:
        yield path, value


def general_name(path: Path) -> str:
    """``result.games[*].detail``: how :meth:`Game.view_words` names a general path."""
    return path_name(_general(path))


def _vocabularies(
    game: Game[Any, Any, Any], strings: dict[Path, set[str]], dicts: dict[Path, _DictShape]
) -> dict[Path, tuple[str, ...]]:
    """The one-hot words of every general string path: what the game can show there.

    - the game's own word list where :meth:`Game.view_words` names the path (None there:
      free text, no words);
    - paths that differ only in the name of one of many like parts (Edges'
      ``edges.h0,0.pyramid`` and ``edges.v3,5.pyramid``) share their words;
    - where every word seen is a card id (:meth:`Game.card_list`; of one kind of card, the
      cards with the same fields, where the words are), a seat's name, the name of one of many
      like parts (Edges' ``first_edge``, an edge) or an action's notation (Erd's allocation),
      all of those (the smallest such set);
    - otherwise the words seen, at most :data:`MAX_VOCABULARY` (more: free text, none).
    """
    declared = game.view_words()
    tables = {path for path, shape in dicts.items() if shape.is_table()}

    def pooled(path: Path) -> Path:
        return tuple("*" if k and path[:k] in tables else part for k, part in enumerate(path))

    seen: dict[Path, set[str]] = {}
    for path, words in strings.items():
        seen.setdefault(pooled(path), set()).update(words)
    kinds: dict[frozenset[str], set[str]] = {}  # cards of one kind share their fields
    for card in game.card_list():
        if "id" in card:
            kinds.setdefault(frozenset(card), set()).add(str(card["id"]))
    domains = sorted(
        [
            *kinds.values(),
            set().union(*kinds.values()),
            {game.seat_name(p) for p in range(game.num_players)},
            *(dicts[path].keys for path in tables),
        ],
        key=len,
    )
    actions: set[str] | None = None
    out: dict[Path, tuple[str, ...]] = {}
    for path in strings:
        name = general_name(path)
        if name in declared:
            listed = declared[name]
            out[path] = () if listed is None else tuple(sorted({*listed, *strings[path]}))
            continue
        words = seen[pooled(path)]
        domain = next((d for d in domains if words <= d), None)
        if domain is None:
            if actions is None:
                actions = {str(game.action_from_id(k)) for k in range(game.num_actions)}
            domain = actions if words <= actions else None
        if domain is not None:
            out[path] = tuple(sorted(domain))
        elif len(words) <= MAX_VOCABULARY:
            out[path] = tuple(sorted(words))
    return out


def _sort_key(path: Path) -> tuple[tuple[int, str | int], ...]:
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in path)


@lru_cache(maxsize=32)
def _cached(name: str, identity: str) -> ViewEncoder:
    return learn_encoder(make(name, **json.loads(identity)["options"]))


def encoder_for(game: Game[Any, Any, Any]) -> ViewEncoder:
    """The encoder of a game configuration (its options and the data files they name, as
    they are now), learned once per process."""
    return _cached(game.name, game.options.identity())

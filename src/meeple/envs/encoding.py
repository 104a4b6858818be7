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

import contextlib
import hashlib
import json
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Any

import numpy as np

from meeple.core.files import (
    Unreadable,
    atomic_write,
    parse_json,
    read_text_capped,
    user_cache_home,
)
from meeple.core.game import Game
from meeple.core.registry import make
from meeple.core.rng import derive_seed

MAX_VOCABULARY = 128
"""A string path with more distinct values than this is free text and is not encoded."""

SAMPLE_GAMES = 16
"""Random games played to learn the shape of a game's views."""

MAX_CACHE_BYTES = 16 * 1024 * 1024
"""The largest kept encoder read back (Erosion's five seats: about a megabyte)."""

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
    seen = _Shapes()
    seeds = (derive_seed(0, "encoder", game.name, index) for index in range(games))
    for view in random_views(game, seeds):
        seen.note(view, (), ())
    numbers, strings, paths_of_strings = seen.numbers, seen.strings, seen.paths_of_strings
    vocabularies = _vocabularies(game, strings, seen.dicts)
    keys: list[tuple[Path, Any]] = []
    for path in sorted(numbers | paths_of_strings, key=_sort_key):
        keys.append((path, "?"))
        if path in numbers:
            keys.append((path, None))
        if path in paths_of_strings:
            keys.extend((path, word) for word in vocabularies.get(_general(path), ()))
    return _encoder(keys)


def _encoder(keys: list[tuple[Path, Any]]) -> ViewEncoder:
    """The encoder whose slots are ``keys``, in order, each named."""
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


class _Shapes:
    """What the sample views held: the paths of numbers (a list's length among them) and of
    strings, the strings seen at each general path, and the shape of the dicts at each.

    Every leaf of tens of thousands of views passes through :meth:`note` (Squad Combat's
    four seats: millions), so it carries each path's general form down beside it rather
    than working it out again at every leaf."""

    def __init__(self) -> None:
        self.numbers: set[Path] = set()
        self.strings: dict[Path, set[str]] = {}
        self.paths_of_strings: set[Path] = set()
        self.dicts: dict[Path, _DictShape] = {}

    def note(self, value: Any, path: Path, general: Path) -> None:
        """Note ``value`` at ``path`` (``general``: the path with list positions blanked,
        :func:`_general`) and everything under it."""
        if isinstance(value, dict):
            shape = self.dicts.get(general)
            if shape is None:
                shape = self.dicts[general] = _DictShape(set(), set())
            for key, item in value.items():
                name = str(key)
                shape.keys.add(name)
                if isinstance(item, dict):
                    shape.value_keys.add(frozenset(map(str, item)))
                else:
                    shape.only_dicts = False
                self.note(item, (*path, name), (*general, name))
        elif isinstance(value, list):
            self.numbers.add((*path, "#"))
            entry = (*general, "*")
            for k, item in enumerate(value):
                self.note(item, (*path, k), entry)
        elif isinstance(value, bool | int | float):
            self.numbers.add(path)
        elif isinstance(value, str):
            words = self.strings.get(general)
            if words is None:
                words = self.strings[general] = set()
            words.add(value)
            self.paths_of_strings.add(path)


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
            set(game.seat_names()),
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


CACHE_FORMAT = "meeple-encoder/1"
"""The format of a learned encoder kept on disk (:func:`encoder_for`)."""

STALE_SECONDS = 7 * 24 * 3600
"""How long an encoder kept for another version of meeple's code stays (:func:`_keep`)."""


def cache_folder() -> FilePath:
    """Where learned encoders are kept: ``encoders`` in meeple's folder of the user's cache
    (``$XDG_CACHE_HOME/meeple``, else ``~/.cache/meeple``)."""
    return user_cache_home() / "encoders"


@lru_cache(maxsize=1)
def _sources() -> str:
    """A hash of meeple's own files that decide what a view holds: every Python source and
    shipped data file of the package, so an encoder kept by other code is never read."""
    root = FilePath(__file__).parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".json", ".toml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _cache_key(name: str, identity: str) -> str:
    text = json.dumps([CACHE_FORMAT, name, identity, _sources(), SAMPLE_GAMES])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _check(key: str, keys: list[Any]) -> str:
    """Binds a kept encoder's slots to its key: a file changed or cut short fails it."""
    text = json.dumps([key, keys], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _kept(path: FilePath, key: str) -> ViewEncoder | None:
    """The encoder kept at ``path``, or None where there is none, or none to believe."""
    try:
        stored = parse_json(read_text_capped(path, MAX_CACHE_BYTES))
        keys = stored["keys"]
        if stored["format"] != CACHE_FORMAT or stored["check"] != _check(key, keys):
            return None
        return _encoder([(tuple(where), token) for where, token in keys])
    except (OSError, Unreadable, KeyError, TypeError, ValueError):
        return None


def _keep(path: FilePath, key: str, encoder: ViewEncoder) -> None:
    """Keep ``encoder`` at ``path`` for the processes after this one, and remove those kept
    for other versions of meeple's code a week ago or more (another checkout on the machine
    may still read a newer one); a folder that cannot be written keeps nothing (the next
    process learns it again)."""
    keys = [[list(where), token] for where, token in encoder.slots]
    text = json.dumps({"format": CACHE_FORMAT, "check": _check(key, keys), "keys": keys})
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text, fsync=False)
        week_ago = time.time() - STALE_SECONDS
        for stale in path.parent.glob("*.json"):
            if not stale.name.startswith(_version_prefix()) and stale.stat().st_mtime < week_ago:
                stale.unlink(missing_ok=True)


def _version_prefix() -> str:
    """What the names of the encoders kept for meeple's present code start with."""
    return _sources()[:12] + "-"


@lru_cache(maxsize=32)
def _cached(name: str, identity: str) -> ViewEncoder:
    key = _cache_key(name, identity)
    path = cache_folder() / f"{_version_prefix()}{key}.json"
    encoder = _kept(path, key)
    if encoder is None:
        encoder = learn_encoder(make(name, **json.loads(identity)["options"]))
        _keep(path, key, encoder)
    return encoder


def encoder_for(game: Game[Any, Any, Any]) -> ViewEncoder:
    """The encoder of a game configuration (its options and the data files they name, as
    they are now): learned once on this machine for meeple's present code, and kept in
    :func:`cache_folder` (learning plays random games: Squad Combat's four seats take half a
    minute), then read back, checked, once per process."""
    return _cached(game.name, game.options.identity())

"""Random edits of a game's data files as a designer makes them (``meeple content copy``,
then an editor): a number moved a little, a field given a value another entry has for it,
an entry dropped or repeated, and now and then a value no entry has (a word for a number,
a huge number, an empty list). Most such edits are refused by ``meeple content check``; the
rest make a game that must play.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from meeple.core.designer import check_data, copy_data, data_paths
from meeple.core.errors import MeepleError
from meeple.core.registry import make

STRANGE = ["-1", "0", "1000", "10000000000000000000000", '""', '"x"', "true", "1.5", "[]", "{}"]
"""Values a designer's typo gives a TOML field, written as TOML."""

_FIELD = re.compile(r"^([\w-]+) = (.*)$")


def edit_data(folder: Path, rng: random.Random) -> None:
    """Make one to three edits in the data files of ``folder`` (TOML tables and Erosion's
    card JSON), in place."""
    files = sorted(folder.iterdir())
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(files)
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = json.loads(text)
            _edit_cards(data["cards"], rng)
            path.write_text(json.dumps(data), encoding="utf-8")
        else:
            path.write_text(_edit_toml(text, rng), encoding="utf-8")


def _nearby(value: Any, rng: random.Random) -> Any:
    """``value``, a whole number half the time moved by one to three."""
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice((-3, -2, -1, 1, 2, 3))
    return value


def _edit_toml(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    fields = [k for k, line in enumerate(lines) if _FIELD.match(line)]
    tables = [k for k, line in enumerate(lines) if line.startswith("[")]
    roll = rng.random()
    if roll < 0.75 and fields:
        k = rng.choice(fields)
        key = _FIELD.match(lines[k])[1]  # type: ignore[index]
        if rng.random() < 0.15:
            value = rng.choice(STRANGE)
        else:
            given = [m[2] for line in lines if (m := _FIELD.match(line)) and m[1] == key]
            value = rng.choice(given)
            if re.fullmatch(r"-?\d+", value):
                value = str(_nearby(int(value), rng))
        lines[k] = f"{key} = {value}"
    elif roll < 0.85 and fields:
        del lines[rng.choice(fields)]
    elif tables:
        start = rng.choice(tables)
        end = next((k for k in tables if k > start), len(lines))
        if lines[start].startswith("[[") or rng.random() < 0.5:
            lines[end:end] = lines[start:end]  # the table again (a rank twice, a card id twice)
        else:
            del lines[start:end]
    return "\n".join(lines)


def _edit_cards(cards: list[dict[str, Any]], rng: random.Random) -> None:
    roll = rng.random()
    if roll < 0.8:
        card = rng.choice(cards)
        part = card
        if isinstance(card.get("process"), dict) and rng.random() < 0.5:
            part = card["process"]
        key = rng.choice(list(part))
        others = [
            d[key]
            for c in cards
            for d in (c, c.get("process"), c.get("architecture"))
            if isinstance(d, dict) and key in d
        ]
        if rng.random() < 0.15:
            part[key] = json.loads(rng.choice(STRANGE))
        else:
            part[key] = _nearby(json.loads(json.dumps(rng.choice(others))), rng)
    elif roll < 0.9:
        card = rng.choice(cards)
        del card[rng.choice(list(card))]
    else:
        cards.append(json.loads(json.dumps(rng.choice(cards))))


def edited_games(game: str, folder: Path, edits: int, rng: random.Random) -> list[Any]:
    """``edits`` edits of ``game``'s shipped data, copied into ``folder``: each made on the
    shipped files again, in the same folder, while the games made before stay in use (a
    designer's notebook, a server). The games made from the edits the game accepts, in
    order; an edit it refuses is refused in one line per problem by ``content check`` and by
    the game alike."""
    copy_data(game, folder)
    shipped = {path: path.read_bytes() for path in folder.iterdir()}
    options = {option: str(path) for option, path in data_paths(game, folder).items()}
    made = []
    for _ in range(edits):
        for path, data in shipped.items():
            path.write_bytes(data)
        edit_data(folder, rng)
        problems = check_data(game, folder)
        assert all(p and "\n" not in p for p in problems), problems
        try:
            made.append(make(game, **options))
        except MeepleError as exc:
            assert problems, f"content check passed an edit the game refuses: {exc}"
            assert "\n" not in str(exc)
        else:
            assert not problems, f"the game plays with an edit content check refuses: {problems}"
    return made


def cards_as_toml(cards: list[dict[str, Any]]) -> str:
    """Erosion's cards as TOML ``[[cards]]`` tables, nested fields as dotted keys, nulls
    left out."""

    def flat(prefix: str, value: Any) -> list[str]:
        if isinstance(value, dict):
            return [line for k, v in value.items() for line in flat(f"{prefix}{k}.", v)]
        return [] if value is None else [f"{prefix[:-1]} = {json.dumps(value)}"]

    return "\n".join("[[cards]]\n" + "\n".join(flat("", card)) + "\n" for card in cards)

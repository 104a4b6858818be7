"""Validated game options.

Each game declares its options as a pydantic model derived from :class:`GameOptions`.
Unknown options and bad values raise :class:`~meeple.core.errors.OptionError` with a message
that names the option and what it accepts, never a raw pydantic traceback.
"""

from __future__ import annotations

import hashlib
import json
import math
import types
import typing
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple.core.errors import OptionError, did_you_mean, problem_words
from meeple.core.files import read_bytes_capped
from meeple.core.text import json_words


def no_steps() -> Any:
    """The ``auto_steps`` field of a game none of whose decisions is ever taken for a player
    (each is a whole move, asked even where it is the only one): its help says so. The shared
    words promised that the engine would take a step, and a newcomer waited at the prompt
    for the engine to make their one legal move."""
    return Field(
        title="Skip steps with a single choice",
        default=True,
        description="changes nothing in this game: every decision is a whole move, asked "
        "even when it is the only one (the option is kept so a script may set it for every "
        "game)",
    )


class GameOptions(BaseModel):
    """Base of every game's options: frozen, and strict about unknown names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    auto_steps: bool = Field(
        title="Skip steps with a single choice",
        default=True,
        description="the engine takes a step for a player when it has a single possible "
        "choice; false: every step is asked, so a script or a tutorial sees each one",
    )
    """Shared by every game. A step with no choice at all (nothing to pay, a window with
    nothing playable under Squad Combat's ``reaction_prompts``) is still passed over."""

    @classmethod
    def parse(
        cls,
        game: str,
        options: dict[str, Any],
        strict: bool = False,
        spell: Callable[[str], str] = repr,
    ) -> Self:
        """Validate ``options`` (names may use ``-`` or ``_``) or raise a readable OptionError.

        ``strict``: the values are JSON from a client and must have their JSON types (the
        number 3, not the text "3"; true, not "yes"); otherwise text is read as a person
        types it on a command line. ``spell`` writes an option's name in a refusal as its
        reader types it (``'best_of'`` in JSON, ``--best-of`` on a command line)."""
        normalised = {str(k).replace("-", "_"): v for k, v in options.items()}
        if len(normalised) < len(options):
            # Both spellings of one name: one value would be dropped without a word.
            spelt: dict[str, str] = {}
            for given in map(str, options):
                name = given.replace("-", "_")
                if name in spelt:
                    raise OptionError(
                        f"option {spell(name)} of {game} is given twice (as {spelt[name]!r} "
                        f"and {given!r}); give it once"
                    )
                spelt[name] = given
        external = cls.external_options()
        for name, value in normalised.items():
            field = cls.model_fields.get(name)
            if field is not None and _is_unset_text(field.annotation, value):
                normalised[name] = None
            elif name in external and _is_shipped_text(field, value):
                normalised[name] = None  # the data shipped with the game: no file to read
        unknown = sorted(set(normalised) - set(cls.model_fields))
        if unknown:
            near = did_you_mean(unknown[0], cls.model_fields) if len(unknown) == 1 else ""
            raise OptionError(
                f"unknown option {', '.join(repr(u) for u in unknown)}{near} for {game}; "
                f"its options are: {', '.join(option_names(cls)) or '(none)'}"
            )
        if strict:
            try:
                text = json.dumps(normalised, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise OptionError(f"options of {game}: not JSON values ({exc})") from None
        try:
            # JSON mode: strict about types, yet a JSON array is a tuple option's value.
            parsed = cls.model_validate_json(text, strict=True) if strict else cls(**normalised)
        except ValidationError as exc:
            raise OptionError(_describe(game, cls, exc, spell)) from None
        for name, value in parsed:
            # A record stores options as JSON, which has no infinity or NaN: such a value
            # would be saved as null and the record would no longer make the same game.
            if isinstance(value, float) and not math.isfinite(value):
                raise OptionError(
                    f"option {spell(name)} of {game}: {value} is not a finite number "
                    f"(allowed: {field_allowed(cls.model_fields[name])}, finite)"
                )
        return parsed

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults, JSON-safe (for records and titles)."""
        return self.model_dump(mode="json", exclude_defaults=True)

    @classmethod
    def external_options(cls) -> list[str]:
        """The names of the options that name files outside the package (see below)."""
        return [
            name for name, field in cls.model_fields.items() if schema_extra(field).get("external")
        ]

    @classmethod
    def names_a_file(cls, name: str, value: Any) -> bool:
        """Whether option ``name`` (as the model spells it), given as ``value``, names a file
        or folder: an option that names files (:meth:`external_options`) set to a path, not
        to no value (``none``) nor to the data shipped with the game (``default``)."""
        field = cls.model_fields.get(name)
        if field is None or not schema_extra(field).get("external"):
            return False
        return not (
            value is None
            or _is_shipped_text(field, value)
            or _is_unset_text(field.annotation, value)
        )

    @classmethod
    def files_given(cls, given: Mapping[str, Any]) -> dict[str, tuple[list[Path], bool]]:
        """The files each option of ``given`` (options as given, not validated: their files
        may no longer make a game) names, by option, with whether the option names a folder
        of them (True) or a file (False); the shipped data names none."""
        out = {}
        for name in cls.external_options():
            value = given.get(name, given.get(name.replace("_", "-")))
            if not cls.names_a_file(name, value):
                continue
            marked = schema_extra(cls.model_fields[name]).get("external")
            if isinstance(marked, list):
                out[name] = ([Path(str(value)) / str(file) for file in marked], True)
            else:
                out[name] = ([Path(str(value))], False)
        return out

    def external_files(self) -> dict[str, list[Path]]:
        """The files outside the package that the game reads, by the option naming them.

        A game marks such an option with ``json_schema_extra={"external": True}`` (the
        option is a file) or ``{"external": [names]}`` (a folder, of which it reads these
        files). A record pins them by :func:`content_digest`, so that a changed file is
        reported as changed content rather than as moves that no longer replay.
        """
        cls = type(self)
        given = {name: getattr(self, name) for name in cls.external_options()}
        return {name: files for name, (files, _) in cls.files_given(given).items()}

    def content_digests(self) -> dict[str, str]:
        """The :func:`content_digest` of the files each option names, by option (empty when
        no option names a file): what a record pins, and part of a lab run's identity.

        OptionError if a file cannot be read."""
        return {option: content_digest(files) for option, files in self.external_files().items()}

    def content_changed(self, pinned: Mapping[str, str]) -> dict[str, str]:
        """The options whose files no longer hold what ``pinned`` (their
        :meth:`content_digests` at some earlier time) says, each with its digest now; an
        option ``pinned`` does not name (pinned before digests were kept) is not compared.
        OptionError, naming the option, if one of its files cannot be read."""
        changed = {}
        for option, files in self.external_files().items():
            if option not in pinned:
                continue
            try:
                now = content_digest(files)
            except OptionError as exc:
                raise OptionError(f"the content of option {option!r}: {exc}") from None
            if now != pinned[option]:
                changed[option] = now
        return changed

    def identity(self) -> str:
        """The options that differ from their defaults and the :meth:`content_digests` of
        the files they name, as JSON: the key of what a process works out once per
        configuration (an encoder, a table). Options alone name a data file, not what it
        holds, so a file edited in between would be answered from the old work."""
        return json.dumps(
            {"options": self.changed(), "content": self.content_digests()}, sort_keys=True
        )

    def file_digests(self) -> dict[str, dict[str, str]]:
        """The :func:`content_digest` of each file apart, by option and path, so that a change
        of :meth:`content_digests` can be traced to the file that changed."""
        return {
            option: {str(file): content_digest([file]) for file in files}
            for option, files in self.external_files().items()
        }


DIGEST_PATTERN = r"^sha256:[0-9a-f]{64}$"
"""What :func:`content_digest` returns, as a regular expression (for checking a digest read
back from a file)."""


def content_digest(files: list[Path]) -> str:
    """``sha256:...`` of the files' names and bytes, in the order given, so that any edit
    changes it; a missing file counts as absent. OptionError if one cannot be read."""
    return digest_of(read_content(files))


def read_content(files: list[Path]) -> list[tuple[str, bytes | None]]:
    """Each file's name and bytes (None for a missing file), in the order given: what
    :func:`digest_of` digests. OptionError if one cannot be read."""
    found = []
    for file in files:
        try:
            data = read_bytes_capped(file) if file.exists() else None
        except OSError as exc:
            raise OptionError(f"cannot read {file}: {exc.strerror or exc}") from None
        found.append((file.name, data))
    return found


def digest_of(content: list[tuple[str, bytes | None]]) -> str:
    """The :func:`content_digest` of files read as ``content`` (:func:`read_content`): a
    copy kept of them is checked against the digest a record pins."""
    digest = hashlib.sha256()
    for file_name, data in content:
        name = file_name.encode("utf-8", "surrogateescape")
        if data is None:
            digest.update(b"%d:%s-:" % (len(name), name))
        else:
            digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
            digest.update(data)
    return "sha256:" + digest.hexdigest()


@dataclass(frozen=True)
class OptionInfo:
    """What a person needs to know about one option: name, default, allowed values, help."""

    name: str
    default: Any
    allowed: str
    help: str
    label: str = ""
    """The option in a player's words (the field's ``title``): "Who starts", not "first"."""
    suggested: tuple[tuple[str, str], ...] = ()
    """Values worth offering a person who does not know the option's syntax, each with its
    words (``("none/none", "no items")``): the field's ``json_schema_extra["suggested"]``.
    Typed text still takes any value ``allowed`` describes."""
    default_words: str = ""
    """The default in words where it is no value of its own (None: worked out from other
    options, or the shipped data): Edges' board is "3x4", not "none", which a newcomer read
    beside its help's "default 3x4 (5x5 for Double Edges)". The field's
    ``json_schema_extra["default_words"]``."""
    applies_when: tuple[tuple[str, Any], ...] = ()
    """The other options' values under which this one matters at all (Double Edges' "who
    starts" only with ``double`` true): the field's ``json_schema_extra["applies_when"]``,
    a mapping of option names to values, each a value the other must have or ``{"not": v}``
    for any value but one (Erd's drawn games matter only in a match: ``{"best_of": {"not":
    1}}``). Empty: it always matters. A person is not asked an option that does not apply;
    the rules still take it, and ignore it."""


def shown_default(info: OptionInfo) -> str:
    """An option's default as a person reads it: its words where it has them, else its
    value as typed (:func:`option_text`)."""
    return info.default_words or option_text(info.default)


def _negated(wanted: Any) -> bool:
    """Whether a condition of an ``applies_when`` is ``{"not": v}`` rather than a value."""
    return isinstance(wanted, Mapping) and set(wanted) == {"not"}


def condition_holds(value: Any, wanted: Any) -> bool:
    """Whether an option's value meets one condition of an ``applies_when``: equal to it, or
    (``{"not": v}``) anything but ``v``."""
    if _negated(wanted):
        return bool(value != wanted["not"])
    return bool(value == wanted)


def condition_text(name: str, wanted: Any) -> str:
    """One condition of an ``applies_when`` in words: ``double=true``, ``best_of other than
    1``."""
    if _negated(wanted):
        return f"{name} other than {option_text(wanted['not'])}"
    return f"{name}={option_text(wanted)}"


def applies_when_fault(cls: type[GameOptions]) -> str | None:
    """Why an option's ``applies_when`` of the model ``cls`` is written wrong, or None: a name
    that is no other option, or a value the option named does not take as written (``"1"``
    for a whole number compares unequal to every value it is given). Either would hide the
    option from every person, or offer it where it is moot, without a word."""
    for info in describe_options(cls):
        for name, wanted in info.applies_when:
            if name == info.name or name not in cls.model_fields:
                return (
                    f"option {info.name!r}: applies_when names {name!r}, which is no other "
                    f"option ({', '.join(n for n in option_names(cls) if n != info.name)})"
                )
            value = wanted["not"] if _negated(wanted) else wanted
            try:
                taken = getattr(cls.model_validate({name: value}), name)
                # True == 1: a flag's condition on a number, or a number's on a flag.
                same = taken == value and isinstance(taken, bool) == isinstance(value, bool)
            except ValidationError:
                same = False
            if not same:
                return (
                    f"option {info.name!r}: applies_when wants {name}={value!r}, a value "
                    f"{name!r} does not take as written"
                )
    return None


def option_applies(info: OptionInfo, options: GameOptions) -> bool:
    """Whether an option matters under a game's options (:attr:`OptionInfo.applies_when`)."""
    return all(condition_holds(getattr(options, k), v) for k, v in info.applies_when)


def moot_text(name: str, value: Any, needs: str) -> str:
    """An option set where the others make it moot, in the one sentence every game says it
    in: ``double_start=a1 matters only with double=true: this game ignores it``; ``needs``
    says when it would matter, its preposition included."""
    return f"{name}={option_text(value)} matters only {needs}: this game ignores it"


def moot_options(options: GameOptions) -> list[str]:
    """The options set away from their defaults that do not apply under the others
    (:attr:`OptionInfo.applies_when`: Double Edges' who starts, given to a two-player game),
    a sentence each: the rules take them and ignore them, which a person who set one may
    not have meant."""
    changed = options.changed()
    out = []
    for info in describe_options(type(options)):
        if info.name in changed and not option_applies(info, options):
            needs = " and ".join(condition_text(k, v) for k, v in info.applies_when)
            out.append(moot_text(info.name, changed[info.name], f"with {needs}"))
    return out


def option_names(cls: type[GameOptions]) -> list[str]:
    """The option names of a model: the game's own in declaration order, then the ones
    every game shares (``auto_steps``), which matter less to a reader of one game."""
    return sorted(cls.model_fields, key=lambda name: name in GameOptions.model_fields)


def describe_options(cls: type[GameOptions]) -> list[OptionInfo]:
    """List the options of an options model, in declaration order."""
    infos = []
    for name in option_names(cls):
        field = cls.model_fields[name]
        infos.append(
            OptionInfo(
                name=name,
                default=field.default,
                allowed=field_allowed(field),
                help=field.description or "",
                label=field.title or name.replace("_", " ").capitalize(),
                suggested=field_suggested(field),
                default_words=str(schema_extra(field).get("default_words", "")),
                applies_when=field_applies_when(field),
            )
        )
    return infos


def unserved_refusal(options: GameOptions, served: Collection[str], what: str) -> str | None:
    """The one-line refusal of a second writing of a game's rules (a compiled twin, named
    ``what``) for options it was not written for, or None when it knows every one.

    A twin lists the options it plays (``served``); an option added to the game's model
    later is refused by name until the twin plays it too, rather than played by the old
    rule without a word."""
    unknown = sorted(set(type(options).model_fields) - set(served))
    if not unknown:
        return None
    return (
        f"the {what} do not serve option {', '.join(unknown)}; "
        f"they serve {', '.join(sorted(served))}"
    )


def schema_extra(field: Any) -> dict[str, Any]:
    """What a game declares on an option beyond pydantic's own (``json_schema_extra``:
    ``allowed``, ``suggested``, ``applies_when``, ``external``, ``shipped``); empty where it
    declares nothing, or gives a function (pydantic allows one) rather than a mapping."""
    extra = field.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def field_applies_when(field: Any) -> tuple[tuple[str, Any], ...]:
    """A field's conditions on the other options (:attr:`OptionInfo.applies_when`)."""
    return tuple(schema_extra(field).get("applies_when", {}).items())


def field_suggested(field: Any) -> tuple[tuple[str, str], ...]:
    """A field's suggested values with their words (:attr:`OptionInfo.suggested`)."""
    suggested = schema_extra(field).get("suggested", ())
    return tuple((str(value), str(words)) for value, words in suggested)


PLAYERS = "players"
"""The option that sets how many play, in the games that take a number of players."""


def player_counts(cls: type[GameOptions]) -> list[int]:
    """The numbers of players the ``players`` option allows, fewest first, from its bounds;
    none where the options have no such option (the seats are fixed, or set another way:
    Double Edges) or it gives no lowest and highest count (``ge`` and ``le``: an added
    game's may not)."""
    field = cls.model_fields.get(PLAYERS)
    if field is None:
        return []
    low = next((b.ge for b in field.metadata if getattr(b, "ge", None) is not None), None)
    high = next((b.le for b in field.metadata if getattr(b, "le", None) is not None), None)
    if low is None or high is None:
        return []
    return list(range(int(low), int(high) + 1))


def field_allowed(field: Any) -> str:
    """What a field accepts: its declared ``allowed`` text, else derived from its type and,
    for a number, its bounds ("a whole number from 2 to 5", not "int")."""
    extra = schema_extra(field)
    if "allowed" in extra:
        return str(extra["allowed"])
    if field.annotation in (int, float):
        return _number_allowed(field.annotation, field.metadata)
    return allowed_values(field.annotation)


def _number_allowed(kind: type, metadata: list[Any]) -> str:
    """A number's allowed values from its pydantic bounds (``ge``, ``gt``, ``le``, ``lt``)."""
    noun = "a whole number" if kind is int else "a number"
    low = high = None
    for bound in metadata:
        if (value := getattr(bound, "ge", None)) is not None:
            low = f"{value}"
        elif (value := getattr(bound, "gt", None)) is not None:
            low = f"{value} (not {value} itself)" if kind is float else f"{value + 1}"
        elif (value := getattr(bound, "le", None)) is not None:
            high = f"{value}"
        elif (value := getattr(bound, "lt", None)) is not None:
            high = f"{value} (not {value} itself)" if kind is float else f"{value - 1}"
    if low is not None and high is not None:
        return f"{noun} from {low} to {high}"
    if low is not None:
        return f"{noun} of at least {low}"
    if high is not None:
        return f"{noun} of at most {high}"
    return noun


def allowed_values(annotation: Any) -> str:
    """A short human description of what a type annotation accepts."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return " | ".join(str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(allowed_values(a) for a in args)
    if annotation is bool:
        return BOOL_ALLOWED
    if annotation is type(None):
        return "unset"
    if annotation is str:
        return "text"  # Python's own name, "str", was shown to players
    return getattr(annotation, "__name__", str(annotation))


BOOL_ALLOWED = "true | false"
"""What a yes/no option accepts, as tables print it."""

BOOL_SYNONYMS = "true | false, yes | no, on | off, 1 | 0, in any case"
"""What a yes/no option really accepts (pydantic's reading of text as a bool), for errors."""

UNSET_WORDS = ("none", "unset")
"""Text that means "no value" for an option that may be unset: tables print a missing
default as ``None``, and what a table prints must be accepted when typed back."""


SHIPPED_WORD = "default"
"""What an option naming a file (``GameOptions.external_files``) takes to mean the data
shipped with the game, its default, in any case: so that a variant of ``compare`` can name
it beside a designer's file. A file or folder called so is written ``./default``."""

SET_PREFIX = "set:"
"""How a data option's value names a content set a game server installed (``set:weak``):
the value a server's match, and so its record, keeps in place of the set's path."""


def _is_shipped_text(field: Any, value: Any) -> bool:
    shipped = field is not None and field.default is None
    return shipped and isinstance(value, str) and value.strip().lower() == SHIPPED_WORD


def _is_unset_text(annotation: Any, value: Any) -> bool:
    optional = type(None) in typing.get_args(annotation)
    return optional and isinstance(value, str) and value.strip().lower() in UNSET_WORDS


def option_text(value: Any) -> str:
    """An option's value as a person types it: ``true``/``false`` rather than Python's
    ``True``/``False``, ``none`` for unset, anything else as ``str``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _describe(
    game: str, cls: type[GameOptions], exc: ValidationError, spell: Callable[[str], str] = repr
) -> str:
    parts = []
    told: set[str] = set()
    for err in exc.errors():
        loc = [str(p) for p in err["loc"] if isinstance(p, str) and p in cls.model_fields]
        name = loc[0] if loc else ""
        msg = problem_words(err)
        if name in told:
            continue  # a value of several types is refused once for each: say it once
        if name:
            told.add(name)
            field = cls.model_fields[name]
            allowed = BOOL_SYNONYMS if field.annotation is bool else field_allowed(field)
            got = err.get("input")
            if err["type"] == "value_error":  # a game's own check, in its own words
                said = f"{msg} (got {got!r}; allowed: {allowed})"
            elif err["type"] == "bool_type":  # only JSON (strict): true or false, no synonym
                said = f"{json_words(got)} is not allowed; allowed: true or false"
            elif err["type"] in ("int_type", "float_type") and isinstance(got, str):
                # Only JSON from a client (strict) refuses text of the right shape: "3".
                said = f"{json_words(got)} is not allowed; allowed: {allowed}, as a JSON number"
            else:  # pydantic's words ('Input should be ...') say less than what is allowed
                # JSON's words for what came as JSON (true, null), not Python's (True, None)
                shown = repr(got) if isinstance(got, str) else json_words(got)
                said = f"{shown} is not allowed; allowed: {allowed}"
            parts.append(f"option {spell(name)} of {game}: {said}")
        else:
            parts.append(f"options of {game}: {msg}")
    return "; ".join(parts)

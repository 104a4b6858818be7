"""Text from outside that a person reads is printable (core/text.py): what is refused, what
is kept, and how a message shows what it quotes."""

from __future__ import annotations

import pytest

from meeple.core.text import printable_within, unprintable, visible


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("red\x1b[31m", "U+001B is a control character"),
        ("a\nb", "U+000A is a control character"),
        ("a\rb", "U+000D is a control character"),
        ("a\x85b", "U+0085 is a control character"),  # C1: NEL
        ("a\u2028b", "U+2028 is a line separator"),
        ("a\u2029b", "U+2029 is a paragraph separator"),
        ("abc\u202eevil", "U+202E is a control of the text's direction"),
        ("abc\u2066x", "U+2066 is a control of the text's direction"),
        ("\ud800", "U+D800 is a lone surrogate, not a character"),
        ("a\uffffb", "U+FFFF is a noncharacter, which Unicode keeps out of text"),
        ("\ufdd0", "U+FDD0 is a noncharacter, which Unicode keeps out of text"),
        ("x\U0001fffe", "U+1FFFE is a noncharacter, which Unicode keeps out of text"),
    ],
)
def test_what_cannot_be_shown_as_it_is_is_named(text, says):
    assert unprintable(text) == says
    with pytest.raises(ValueError, match=says.replace("+", r"\+")):
        printable_within({"cards": [("name", text)]})


@pytest.mark.parametrize(
    "text", ["Frost Wedging", "Zoë", "👨‍👩‍👧", "محمد", "東京", "a\tb"[:1], "", "a\ue000", "\ufdcf"]
)
def test_text_in_any_script_is_kept(text):
    assert unprintable(text) is None
    assert printable_within([text, (text,), {text: text}]) == [text, (text,), {text: text}]


def test_a_message_shows_what_it_quotes_and_the_terminal_does_not_act_on_it():
    assert visible("card WX\x1b[2J02\x07 and\u202e \ud800") == (
        "card WX\\x1b[2J02\\x07 and\\u202e \\ud800"
    )
    assert visible("two\nlines, Zoë") == "two\nlines, Zoë"  # a message's own line breaks stay

"""compare's variants take short labels, and plots never print labels over each other
(issue 59)."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from typer.testing import CliRunner

from meeple.interfaces.cli import app
from meeple.interfaces.compare_cli import variant_label
from meeple.interfaces.lab_common import LabError
from meeple.lab.metrics import summarize
from meeple.lab.report import length_figure, metric_figure, short_label, win_figure


@pytest.mark.parametrize(
    ("text", "label", "options"),
    [
        ("cheap firebolt: content=path/to/folder", "cheap firebolt", "content=path/to/folder"),
        ("board=3x3", "board=3x3", "board=3x3"),
        ("board=3x3,pie=false", "board=3x3,pie=false", "board=3x3,pie=false"),
        ("content=a: b", "content=a: b", "content=a: b"),  # '=' before ': ': no label
        ("v2:board=3x3", "v2:board=3x3", "v2:board=3x3"),  # no space after the colon
        ("big board: board=3x3, pie=false", "big board", "board=3x3, pie=false"),
        # --variant "" printed 'Differences from ' with nothing after it.
        ("", "defaults", ""),
        ("  ", "defaults", "  "),
    ],
)
def test_a_label_comes_before_a_colon_and_a_space(text, label, options):
    assert variant_label(text) == (label, options)


def test_an_empty_label_is_refused():
    with pytest.raises(LabError, match="label before ': ' is empty"):
        variant_label(": board=3x3")


def row(winner, k):
    return {"winners": [winner], "first_player": 0, "length": 10 + k % 3,
            "returns": [1.0, -1.0] if winner == 0 else [-1.0, 1.0], "seats": ["a", "b"],
            "branching": 3.0, "decided_at": 0.5, "lead_changes": k % 2, "margin": 1.0}  # fmt: skip


LONG = [
    "content=/home/designer/games/squad/variants/cheap-firebolt-v2",
    "content=/home/designer/games/squad/variants/cheap-firebolt-v3",
    "content=/home/designer/games/squad/variants/dear-firebolt",
    "board=3x3,pie=false,legend=advanced",
]


def _overlaps(fig):
    """Pairs of tick labels of one axis whose drawn boxes overlap."""
    FigureCanvasAgg(fig)
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        out += [
            (ax.get_title(), i) for i in range(len(boxes) - 1) if boxes[i].overlaps(boxes[i + 1])
        ]
    return out


def test_long_labels_never_print_over_each_other():
    summaries = {label: summarize([row(k % 2, k) for k in range(40)]) for label in LONG}
    assert _overlaps(metric_figure(summaries)) == []
    assert _overlaps(win_figure(summaries)) == []
    names = [t.get_text() for t in win_figure(summaries).axes[0].get_xticklabels()]
    assert names[0].endswith("cheap-firebolt-\nv2") and names[0].startswith("…")
    assert all(len(line) <= 17 for name in names for line in name.split("\n"))
    legend = length_figure({label: [10.0, 11.0] for label in LONG}).axes[0].get_legend()
    assert all(len(line) <= 31 for t in legend.texts for line in t.get_text().split("\n"))


def test_short_labels_are_left_as_they_are():
    assert short_label("cheap firebolt") == "cheap firebolt"
    assert short_label("board=3x3,pie=false") == "board=3x3,pie=\nfalse"


def test_compare_names_labelled_variants_by_their_labels(tmp_path):
    out = tmp_path / "out"
    db = f"sqlite:///{tmp_path / 'r.db'}"
    result = CliRunner().invoke(app, [
        "compare", "edges", "--variant", "small: board=2x3", "--variant", "large: board=3x3",
        "--games", "6", "--db", db, "--out", str(out),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Differences from small" in text and "large - small" in text
    report = next(out.glob("compare-edges-*/report.md")).read_text()
    assert "| measure | small | large |" in report and "| large - small |" in report
    twice = CliRunner().invoke(app, [
        "compare", "edges", "--variant", "x: board=2x3", "--variant", "x: board=3x3",
        "--db", db, "--out", str(out),
    ])  # fmt: skip
    assert twice.exit_code == 2 and "two variants are labelled 'x'" in twice.output


def test_a_label_is_text_in_tables_progress_and_plots_and_is_never_cut(tmp_path):
    """A label is a person's words: '[/]x' ended compare in a MarkupError traceback (the
    tables and the progress bar read it as Rich markup), '$\\frac{x$' in a matplotlib
    ParseSyntaxException (the plots read it as TeX), and at 80 columns two long labels
    that differ at their end were both cut to the same 'a long label that…'."""
    out = tmp_path / "out"
    db = f"sqlite:///{tmp_path / 'r.db'}"
    long = "a long label that differs only at its very end,"
    result = CliRunner().invoke(app, [
        "compare", "edges", "--board", "2x2", "--variant", "[/]x: pie=true",
        "--variant", "$\\frac{x$: pie=false", "--variant", f"{long} one: pie=false,first=0",
        "--variant", f"{long} two: pie=false,first=1", "--games", "2", "--db", db,
        "--out", str(out),
    ], env={"COLUMNS": "80"})  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "Differences from [/]x" in result.output and "…" not in result.output
    text = "".join(result.output.replace("│", "").split())
    for label in (long + " one", long + " two", "$\\frac{x$"):
        assert "".join(label.split()) in text, label
    assert {p.name for p in next(out.glob("compare-edges-*")).iterdir()} >= {
        "wins.png",
        "metrics.png",
        "length.png",
    }


def test_a_long_legend_leaves_the_run_labels_room():
    # Seat roles and a designer spec make the legend beside the bars wider than the plot
    # was sized for: the labels under the bars then printed over each other.
    spec = "flat:worlds=16,min_worlds=4,z=1,rollout=field"

    def three(winner):
        returns = [-1.0, -1.0, -1.0]
        returns[winner] = 1.0
        return {"game": "squad-combat", "options": {"players": 3}, "winners": [winner],
                "first_player": 0, "length": 10, "returns": returns, "seats": [spec] * 3,
                "branching": 3.0, "decided_at": 0.5, "lead_changes": 0, "margin": 1.0}  # fmt: skip

    labels = ["shipped", "shadow life +2", "shadow life +3", "shadow life +4"]
    summaries = {label: summarize([three(k % 3) for k in range(60)]) for label in labels}
    legend = win_figure(summaries).axes[0].get_legend().texts[0].get_text()
    assert legend.startswith("seat 0 Red (iron-line): flat:")
    assert _overlaps(win_figure(summaries)) == []


def test_the_seat_table_keeps_each_variant_s_label_whole_at_80_columns(tmp_path):
    """Two unlabelled variants of one long option folded into six-letter pieces
    ('items=', 'palett', 'e-swap', ...): both rows began 'items=' and could not be told
    apart. Where the table does not fit, each seat is a block headed by its whole label."""
    db = f"sqlite:///{tmp_path / 'r.db'}"
    one, two = "items=palette-swap+right-angle/mulligan", "items=palette-swap+right-angle/none"
    result = CliRunner().invoke(app, [
        "compare", "triangle-clock", "--variant", one, "--variant", two, "--seat", "random",
        "--games", "2", "--db", db, "--out", str(tmp_path / "out"),
    ], env={"COLUMNS": "80"})  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    seats = lines[lines.index("Seats") :]
    # A bare seat number headed a block badly ("0 Tick"): its column's word goes with it.
    assert f"{one} · seat 0 Tick (palette-swap+right-angle)" in seats
    assert f"{two} · seat 1 Tock (no items)" in seats

"""Markup from data stays text (core.markup; issue 11, item 8).

The oracle is an independent CommonMark renderer (markdown-it-py, with GitHub's tables,
strikethrough and link detection): escaped text must render as one paragraph of exactly
the original text, with no tag of its own (no image, link, emphasis, code, heading...).
"""

from __future__ import annotations

import html
import re

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from core.markup import code_fence, code_span, escape_markdown, table_cell
from core.recipe import Recipe, apply_recipe
from core.release.inputs import ReleaseRoles
from core.release.report import build_report, report_to_markdown

_RENDERER = MarkdownIt("commonmark", {"linkify": True}).enable(
    ["table", "strikethrough", "linkify"]
)
_RENDERER.linkify.set({"fuzzy_link": False})  # GitHub links only URLs with a scheme or www.

EVIL = [
    "![b](http://evil.example/x.png)",
    "[click](http://evil.example)",
    "<img src=http://evil.example/x.png>",
    "<b>bold</b>",
    "a|b|c",
    "line\nbreak",
    "# heading",
    "- list",
    "1. ordered",
    "> quote",
    "**strong** _em_ `code` ~~del~~",
    "http://evil.example/x and <http://evil.example>",
    "mail me@evil.example",
    "&lt;entity&gt;",
    ":red[colour] :material/home: $x^2$",
    "back\\slash\\",
    "    indented code",
    "===",
    "x\r\u2028y\x0bz\x0cw",
]


def _norm(text: str) -> str:
    return re.sub(r"[\s\ufeff\x00-\x1f\x7f\x85\u2028\u2029]+", " ", text).strip()


def _renders_as_text(original: str) -> None:
    out = _RENDERER.render(escape_markdown(original))
    assert out.startswith("<p>") and out.endswith("</p>\n"), out
    inner = out[len("<p>") : -len("</p>\n")]
    assert "<" not in inner, out  # not a single tag: no img, a, em, code, br ...
    assert _norm(html.unescape(inner)) == _norm(original)


def test_hostile_names_render_as_their_own_text():
    for name in EVIL:
        _renders_as_text(name)


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("\\`*_[]()<>|~$:@&!{}#-+=.019 \n\twhtps/a:\"';"))
        | st.characters(codec="utf-8"),
        max_size=40,
    ).filter(lambda text: _norm(text) != "")
)
def test_any_text_renders_as_itself(text):
    _renders_as_text(text)


def test_streamlit_and_autolink_syntax_is_broken_up():
    # Streamlit's own colour/icon/maths syntax, and GitHub's "www." links, need these.
    assert escape_markdown(":red[x]") == ":red\\[x\\]"
    assert escape_markdown("see http://evil.example") == "see http\\://evil.example"
    assert escape_markdown("$x$") == "\\$x\\$"
    assert escape_markdown("see www.evil.example") == "see www\\.evil.example"


def test_ordinary_text_stays_readable():
    assert escape_markdown("date_of_birth") == "date_of_birth"
    assert escape_markdown("Postal code (3 digits), 50% kept: k >= 5!") == (
        "Postal code (3 digits), 50% kept: k >= 5!"
    )
    assert escape_markdown("_x_") == "\\_x\\_"


def test_table_cells_keep_the_table_shape():
    names = ["a|b", "c\nd", "![b](http://evil.example/x.png)", "\\|", "e\\"]
    rows = ["| Column | Note |", "|---|---|"]
    rows += [f"| {table_cell(name)} | {table_cell(name)} |" for name in names]
    out = _RENDERER.render("\n".join(rows))
    body = out.split("<tbody>")[1]
    assert body.count("<tr>") == len(names)
    assert body.count("<td>") == 2 * len(names)
    assert "<img" not in out and "<a " not in out
    cells = re.findall(r"<td>(.*?)</td>", body)
    assert [html.unescape(c) for c in cells[::2]] == [_norm(n) for n in names]


def test_code_span_shows_any_text_verbatim_on_one_line():
    for text in ["out.csv.mapping-name.csv", "a`b", "``x", "![b](http://evil.example/x.png)\n# h"]:
        out = _RENDERER.render(f"- {code_span(text)}: file")
        assert out.count("<code>") == 1 and "<img" not in out and "<h1>" not in out
        shown = html.unescape(re.search(r"<code>(.*?)</code>", out).group(1))
        assert shown == text.replace("\n", " ")


def test_code_fence_cannot_be_closed_by_its_content():
    content = "a: 1\n```\n![b](http://evil.example/x.png)\n````"
    out = _RENDERER.render("\n".join(code_fence(content, "yaml")))
    assert out.count("<pre>") == 1 and "<img" not in out
    assert html.unescape(out).count("![b](http://evil.example/x.png)") == 1


def test_report_markdown_escapes_column_names_and_keeps_tables_whole():
    evil = "![b](http://evil.example/x.png)"
    piped = "sex|gender\nrow"
    table = pd.DataFrame({evil: ["1", "2", "2", "3"], piped: ["F", "M", "M", "F"], "n": [1] * 4})
    recipe = Recipe(
        steps=(
            {"step": "generalise", "column": evil, "mapping": {"1": "<b>low</b>"}},
            {"step": "remove", "columns": ["n"]},
        ),
        seed=1,
        meta={"name": f"```\n{evil}", "quasi_identifiers": [evil, piped]},
    )
    result = apply_recipe(table, recipe)
    report = build_report(
        table,
        result,
        recipe,
        title=f"Release {evil}",
        sign_off={"Reviewer [x](http://evil.example)": "<script>"},
        roles=ReleaseRoles(direct_identifiers=[piped]),
    )
    markdown = report_to_markdown(report)
    prose = markdown.split("## Recipe")[0]  # the recipe itself is a verbatim code block
    assert "](" not in prose.replace("\\](", "")  # every ]( is an escaped one
    out = _RENDERER.render(markdown)
    assert "<img" not in out and "<a " not in out and "<b>" not in out
    assert "<script" not in out
    assert html.unescape(out).count(evil) >= 4  # shown as text: title, steps, QIs, columns
    for table_html in out.split("<table>")[1:]:
        header, body = table_html.split("</table>")[0].split("<tbody>")
        width = header.count("<th>")
        for row in body.split("<tr>")[1:]:
            assert row.count("<td>") == width, row
    # The recipe is shown verbatim inside one code block that its content cannot close.
    assert out.count("<pre>") == 1


def test_terminal_line_shows_controls_as_escapes_and_keeps_other_text():
    from core.markup import terminal_line

    assert (
        terminal_line("a\r\nb\x1b]0;title\x07\u2028c\x9b")
        == "a\\r\\nb\\x1b]0;title\\x07\\u2028c\\x9b"
    )
    assert terminal_line("naïve café 東京 'x' \\") == "naïve café 東京 'x' \\"


def test_terminal_line_shows_invisible_format_characters_as_escapes():
    """A file name with a right-to-left override makes the rest of an error line read
    backwards ("report\u202egpj.exe" shows as "reportexe.jpg"); zero-width and no-break
    spaces hide what a name holds. All are shown as escapes (they were passed through)."""
    from core.markup import terminal_line

    assert terminal_line("report\u202egpj.exe") == "report\\u202egpj.exe"
    assert terminal_line("a\u200bb\xa0c\ufeffd\U000e0041") == "a\\u200bb\\xa0c\\ufeffd\\U000e0041"
    assert terminal_line(3) == "3"

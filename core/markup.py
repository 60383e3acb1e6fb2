"""Text from data shown through Markdown stays text: the one escaping helper.

Column names, values, file names and titles are chosen by whoever made the data. Written
raw into Markdown (report.md, the dashboard's ``st.markdown``, captions, labels), a column
named ``![b](http://evil.example/x.png)`` becomes an image the browser fetches, ``|``
splits a table cell, a newline ends a table row or starts a heading, and ``<b>`` or
``:red[...]`` (Streamlit) changes the page (issue 11, item 8).

CommonMark lets a backslash escape any ASCII punctuation character, and an escaped
character always shows as itself. :func:`escape_markdown` escapes every character that
can open markup anywhere in a line (links and images, emphasis, code, HTML and entities,
table pipes, strikethrough, Streamlit's ``:colour[...]``, ``:emoji:`` and ``$maths$``,
autolinked URLs, e-mail addresses and ``www.`` names), the first character of the text
when it could start a block (``#``, ``-``, ``1.``, ``>``) and turns line breaks and other
control characters into spaces. Ordinary punctuation inside a sentence (``.``, ``,``,
``'``, ``%``, ``/``) and underscores inside words (``date_of_birth``) are left as they
are, so a report.md read as plain text stays readable.
"""

from __future__ import annotations

import re

__all__ = ["code_fence", "code_span", "escape_markdown", "table_cell", "terminal_line"]

# Line breaks of every kind Python, browsers or Markdown renderers know, and the other
# control characters: one line of text stays one line.
_BREAKS = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")
# Characters that open inline markup wherever they stand ("!" and "(" only matter after
# "[", which is escaped; "$" is Streamlit's maths; "@" makes e-mail autolinks).
_INLINE = re.compile(r"([\\`*\[\]<|~$@&])")
# "scheme://" is autolinked by GitHub-flavoured Markdown.
_SCHEME = re.compile(r":(?=//)")
# An underscore opens or closes emphasis unless it stands between two letters or digits.
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# "www." is autolinked by GitHub-flavoured Markdown even without "http:".
_WWW = re.compile(r"(?i)(?<![^\W_])(www)\.")


def escape_markdown(text: object) -> str:
    """``text`` as Markdown that renders exactly as the text, on one line."""
    escaped = _BREAKS.sub(" ", str(text))
    escaped = _INLINE.sub(r"\\\1", escaped)
    escaped = _UNDERSCORE.sub(r"\\_", escaped)
    escaped = _WWW.sub(r"\1\\.", escaped)
    escaped = _SCHEME.sub(r"\\:", escaped)
    return _escape_block_start(escaped)


def _escape_block_start(text: str) -> str:
    """Escape a leading ``-``, ``+``, ``=``, ``#`` or ``>`` (list, heading, quote) or the
    ``.``/``)`` of a leading ``12.`` (ordered list)."""
    # Leading spaces are dropped: four of them would start a code block, and a rendered
    # line does not show them anyway.
    stripped = text.lstrip(" ")
    if stripped[:1] in ("-", "+", "=", "#", ">"):
        return f"\\{stripped}"
    number = re.match(r"\d+([.)])", stripped)
    if number:
        end = number.end(1) - 1
        return f"{stripped[:end]}\\{stripped[end:]}"
    return stripped


def table_cell(text: object) -> str:
    """``text`` for one cell of a Markdown table: escaped, one line, ``|`` cannot split it."""
    return escape_markdown(text)


def code_span(text: object) -> str:
    """``text`` as inline code (shown verbatim, in a monospace font), on one line.

    The backtick run around it is longer than any run inside, so the text cannot close
    the span (CommonMark, "Code spans").
    """
    content = _BREAKS.sub(" ", str(text))
    longest = max((len(run) for run in re.findall("`+", content)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if content.startswith("`") or content.endswith("`") else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def code_fence(content: str, info: str = "") -> list[str]:
    """Lines of a fenced code block holding ``content`` verbatim.

    The fence is longer than any run of backticks in ``content``, so no line of the content
    can close the block early (after which the rest would render as Markdown).
    """
    longest = max((len(run) for run in re.findall("`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, content, fence]


def terminal_line(text: object) -> str:
    """``text`` for one line of a terminal or log (the CLI's ``error: ...``, progress bars).

    A file or column name can hold a newline (forging a second ``error:`` line, or one a
    script parsing stderr trusts), an escape sequence that recolours or retitles the
    terminal, or a bidirectional override (U+202E) that makes the rest of the line read
    backwards. Every character Python does not call printable (controls, DEL, line and
    paragraph separators, format characters, spaces other than ' ') is shown as its Python
    escape (``\\n``, ``\\x1b``, ``\\u202e``), so the name stays recognisable and the message
    stays one line of what it says.
    """
    text = str(text)
    if text.isprintable():  # the usual case, without a Python loop over characters
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)

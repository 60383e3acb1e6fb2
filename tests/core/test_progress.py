"""Tests of core.progress: the one progress idea of the library, CLI and dashboard."""

from __future__ import annotations

import io

from core.progress import TextBar, stage


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_stage_maps_a_part_onto_its_share_of_the_whole():
    heard = []
    part = stage(lambda f, m: heard.append((f, m)), 0.2, 0.6)
    part(0.0, "a")
    part(0.5, "b")  # halfway through 0.2..0.6 is 0.4
    part(2.0, "c")  # a part never reports past its end
    assert heard == [(0.2, "a"), (0.4, "b"), (0.6, "c")]


def test_no_bar_before_the_delay_then_a_bar_with_fraction_message_and_time():
    stream, clock = io.StringIO(), Clock()
    bar = TextBar("apply", stream=stream, delay=2.0, interval=3600.0, clock=clock)
    bar(0.1, "reading people.csv")
    clock.now += 1.0
    bar(0.2, "step 1 of 2")
    assert stream.getvalue() == ""  # quick work prints nothing
    clock.now += 64.0  # 65 s after the start
    bar(0.5, "step 2 of 2: removed: name")
    bar.close()
    drawn = stream.getvalue()
    # 0.5 of 24 cells is 12 cells; 65 s is 01:05
    assert (
        drawn == "\rapply:  50%|" + "#" * 12 + " " * 12 + "| step 2 of 2: removed: name [01:05]\n"
    )
    bar.close()  # a second close writes nothing more
    assert stream.getvalue() == drawn


def test_control_characters_of_column_names_never_reach_the_terminal():
    stream, clock = io.StringIO(), Clock()
    bar = TextBar("risk\u202e", stream=stream, delay=0.0, interval=3600.0, clock=clock)
    bar(1.0, "column \x1b]0;title\x07\r\n")
    bar.close()
    drawn = stream.getvalue()
    # The bar's own \r (redraw) and final \n are the only controls; the name's are escapes.
    assert drawn.startswith("\rrisk\\u202e:") and drawn.endswith("\n")
    assert "column \\x1b]0;title\\x07\\r\\n [" in drawn
    assert not any(c in drawn[1:-1] for c in "\x1b\x07\r\n\u202e")


def test_a_line_said_while_the_bar_shows_goes_above_it_and_a_note_waits_for_the_bar():
    stream, clock = io.StringIO(), Clock()
    bar = TextBar("search", stream=stream, delay=2.0, interval=3600.0, clock=clock)
    bar.say("hierarchy: 'age.csv' → age (4 levels)")  # no bar yet: a plain line
    bar.note("best so far: loss 0.5")  # before the bar: kept until it shows
    bar(0.1, "10 of 100 nodes checked")
    assert stream.getvalue() == "hierarchy: 'age.csv' → age (4 levels)\n"
    clock.now += 3.0
    bar(0.2, "20 of 100 nodes checked")
    bar_line = "search:  20%|#####                   | 20 of 100 nodes checked [00:03]"
    assert stream.getvalue().endswith("\rbest so far: loss 0.5\n\r" + bar_line)
    start = len(stream.getvalue())
    bar.say("warning: x\x1b")  # over the bar (cleared), then the bar again under it
    assert (
        stream.getvalue()[start:] == "\r" + " " * len(bar_line) + "\rwarning: x\\x1b\n" + bar_line
    )
    bar.close()

"""The one way a page shows the library's error: escaped, then stop or go on (ui/page_errors.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

# Markdown, HTML and a Streamlit colour, as a hostile column name could carry them.
HOSTILE = "Column **x** has <b>bold</b> and :red[y]."
# The same text with every markup character backslash-escaped (written by hand, CommonMark:
# an escaped ASCII punctuation character shows as itself), so it is shown literally.
LITERAL = r"Column \*\*x\*\* has \<b>bold\</b> and :red\[y\]."


def stopping_page(message: str) -> None:
    import streamlit as st

    from core.errors import AnonymisationError
    from ui.page_errors import stop_on_error

    st.write("before")
    with stop_on_error():
        raise AnonymisationError(message)
    st.write("after the error")


def going_on_page(message: str) -> None:
    import streamlit as st

    from core.errors import AnonymisationError
    from ui.page_errors import continue_on_error

    with continue_on_error():
        raise AnonymisationError(message)
    with continue_on_error():
        st.write("a block that works")
    left, right = st.columns(2)
    with continue_on_error(right):
        raise AnonymisationError("in the right column")
    st.write("after the error")


def shown(at: AppTest) -> list[str]:
    return [element.value for element in at.markdown]


def test_stop_on_error_shows_the_message_literally_and_stops_the_page():
    at = AppTest.from_function(stopping_page, args=(HOSTILE,), default_timeout=30).run()
    assert not at.exception
    assert [e.value for e in at.error] == [LITERAL]
    assert shown(at) == ["before"]  # nothing after the failed block


def test_continue_on_error_shows_the_message_literally_and_goes_on():
    at = AppTest.from_function(going_on_page, args=(HOSTILE,), default_timeout=30).run()
    assert not at.exception
    assert [e.value for e in at.error] == [LITERAL, "in the right column"]
    assert at.columns[1].error[0].value == "in the right column"
    assert not at.columns[0].error
    assert shown(at) == ["a block that works", "after the error"]


def test_other_errors_are_not_swallowed():
    def page() -> None:
        from ui.page_errors import continue_on_error

        with continue_on_error():
            raise KeyError("a bug, not the user's input")

    at = AppTest.from_function(page, default_timeout=30).run()
    assert at.exception and not at.error  # reaches Streamlit (or friendly_errors), not shown here

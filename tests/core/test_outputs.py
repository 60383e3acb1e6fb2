"""core.outputs: output paths checked before any work, files written all or nothing."""

from __future__ import annotations

import os
import stat

import pytest

from core.errors import AnonymisationError
from core.outputs import Output, OutputPathError, file_name_part, plan_outputs, write_outputs


def test_file_name_part_keeps_plain_names_and_defuses_others():
    assert file_name_part("nric") == "nric"
    hostile = file_name_part("../../etc/passwd\nx")
    assert "/" not in hostile and "\n" not in hostile and not hostile.startswith(".")
    # two names that clean to the same text still get different file names
    assert file_name_part("a b") != file_name_part("a/b")


def test_private_files_are_created_0600_and_others_follow_the_umask(tmp_path):
    private, public = (
        Output("mapping", tmp_path / "m.enc", private=True),
        Output("x", tmp_path / "x"),
    )
    old = os.umask(0o022)
    try:
        write_outputs([(private, b"secret"), (public, b"table")])
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "m.enc").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "x").stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.enc", "x"]  # no temp file left


def test_a_record_that_appears_meanwhile_is_not_replaced_and_nothing_is_left(tmp_path):
    table, record = (
        Output("--out", tmp_path / "out.csv"),
        Output("mapping", tmp_path / "out.csv.mapping-a.enc", private=True, keep_existing=True),
    )
    plan_outputs([table, record], {}, force=True)
    record.path.write_bytes(b"earlier")  # another process, between planning and writing
    with pytest.raises(OutputPathError, match="appeared"):
        write_outputs([(table, b"new table"), (record, b"new mapping")], force=True)
    assert record.path.read_bytes() == b"earlier"
    assert sorted(p.name for p in tmp_path.iterdir()) == [record.path.name]


def test_update_outputs_may_exist_and_write_errors_name_the_file(tmp_path):
    ledger = Output("--ledger", tmp_path / "ledger.json", update=True)
    ledger.path.write_text("{}")
    plan_outputs([ledger], {"data": tmp_path / "data.csv"})
    write_outputs([(ledger, b'{"releases": []}')])
    assert ledger.path.read_text() == '{"releases": []}'
    missing = Output("--report", tmp_path / "gone" / "r.md")
    with pytest.raises(AnonymisationError, match="r.md"):
        write_outputs([(missing, b"x")])


def test_ctrl_c_received_by_another_thread_is_still_held_back():
    """The kernel hands a Ctrl-C to any thread of the process (NumPy, pyarrow and the
    engines run their own); Python raises it in the main thread. Inside the block it must
    wait until the block has finished (a temporary file created there is noted first)."""
    import signal
    import threading
    import time

    from core.outputs import _interrupts_held_back

    steps, before = [], signal.getsignal(signal.SIGINT)  # Spark's, once a test started it
    with pytest.raises(KeyboardInterrupt), _interrupts_held_back():
        sender = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
        sender.start()
        sender.join()
        for _ in range(50):  # bytecodes run: an interrupt let through is raised here
            time.sleep(0.001)
        steps.append("block finished")
    assert steps == ["block finished"]
    assert signal.getsignal(signal.SIGINT) is before

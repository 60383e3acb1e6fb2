"""docs/cli.md is generated from the parser (scripts/build_cli_reference.py) and cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from core.cli.parser import build_parser
from scripts import build_cli_reference

ROOT = Path(__file__).resolve().parents[2]


def test_docs_cli_md_is_what_the_script_generates():
    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == build_cli_reference.cli_reference(), (
        "docs/cli.md is stale: run .venv/bin/python scripts/build_cli_reference.py"
    )


def test_check_mode_fails_on_a_stale_reference(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "cli.md"
    stale.write_text("# Command-line reference\n", encoding="utf-8")
    monkeypatch.setattr(build_cli_reference, "REFERENCE", stale)
    assert build_cli_reference.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().out


def test_every_option_that_help_prints_is_in_the_reference():
    """Read apart from the generator's table: each command's --help text, as a user sees it."""
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = re.search(r"\{([a-z,-]+)\}", parser.format_help()).group(1).split(",")
    assert len(commands) == 14
    for command in commands:
        assert f"\n## {command}\n" in reference, command
        section = reference.split(f"\n## {command}\n")[1].split("\n## ")[0]
        help_text = _subcommand(parser, command).format_help()
        options = set(re.findall(r"^\s+(--[a-z][a-z-]*)", help_text, flags=re.MULTILINE))
        assert options, command
        for option in options:
            assert f"`{option}`" in section, (command, option)


def _subcommand(parser, name):
    (commands,) = (a for a in parser._actions if a.dest == "command")
    return commands.choices[name]

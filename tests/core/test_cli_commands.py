"""``python -m core <command>`` imports only that command's part of the library (issue 31:
start-up), and says the same as the parser with every command loaded."""

from __future__ import annotations

import subprocess
import sys

import pytest

from core.cli.commands import COMMANDS
from core.cli.parser import build_parser


def test_the_table_lists_every_command_of_the_full_parser_with_its_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert [(a.dest, a.help) for a in sub._choices_actions] == [
        (name, help_text) for name, (_, help_text) in COMMANDS.items()
    ]


@pytest.mark.parametrize("only", ["", *COMMANDS])
def test_a_parser_loading_one_command_shows_the_same_top_level_help(only):
    assert build_parser(only=only).format_help() == build_parser().format_help()


@pytest.mark.parametrize("only", list(COMMANDS))
def test_the_loaded_command_has_the_same_options_as_in_the_full_parser(only):
    def options(parser):
        sub = next(a for a in parser._actions if a.dest == "command")
        return sub.choices[only].format_help()

    assert options(build_parser(only=only)) == options(build_parser())


def test_the_risk_command_does_not_import_recipes_detection_or_safe_harbor():
    code = (
        "import sys\n"
        "from core.cli import main\n"
        "try:\n"
        "    main(['risk', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ['core.recipe', 'core.safe_harbor', 'core.detect', 'core.search', 'yaml']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


#: What no command's parser needs (issue 31: start-up): the techniques and the recipe
#: (core.recipe imports every technique, yaml among them), the release gate and report.
#: Only a command's run imports them.
WORK_MODULES = [
    "core.recipe",
    "core.techniques.registry",
    "core.release.gate",
    "core.release.report",
    "yaml",
]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_command_parser_imports_the_techniques_the_gate_or_the_report(command):
    code = (
        "import sys\n"
        "from core.cli import main\n"
        "try:\n"
        f"    main([{command!r}, '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {WORK_MODULES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"

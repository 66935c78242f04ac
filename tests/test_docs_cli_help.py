"""The command line's `--help` texts and the documentation come from one source: the pages show
each subcommand's help through the ``{cli-help} SUBCOMMAND`` directive (docs/_ext/kakuro_docs.py),
which renders the parser the command runs.

Checked here without building the site (tests/test_docs_site.py builds it): every subcommand of
`kakuro` has its ``{cli-help}`` block somewhere in docs/, so a new subcommand cannot be left out;
every such block names a subcommand; and the directive's text is what `kakuro ... --help` prints.
"""

from __future__ import annotations

import argparse
import re
from types import ModuleType

import pytest

from kakuro.cli import build_parser, main
from tests.conftest import DOCS, ROOT, docs_markdown, load_module

DIRECTIVE = re.compile(r"^```\{cli-help\}[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def subcommands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every leaf subcommand of the parser, as its words (('solve',), ('generate', 'classic'))."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return [leaf for name, sub in action.choices.items() for leaf in subcommands(sub, (*words, name))]
    return [words]


def documented() -> dict[tuple[str, ...], list[str]]:
    """The {cli-help} blocks of the site's pages: words -> the pages showing them."""
    found: dict[tuple[str, ...], list[str]] = {}
    for page in docs_markdown():
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            found.setdefault(tuple(match.group(1).split()), []).append(page.relative_to(ROOT).as_posix())
    return found


def extension() -> ModuleType:
    pytest.importorskip("sphinx", reason="the documentation tools are in the `test` extra: pip install -e '.[test]'")
    return load_module(DOCS / "_ext" / "kakuro_docs.py")


def test_the_parser_has_the_subcommands_this_test_expects() -> None:
    commands = subcommands(build_parser())
    assert ("solve",) in commands and ("generate", "classic") in commands and ("compare",) in commands


def test_every_subcommand_has_its_help_in_the_docs() -> None:
    shown = documented()
    missing = [" ".join(words) for words in subcommands(build_parser()) if words not in shown]
    assert not missing, (
        f"subcommands whose --help no page shows: {missing}; add a ```{{cli-help}} SUBCOMMAND``` block "
        "under the prose that explains it (docs/guide/cli.md, or the page of its topic)"
    )


def test_every_cli_help_block_names_a_subcommand() -> None:
    known = set(subcommands(build_parser())) | {()}
    unknown = {" ".join(words): pages for words, pages in documented().items() if words not in known}
    assert not unknown, f"{{cli-help}} blocks naming no subcommand: {unknown}"


def test_the_extension_walks_the_same_subcommands() -> None:
    assert list(extension().cli_commands()) == subcommands(build_parser())


@pytest.mark.parametrize("words", [(), *subcommands(build_parser())], ids=lambda words: " ".join(words) or "kakuro")
def test_the_pages_show_what_help_prints(words: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`kakuro WORDS --help` on a terminal HELP_WIDTH + 2 columns wide prints the block's text."""
    docs = extension()
    monkeypatch.setenv("COLUMNS", str(docs.HELP_WIDTH + 2))
    assert main([*words, "--help"]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip("\n") == docs.cli_help(words)


def test_an_unknown_subcommand_is_refused_with_the_known_ones() -> None:
    docs = extension()
    with pytest.raises(KeyError, match="has no subcommand 'solv'.*solve"):
        docs.cli_parser(["solv"])
    with pytest.raises(KeyError, match="has no subcommand 'classik'.*classic"):
        docs.cli_parser(["generate", "classik"])
    with pytest.raises(KeyError, match="kakuro compare has no subcommand .x.; it has: none"):
        docs.cli_parser(["compare", "x"])

"""Sphinx directives that render backend facts from the code, so the pages cannot drift from it.

``{backend-options} NAME``
    The capability line of backend NAME (complete or not, whether it needs a time limit, uses
    the seed, and which engine it runs on) and a table of its options: name, default, accepted
    values, meaning. Everything comes from `kakuro.backend_info(NAME)`.

``{backend-table}``
    One line per registered backend: name (linked to its page ``backends/NAME`` when that page
    exists), what it is, complete or not, and its options' names.

``{kakuro-api} GROUP``
    The autodoc entries of the names of `kakuro.__all__` in GROUP (`API_GROUPS`); the group
    ``other`` holds every exported name no group lists, so a new name always reaches the API
    reference (and the test of the API pages sees it).

``{technique-table}``
    The explanation's techniques in the order they are tried, with their difficulty level and
    what each does (`kakuro.deduction.TECHNIQUES`).

``{cli-help} [SUBCOMMAND...]``
    What ``kakuro SUBCOMMAND --help`` prints (``solve``, ``generate classic``, ``compare``; no
    argument: ``kakuro --help``), as a literal block, rendered at build time from the parsers
    the command line runs (`kakuro.cli.build_parser`), at a fixed width (`HELP_WIDTH`), so the
    pages and ``--help`` say the same thing.

In a MyST page::

    ```{backend-options} gac
    ```
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Iterator
from enum import Enum
from typing import Any, cast

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.parsing import nested_parse_to_nodes

import kakuro
from kakuro.options import Option, value_text


def _literal(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def _paragraph(*children: nodes.Node | str) -> nodes.paragraph:
    paragraph = nodes.paragraph()
    for child in children:
        paragraph += nodes.Text(child) if isinstance(child, str) else child
    return paragraph


def accepted(option: Option) -> list[nodes.Node | str]:
    """The accepted values of an option, as `kakuro backends NAME` words them
    (`Option.accepted`), each choice a literal."""
    if option.choices is None:
        return [option.accepted()]
    parts: list[nodes.Node | str] = ["one of "]
    for index, choice in enumerate(option.choices):
        parts += [", "] if index else []
        parts.append(_literal(value_text(choice)))
    return parts


def table(headers: list[str], rows: list[list[list[nodes.Node | str]]], widths: list[int]) -> nodes.table:
    """A docutils table: each cell is a list of inline nodes or strings."""
    table_node = nodes.table(classes=["kakuro-table"])
    group = nodes.tgroup(cols=len(headers))
    table_node += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for header in headers:
        row += nodes.entry("", _paragraph(header))
    head += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            row += nodes.entry("", _paragraph(*cell))
        body += row
    return table_node


def capabilities(info: kakuro.registry.BackendInfo) -> list[nodes.Node | str]:
    """The capability line of one backend."""
    engine = kakuro.registry.backend_class(info.name).engine
    parts: list[nodes.Node | str] = [
        _literal(info.name),
        ": ",
        "complete (proves unsatisfiability, counts solutions)" if info.complete
        else "incomplete (finds solutions, never proves there is none)",
        "; ",
        "needs a time limit" if info.needs_time_limit else "a time limit is optional",
        "; ",
        "uses the seed" if info.supports_seed else "ignores the seed (deterministic)",
        "; engine: ",
    ]
    if engine is None:
        parts.append("built in (the project's compiled engine or plain Python)")
    else:
        parts += ["the ", _literal(engine.pip), " package (", _literal(f"pip install {engine.pip}"), ")"]
    parts.append(".")
    return parts


class BackendOptions(SphinxDirective):
    """``{backend-options} NAME``: the capability line and option table of one backend."""

    required_arguments = 1
    has_content = False
    option_spec = {"no-capabilities": directives.flag}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            (info,) = kakuro.backend_info(name)
        except kakuro.UnknownBackendError as exc:
            raise self.error(f"backend-options: {exc}") from None
        result: list[nodes.Node] = []
        if "no-capabilities" not in self.options:
            result.append(_paragraph(*capabilities(info)))
        if not info.options:
            result.append(_paragraph(_literal(name), " has no options."))
            return result
        rows = [
            [[_literal(key)], [_literal(value_text(option.default))], accepted(option), [option.help]]
            for key, option in info.options.items()
        ]
        result.append(table(["option", "default", "accepted values", "meaning"], rows, [12, 12, 26, 50]))
        return result


class BackendTable(SphinxDirective):
    """``{backend-table}``: one line per registered backend."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        rows = []
        for info in kakuro.backend_info():
            page = f"backends/{info.name}"
            if page in self.env.found_docs:
                link = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=f"/{page}",
                                             refexplicit=True, refdoc=self.env.docname)
                link += _literal(info.name)
                name: list[nodes.Node | str] = [link]
            else:
                name = [_literal(info.name)]
            options: list[nodes.Node | str] = []
            for index, key in enumerate(info.options):
                if index:
                    options.append(", ")
                options.append(_literal(key))
            rows.append([name, [info.description], ["yes" if info.complete else "no"], options or ["none"]])
        return [table(["backend", "what it is", "complete", "options"], rows, [10, 50, 8, 32])]


API_GROUPS: dict[str, tuple[str, ...]] = {
    "solving": ("solve", "solve_many", "count_solutions", "Budget", "get_solver", "Solver"),
    "results": ("Result", "Count", "Status"),
    "puzzles": ("Puzzle", "Group", "Run", "Solution"),
    "formats": ("read", "write"),
    "backends": ("backends", "backend_info", "register"),
    "plugins": (
        "EnumeratingSolver", "Outcome", "Enumeration", "STATS", "Option", "Deadline", "Limits", "Engine",
        "BackendInfo",
        "ENTRY_POINT_GROUP",
    ),
    "explaining": ("explain",),
    "certifying": ("certify", "verify"),
    "errors": (
        "KakuroError", "InvalidPuzzleError", "InvalidSolutionError", "PuzzleFormatError", "UnknownBackendError",
        "BackendOptionError", "BackendUnavailableError", "UnsupportedOperationError",
    ),
}
"""The API reference's sections: names of `kakuro.__all__`, in the order shown."""


def api_names(group: str) -> list[str]:
    """The exported names of one group; `other`: those no group lists."""
    exported = list(kakuro.__all__)
    if group == "other":
        listed = {name for names in API_GROUPS.values() for name in names}
        return [name for name in exported if name not in listed]
    return [name for name in API_GROUPS[group] if name in exported]


class KakuroApi(SphinxDirective):
    """``{kakuro-api} GROUP``: autodoc entries for the exported names of one group."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        group = self.arguments[0]
        if group != "other" and group not in API_GROUPS:
            raise self.error(f"kakuro-api: unknown group {group!r}; groups: {', '.join(API_GROUPS)}, other")
        names = api_names(group)
        if not names:
            return [_paragraph("(No other names.)")]
        lines = ["```{eval-rst}"]
        for name in names:
            obj = getattr(kakuro, name)
            if isinstance(obj, type) and issubclass(obj, BaseException):
                kind = "autoexception"
            elif isinstance(obj, type):
                kind = "autoclass"
            elif callable(obj):
                kind = "autofunction"
            else:
                kind = "autodata"
            lines.append(f".. {kind}:: kakuro.{name}")
            if kind == "autodata":
                lines.extend(["   :no-value:", ""])
                continue
            if kind == "autoclass":
                lines.append("   :members:")
                if issubclass(obj, Enum):
                    lines.append("   :undoc-members:")
            lines.append("")
        lines.append("```")
        # The page is MyST Markdown and autodoc writes reStructuredText: one eval-rst block.
        return nested_parse_to_nodes(self.state, StringList(lines, source=self.get_source_info()[0]))


class TechniqueTable(SphinxDirective):
    """``{technique-table}``: level, name, description and puzzle kinds of every explanation technique."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from kakuro.deduction import LEVEL_NAMES, TECHNIQUES

        rows = [[[f"{t.level} {LEVEL_NAMES.get(t.level, '')}".strip()], [_literal(t.name)], [t.description],
                 [", ".join(t.kinds)]] for t in TECHNIQUES]
        return [table(["level", "technique", "what it does", "tried on"], rows, [12, 20, 54, 14])]


HELP_WIDTH = 88
"""Columns of the ``{cli-help}`` blocks: argparse's width on a 90-column terminal
(``COLUMNS=90 kakuro solve --help`` prints the same text)."""


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subparsers only there
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_parser(words: list[str] | tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser whose ``--help`` ``kakuro WORDS --help`` prints; KeyError names a word that
    is not a subcommand."""
    from kakuro.cli import build_parser

    parser = build_parser()
    for depth, word in enumerate(words):
        choices = _subcommands(parser)
        if word not in choices:
            raise KeyError(f"kakuro {' '.join(words[:depth])}".strip() + f" has no subcommand {word!r}; "
                           f"it has: {', '.join(choices) or 'none'}")
        parser = choices[word]
    return parser


def cli_commands() -> Iterator[tuple[str, ...]]:
    """Every leaf subcommand of `kakuro` as its words: ('solve',), ('generate', 'classic'), ..."""
    from kakuro.cli import build_parser

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        choices = _subcommands(parser)
        if not choices:
            yield words
        for name, command in choices.items():
            yield from walk(command, (*words, name))

    yield from walk(build_parser(), ())


def cli_help(words: list[str] | tuple[str, ...], width: int = HELP_WIDTH) -> str:
    """The text ``kakuro WORDS --help`` prints on a terminal `width` + 2 columns wide."""
    parser = cli_parser(words)
    formatter = cast(type[argparse.HelpFormatter], parser.formatter_class)  # (a class: HelpFormatter's kind)
    parser.formatter_class = functools.partial(formatter, width=width)
    return parser.format_help().rstrip("\n")


class CliHelp(SphinxDirective):
    """``{cli-help} [SUBCOMMAND...]``: the ``--help`` text of a subcommand, as a literal block."""

    optional_arguments = 2
    has_content = False

    def run(self) -> list[nodes.Node]:
        try:
            text = cli_help(self.arguments)
        except KeyError as exc:
            raise self.error(f"cli-help: {exc.args[0]}") from None
        block = nodes.literal_block(text, text, classes=["kakuro-cli-help"])
        block["language"] = "text"
        return [block]


def separate_indented_blocks(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """The docstrings are written for `help()`: an indented list may be followed at once by a
    paragraph. reStructuredText wants a blank line there; add it (the text is unchanged)."""
    index = 1
    while index < len(lines):
        before, line = lines[index - 1], lines[index]
        if line.strip() and not line[0].isspace() and before.strip() and before[0].isspace():
            lines.insert(index, "")
            index += 1
        index += 1


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", separate_indented_blocks)
    app.add_directive("backend-options", BackendOptions)
    app.add_directive("backend-table", BackendTable)
    app.add_directive("kakuro-api", KakuroApi)
    app.add_directive("technique-table", TechniqueTable)
    app.add_directive("cli-help", CliHelp)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

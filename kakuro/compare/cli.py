"""`python -m kakuro.compare`: run backends head to head and record every job.

    python -m kakuro.compare instances/ -b cpsat -b fc --time-limit 10 -j 2

Exit status: 0 when every job ran, 1 for bad input (or a results file it will not touch),
2 for a usage error, 3 when any result is WRONG, 130 when interrupted.

This module never imports `kakuro.report`: the summary printed at the end is the `summary`
given to `main` (`kakuro compare` and `python -m kakuro.compare` give the report's
`print_summary`, see `kakuro.cli.campaigns`), else the short per-backend count of
`kakuro.records.tally`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from kakuro.arguments import (
    at_least,
    non_negative_seconds,
    run_command,
    seconds_or_none,
)
from kakuro.clock import MAX_TIME_LIMIT
from kakuro.compare.campaign import Campaign, run_campaign
from kakuro.compare.jobs import (
    DEFAULT_BACKENDS,
    DEFAULT_GRACE,
    DEFAULT_TIME_LIMIT,
    Backend,
    Instance,
    Job,
    Limits,
    collect,
    keep_names,
    make_jobs,
    resolve_backends,
)
from kakuro.compare.worker import WorkerConfig
from kakuro.errors import KakuroError
from kakuro.records.files import ResultsFile, default_results_path, read_results
from kakuro.records.record import FINAL, JobStatus, Record, latest
from kakuro.records.tally import print_tally
from kakuro.records.verdict import Witnesses, overrule
from kakuro.registry import get_solver, import_plugins

PROG = "python -m kakuro.compare"
"""The program's name in usage lines and messages unless `main` is given another."""


class SummaryPrinter(Protocol):
    """Prints the summary of a campaign's records (`kakuro.report.print_summary` is one):
    rows grouped by `group_by` (source or size), under `title` (the results file)."""

    def __call__(self, records: Sequence[Record], *, group_by: str, title: str) -> object: ...


def parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The argument parser of `python -m kakuro.compare` (named `prog` in its usage)."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Run backends head to head on puzzle files and folders; every answer is verified by "
        "puzzle.check and each finished job is appended to a JSON-lines results file.",
        epilog="Statuses: SOLVED, UNSAT, TIMEOUT, MEMOUT, CRASH, ERROR, WRONG. Exit status: 0 done, 1 bad input, "
        "2 usage error, 3 some result is WRONG, 128 + the signal when interrupted "
        "(130 Ctrl-C). Tables, plots, HTML and LaTeX from a results file: "
        "python -m kakuro.report FILE",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files, or folders walked recursively for puzzle files")
    p.add_argument("-b", "--backend", action="append", default=[], metavar="SPEC",
                   help="backend spec such as cpsat or nmcs:level=2 (repeatable), named in the results as written; "
                   "'all' = every available backend; "
                   f"default: {', '.join(DEFAULT_BACKENDS[:1])} plus those "
                   f"of {', '.join(DEFAULT_BACKENDS[1:])} that are available")
    p.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_TIME_LIMIT, metavar="S",
                   help=f"seconds per job (default {DEFAULT_TIME_LIMIT:g}); 'none' for the longest limit "
                   f"({MAX_TIME_LIMIT:g} s, as in the library), refused for incomplete backends, which could run forever")
    p.add_argument("--grace", type=non_negative_seconds, default=DEFAULT_GRACE, metavar="S",
                   help=f"seconds past the limit before the worker is killed (default {DEFAULT_GRACE:g})")
    p.add_argument("--memory", type=at_least(1), default=None, metavar="MB",
                   help="resident memory a job may add to its worker, in MiB (the job's child processes included); "
                   "past it the worker is killed and the job is MEMOUT")
    p.add_argument("--repeat", type=at_least(1), default=1, metavar="R", help="runs per (puzzle, backend); "
                                                                              "run r uses seed SEED+r")
    p.add_argument("--seed", type=at_least(0), default=0, help="base seed (default 0)")
    p.add_argument("-j", "--jobs", type=at_least(1), default=os.cpu_count() or 1, metavar="N",
                   help="parallel workers (default: the number of cores); with --dask local, the number of Dask workers")
    p.add_argument("-o", "--out", default=None, metavar="FILE",
                   help="results file (default: a new results/compare-<time>.jsonl); never overwritten")
    p.add_argument("--resume", action="store_true", help="continue -o FILE: skip jobs recorded "
                                                         "with a final status, re-run crashed ones")
    p.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                   help="import a module (dotted name or .py file) in the parent "
                        "and every worker first, e.g. to register backends")
    p.add_argument("--skip-bad", action="store_true", help="skip unreadable puzzles (a bad line of a .jsonl, "
                                                           "...) and files with a warning instead of stopping")
    p.add_argument("--certify", action="store_true",
                   help="certify every UNSAT answer with a proof a checker verifies (kakuro certify; within the time "
                        "limit, once per puzzle): one that fails is WRONG, and each record notes `certified`")
    p.add_argument("--isolate", action="store_true",
                   help="run every job in a fresh worker process (forked from a "
                        "warmed-up one): nothing a job leaves behind reaches the next")
    dask = p.add_mutually_exclusive_group()
    dask.add_argument("--dask", default=None, metavar="ADDRESS",
                      help="run the jobs on a Dask cluster: a scheduler address such as tcp://host:8786, or 'local'")
    dask.add_argument("--scheduler-file", default=None, metavar="FILE",
                      help="run the jobs on the Dask cluster whose scheduler wrote FILE (dask scheduler --scheduler-file FILE)")
    p.add_argument("--group", choices=("source", "size"), default="source", help="group rows of the summary by file or grid size")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is shown only on a terminal anyway)")
    return p


def main(argv: Sequence[str] | None = None, *, prog: str = PROG, summary: SummaryPrinter | None = None) -> int:
    """`python -m kakuro.compare ARGV`; returns the exit status (see the module docstring).
    `summary` prints the records at the end (default: `kakuro.records.tally.print_tally`);
    `prog` names the program in usage lines and in the command that resumes a campaign."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser(prog).parse_args(argv)
    return run_command("kakuro.compare", lambda: _compare(args, argv, prog, summary or print_tally))


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def _compare(args: argparse.Namespace, argv: list[str], prog: str, summary: SummaryPrinter) -> int:
    try:
        if args.resume and args.out is None:
            raise KakuroError("--resume needs -o FILE, the results file to continue")
        import_plugins(args.imports)  # the workers import them too (WorkerConfig)
        backends = resolve_backends(args.backend, warn=_say)
        args.time_limit = _time_limit(args.time_limit, backends)
        instances = collect(args.paths, skip_bad=args.skip_bad, warn=_say)
        out = Path(args.out) if args.out else default_results_path()
        _refuse_input_as_output(out, args.paths, instances)
        results = ResultsFile(out, resume=args.resume, warn=_say)  # locked from here on: one writer at a time
    except KakuroError as exc:
        _say(f"error: {exc}")
        return 1
    with results:
        try:
            campaign, todo = _run(args, out, results, backends, instances)
        except KakuroError as exc:
            _say(f"error: {exc}")
            if results.created and out.stat().st_size == 0:  # made by this run, and nothing in it
                out.unlink()
            return 1
    records = read_results(out, warn=_say)
    summary(records, group_by=args.group, title=str(out))
    print(f"results: {out}")
    if campaign.interrupted or campaign.stalled:
        again = [a for a in argv if a != "--resume"] + ["--resume"] + ([] if args.out else ["-o", str(out)])
        _say(f"{campaign.stalled or 'interrupted'}: {campaign.recorded} of {len(todo)} jobs finished and recorded in "
             f"{out}; continue with: {prog} {shlex.join(again)}")
        return campaign.exit_status  # 128 + the signal that stopped it, or 1 (the watchdog)
    wrong = any(r.status is JobStatus.WRONG for r in overrule(latest(records)))
    return 3 if wrong else 0


def _time_limit(asked: float | None, backends: Sequence[Backend]) -> float:
    """Seconds per job: `asked`, or for `--time-limit none` the longest limit (`MAX_TIME_LIMIT`,
    which the library also takes for no limit); KakuroError when then some backend is
    incomplete (a search that restarts until it finds a solution never ends on its own)."""
    if asked is not None:
        return asked
    endless = [b.label for b in backends if not get_solver(b.spec).complete]
    if endless:
        raise KakuroError(f"--time-limit none: {', '.join(endless)} could search forever (incomplete); "
                          "give seconds, e.g. --time-limit 3600")
    return MAX_TIME_LIMIT


def _refuse_input_as_output(out: Path, paths: Sequence[str], instances: Sequence[Instance]) -> None:
    """Raise KakuroError when the results file `out` is one of the puzzle files (named on the
    command line or found in a folder): appending records would ruin it. Same file means the
    same file on disk (`os.path.samefile`), however its path is written or linked."""
    try:
        target = os.stat(out)
    except OSError:
        return  # nothing there yet: it cannot be an input
    inputs = dict.fromkeys([*(p for p in paths if os.path.isfile(p)), *(inst.source for inst in instances)])
    for source in inputs:
        try:
            found = os.stat(source)
        except OSError:
            continue
        if os.path.samestat(found, target):
            raise KakuroError(f"-o {out} is the puzzle file {source}, an input of this campaign; "
                              "write the results to another file")


def _run(
    args: argparse.Namespace, out: Path, results: ResultsFile, backends: list[Backend], instances: list[Instance]
) -> tuple[Campaign, list[Job]]:
    """Read what `out` already holds (when resuming), run the jobs left, append their records."""
    existing = results.existing
    other_limits = sorted({r.time_limit for r in existing} - {args.time_limit})
    if other_limits:
        shown = ", ".join(f"{limit:g} s" for limit in other_limits)
        raise KakuroError(f"{out} holds results with --time-limit {shown}; resume it with that limit, "
                          f"or write {args.time_limit:g} s results to another -o FILE (the report compares both)")
    backends = keep_names(backends, ((r.backend, r.spec) for r in existing))
    limits = Limits(args.time_limit, args.grace, args.memory)
    jobs = make_jobs(instances, backends, repeat=args.repeat, seed=args.seed, limits=limits)
    done = {r.key for r in latest(existing) if r.status in FINAL}
    todo = [job for job in jobs if job.key not in done]
    _say(f"results: {out}")
    if args.resume:
        _say(f"resuming {out}: {len(jobs) - len(todo)} of {len(jobs)} jobs already recorded, {len(todo)} to run")
    witnesses = Witnesses.of(instances, existing, warn=_say)
    imports = tuple(str(Path(n).resolve()) if Path(n).is_file() else n for n in args.imports)  # workers may run elsewhere
    config = WorkerConfig(tuple(b.spec for b in backends), imports, args.memory, (os.getcwd(),))
    workers = args.jobs if args.dask == "local" else max(1, min(args.jobs, len(todo)))
    campaign = run_campaign(
        todo, config, results, workers=workers, witnesses=witnesses, dask=args.dask,
        scheduler_file=args.scheduler_file, isolate=args.isolate,
        progress=not args.no_progress and sys.stderr.isatty(), skipped=len(jobs) - len(todo), certify=args.certify,
    )
    return campaign, todo

"""`kakuro compare` (and `python -m kakuro.compare`): run backends head to head, record every
job, and print the report's summary of the results file at the end.

    kakuro compare instances/ -b cpsat -b fc --time-limit 10 -j 2

Exit codes (`kakuro.cli.exits`): 0 when every job ran, 1 for bad input (or a results file it
will not touch), 2 for a usage error, 3 when any result is WRONG, 128 + N when signal N stopped
the campaign (the records kept, the command that resumes it printed). The harness is
`kakuro.compare`, the summary `kakuro.report`: this is where they meet (neither imports the
other).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kakuro.cli.arguments import CommandParser, at_least, non_negative_seconds, seconds_or_none
from kakuro.cli.common import add_budget, budget_of
from kakuro.cli.exits import EXIT_OK, EXIT_WRONG
from kakuro.cli.report import GROUPINGS
from kakuro.clock import MAX_TIME_LIMIT
from kakuro.errors import KakuroError, UsageError

if TYPE_CHECKING:
    from kakuro.compare.campaign import Campaign
    from kakuro.compare.jobs import Backend, Instance, Job
    from kakuro.limits import Budget
    from kakuro.records.files import ResultsFile

PROG = "python -m kakuro.compare"
"""The program's name in usage lines and in the resume line of `python -m kakuro.compare`."""
HELP = "run backends head to head on puzzle files, every answer verified (kakuro compare --help)"
DESCRIPTION = ("Run backends head to head on puzzle files and folders; every answer is verified by puzzle.check "
               "and each finished job is appended to a JSON-lines results file.")
EPILOG = ("Statuses: SOLVED, UNSATISFIABLE, TIMEOUT, BUDGET (stopped by --node-limit or --fail-limit), MEMOUT, CRASH, ERROR, "
          "WRONG. Exit codes as kakuro --help lists them: "
          f"{EXIT_OK} done, {EXIT_WRONG} when some result is WRONG, 128 + the signal when stopped by one (130 Ctrl-C), "
          "the records kept and the command that resumes the campaign printed. Tables, plots, HTML and LaTeX from a "
          "results file: kakuro report FILE")


def add_commands(commands: Any) -> None:
    """Add `compare` to the `kakuro` parser's subparsers."""
    _declare(commands.add_parser("compare", help=HELP, description=DESCRIPTION, epilog=EPILOG))


def parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The parser of `python -m kakuro.compare` (named `prog` in its usage): the arguments of
    `kakuro compare`."""
    return _declare(CommandParser(prog=prog, description=DESCRIPTION, epilog=EPILOG))


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    """`python -m kakuro.compare ARGV` (default: sys.argv[1:]); returns the exit code."""
    from kakuro.cli import run_program

    return run_program(lambda: parser(prog), argv)


def _declare(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of a campaign, on `p`."""
    from kakuro.compare.jobs import DEFAULT_BACKENDS, DEFAULT_GRACE, DEFAULT_TIME_LIMIT

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
    add_budget(p, "each job")
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
                   help="certify every UNSATISFIABLE answer with a proof a checker verifies (kakuro certify; within the time "
                        "limit, once per puzzle): one that fails is WRONG, and each record notes `certified`")
    p.add_argument("--isolate", action="store_true",
                   help="run every job in a fresh worker process (forked from a "
                        "warmed-up one): nothing a job leaves behind reaches the next")
    dask = p.add_mutually_exclusive_group()
    dask.add_argument("--dask", default=None, metavar="ADDRESS",
                      help="run the jobs on a Dask cluster: a scheduler address such as tcp://host:8786, or 'local'")
    dask.add_argument("--scheduler-file", default=None, metavar="FILE",
                      help="run the jobs on the Dask cluster whose scheduler wrote FILE (dask scheduler --scheduler-file FILE)")
    p.add_argument("--group", choices=GROUPINGS, default="source", help="group rows of the summary by file or grid size")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is shown only on a terminal anyway)")
    p.set_defaults(run=_run_compare)
    return p


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def _run_compare(args: argparse.Namespace) -> int:
    """Run the campaign `args` ask for and print the summary of its results file."""
    from kakuro.compare.jobs import collect, resolve_backends
    from kakuro.records.files import ResultsFile, default_results_path, read_results
    from kakuro.records.record import JobStatus, latest
    from kakuro.records.verdict import overrule
    from kakuro.report import print_summary

    if args.resume and args.out is None:
        raise UsageError("--resume needs -o FILE, the results file to continue")
    backends = resolve_backends(args.backend, warn=_say)
    args.time_limit = _time_limit(args.time_limit, backends)
    args.budget = _budget(budget_of(args), backends)
    instances = collect(args.paths, skip_bad=args.skip_bad, warn=_say)
    out = Path(args.out) if args.out else default_results_path()
    _refuse_input_as_output(out, args.paths, instances)
    with ResultsFile(out, resume=args.resume, warn=_say) as results:  # locked: one writer at a time
        try:
            campaign, todo = _run(args, out, results, backends, instances)
        except KakuroError:
            results.remove_if_unused()  # made by this run and nothing in it: it goes
            raise
    records = read_results(out, warn=_say)
    print_summary(records, group_by=args.group, title=str(out))
    print(f"results: {out}")
    if campaign.interrupted or campaign.stalled:
        again = [a for a in args.argv if a != "--resume"] + ["--resume"] + ([] if args.out else ["-o", str(out)])
        _say(f"{campaign.stalled or 'interrupted'}: {campaign.recorded} of {len(todo)} jobs finished and recorded in "
             f"{out}; continue with: {args.program} {shlex.join(again)}")
        return campaign.exit_status  # 128 + the signal that stopped it, or 1 (the watchdog)
    wrong = any(r.status is JobStatus.WRONG for r in overrule(latest(records)))
    return EXIT_WRONG if wrong else EXIT_OK


def _time_limit(asked: float | None, backends: Sequence[Backend]) -> float:
    """Seconds per job: `asked`, or for `--time-limit none` the longest limit (`MAX_TIME_LIMIT`,
    which the library also takes for no limit); UsageError when then some backend is
    incomplete (a search that restarts until it finds a solution never ends on its own)."""
    from kakuro.registry import get_solver

    if asked is not None:
        return asked
    endless = [b.label for b in backends if not get_solver(b.spec).complete]
    if endless:
        raise UsageError(f"--time-limit none: {', '.join(endless)} could search forever (incomplete); "
                          "give seconds, e.g. --time-limit 3600")
    return MAX_TIME_LIMIT


def _budget(asked: Budget | None, backends: Sequence[Backend]) -> Budget:
    """The budget of every job: `asked` when every backend honours it (BackendOptionError in one
    line, before any job runs, for the first that does not), else no budget."""
    from kakuro.limits import NO_BUDGET
    from kakuro.registry import get_solver

    for backend in backends:
        get_solver(backend.spec).checked_budget(asked)
    return asked or NO_BUDGET


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
    from kakuro.compare.campaign import run_campaign
    from kakuro.compare.jobs import Limits, keep_names, make_jobs
    from kakuro.compare.worker import WorkerConfig
    from kakuro.limits import Budget
    from kakuro.records.record import FINAL, latest
    from kakuro.records.verdict import Witnesses

    existing = results.existing
    other_limits = sorted({r.time_limit for r in existing} - {args.time_limit})
    if other_limits:
        shown = ", ".join(f"{limit:g} s" for limit in other_limits)
        raise KakuroError(f"{out} holds results with --time-limit {shown}; resume it with that limit, "
                          f"or write {args.time_limit:g} s results to another -o FILE (the report compares both)")
    other_budgets = sorted({str(Budget(**r.budget)) for r in existing} - {str(args.budget)})
    if other_budgets:
        raise KakuroError(f"{out} holds results with {'; '.join(other_budgets)} (--node-limit, --fail-limit); resume it "
                          f"with that budget, or write results with {args.budget} to another -o FILE")
    backends = keep_names(backends, ((r.backend, r.spec) for r in existing))
    limits = Limits(args.time_limit, args.grace, args.memory, args.budget)
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

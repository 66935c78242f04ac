"""Remake every picture the documentation and the README show, from the current version.

    python docs/make_images.py                  # replace the pictures in docs/ (this script's job)
    python docs/make_images.py --out DIR        # write them into DIR instead (same layout as docs/)

It runs the commands the pages show, in a temporary folder (nothing else is written), then
copies the pictures to the output folder:

- ``classic-10x10.svg``, ``classic-10x10-solved.svg``: ``kakuro generate classic --rows 10
  --cols 10 --seed 1``, then ``kakuro render`` without and with ``--solution``
  (docs/guide/generating.md);
- ``explain-step.svg``: ``kakuro generate classic --rows 10 --cols 10 --rate 6 --seed 0``, then
  ``kakuro explain hard.jsonl -o explain-step.svg`` (the first step at the hardest level);
- ``images/explain-page.png``: that puzzle's ``kakuro explain ... -o hard-trace.html`` page
  opened at the same step (``#N``) in a headless browser, 900x720 (docs/guide/explaining.md);
- ``images/compare-report.png``, ``images/compare-cactus.png``: the README's campaign
  (``python -m kakuro.compare instances/examples/ -b cpsat -b gac -b sat -b "nmcs:level=2"
  --time-limit 5 -j 2``, a few seconds once the engines are compiled), its HTML report
  (``python -m kakuro.report ... --html ... --plot ... --cd-diagram ...``) in a headless browser,
  1200x1500, the report's cactus plot (docs/guide/compare.md) and its critical-difference diagram
  (``images/cd-diagram.svg``, the README's).

The screenshots need Chromium or Chrome (``apt-get install -y chromium``): found on the PATH
(chromium, chromium-browser, google-chrome, google-chrome-stable), or named by ``--browser``
or the ``KAKURO_BROWSER`` variable. Without one the script says so, writes the other pictures
and exits 1; ``--no-browser`` skips the screenshots on purpose (exit 0).

Nothing a user has is overwritten: in docs/ the script replaces its own pictures (that is what
it is for); in any other ``--out`` folder a picture that exists already stops it before any
work, unless ``--force``. It prints the commit and date to cite in the captions.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's kakuro, whatever is installed
DOCS = ROOT / "docs"

SVGS = ("classic-10x10.svg", "classic-10x10-solved.svg", "explain-step.svg")
PLOTS = ("images/compare-cactus.png", "images/cd-diagram.svg")
SCREENSHOTS = ("images/compare-report.png", "images/explain-page.png")
OUTPUTS = SVGS + PLOTS + SCREENSHOTS
"""Every picture the script makes, relative to the output folder (docs/ by default)."""

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = "on Debian or Ubuntu: apt-get install -y chromium"
"""How to get a browser (said, never done: the tests that need one skip with this)."""
REPORT_WINDOW = (1200, 1500)
PAGE_WINDOW = (900, 720)
COMMAND_SECONDS = 900

CAMPAIGN = ["instances/examples/", "-b", "cpsat", "-b", "gac", "-b", "sat", "-b", "nmcs:level=2",
            "--time-limit", "5", "-j", "2", "-o", "results/examples.jsonl", "--no-progress"]
"""The README's quick-start campaign (--no-progress: no terminal here)."""


class Failure(Exception):
    """A step failed; the message says which and why."""


def find_browser(named: str | None) -> str | None:
    """The browser to take screenshots with: --browser, KAKURO_BROWSER, or the first of BROWSERS
    on the PATH; None when there is none."""
    for candidate in (named, os.environ.get("KAKURO_BROWSER")):
        if candidate:
            found = shutil.which(candidate)
            if found is None:
                raise Failure(f"the browser {candidate!r} is not an executable (--browser or KAKURO_BROWSER)")
            return found
    for name in BROWSERS:
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def no_browser_message() -> str:
    return (f"no headless browser found (looked for {', '.join(BROWSERS)} on the PATH; --browser PATH or "
            f"KAKURO_BROWSER names one; {INSTALL}), so "
            f"{' and '.join(Path(name).name for name in SCREENSHOTS)} were not made")


def run(words: Sequence[str], work: Path, *, module: str = "kakuro") -> str:
    """Run `python -m MODULE WORDS` on this checkout in `work`, in this process (the same entry
    point the command runs, without a new interpreter's start); its stdout. The command is echoed."""
    shown = "kakuro" if module == "kakuro" else f"python -m {module}"
    print(f"$ {shown} {shlex.join(words)}", flush=True)
    from kakuro.cli import main
    from kakuro.cli.compare import main as compare_main
    from kakuro.cli.report import main as report_main

    entry = {"kakuro": main, "kakuro.compare": compare_main, "kakuro.report": report_main}[module]
    out, err, here = io.StringIO(), io.StringIO(), Path.cwd()
    os.chdir(work)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = entry(list(words))
    finally:
        os.chdir(here)
    if code != 0:
        raise Failure(f"{shown} {shlex.join(words)} exited {code}:\n{err.getvalue()[-3000:]}")
    return out.getvalue()


def screenshot(browser: str, page: Path, fragment: str, window: tuple[int, int], png: Path) -> None:
    """The page as a person sees it in a browser window of that size (the top of the page)."""
    url = page.resolve().as_uri() + fragment
    print(f"$ {Path(browser).name} --headless --window-size={window[0]},{window[1]} --screenshot {url}", flush=True)
    command = [browser, "--headless", "--disable-gpu", "--hide-scrollbars", f"--window-size={window[0]},{window[1]}",
               "--virtual-time-budget=3000", f"--screenshot={png}", url]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.insert(2, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    done = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_SECONDS)
    if not png.is_file() or png.stat().st_size == 0:
        raise Failure(f"{browser} made no screenshot of {url} (exit {done.returncode}):\n{done.stderr[-3000:]}")


def make_svgs(work: Path, pictures: Path) -> Path:
    """The generated puzzle's pictures and the explanation step; returns the hard puzzle's file."""
    run(["generate", "classic", "--rows", "10", "--cols", "10", "--seed", "1", "-o", "puzzle.jsonl"], work)
    run(["render", "puzzle.jsonl", "-o", "classic-10x10.svg"], work)
    run(["render", "puzzle.jsonl", "--solution", "-o", "classic-10x10-solved.svg"], work)
    run(["generate", "classic", "--rows", "10", "--cols", "10", "--rate", "6", "--seed", "0", "-o", "hard.jsonl"], work)
    run(["explain", "hard.jsonl", "-o", "explain-step.svg"], work)
    for name in SVGS:
        shutil.copyfile(work / name, pictures / name)
    return work / "hard.jsonl"


def hardest_step_number(puzzle_file: Path) -> int:
    """The 1-based step `kakuro explain -o X.svg` draws by default (the page opens at `#N`)."""
    import kakuro
    from kakuro.deduction.picture import hardest_step

    return hardest_step(kakuro.explain(kakuro.read(puzzle_file)[0], time_limit=120)) + 1


def make_campaign(work: Path, pictures: Path) -> Path:
    """The README's campaign and its report; copies the cactus plot and the critical-difference
    diagram; returns the HTML report."""
    shutil.copytree(ROOT / "instances" / "examples", work / "instances" / "examples")
    run(CAMPAIGN, work, module="kakuro.compare")
    run(["results/examples.jsonl", "--html", "results/examples.html", "--plot", "results/plots/", "--cd-diagram",
         "results/cd.svg"], work, module="kakuro.report")
    shutil.copyfile(work / "results" / "plots" / "cactus.png", pictures / "images" / "compare-cactus.png")
    shutil.copyfile(work / "results" / "cd.svg", pictures / "images" / "cd-diagram.svg")
    return work / "results" / "examples.html"


def provenance() -> str:
    """The commit (with '+changes' when the tree differs from it) and today's date."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "kakuro"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    return f"commit {commit}{' with uncommitted changes to kakuro/' if dirty else ''}, {datetime.date.today()}"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python docs/make_images.py",
        description="Remake the pictures of the documentation and the README from the current version "
        f"({', '.join(OUTPUTS)}).",
        epilog="Exit status: 0 done, 1 a step failed or no browser was found (the other pictures are written), "
        "2 usage (an output exists outside docs/ without --force).",
    )
    parser.add_argument("--out", type=Path, default=DOCS, metavar="DIR",
                        help="the output folder, laid out as docs/ (default: docs/ of this checkout, in place)")
    parser.add_argument("--force", action="store_true",
                        help="replace pictures that exist in --out DIR (in docs/ the script replaces its own anyway)")
    parser.add_argument("--browser", default=None, metavar="PATH",
                        help="the Chromium or Chrome to take the screenshots with (default: KAKURO_BROWSER, "
                        f"else the first of {', '.join(BROWSERS)} on the PATH)")
    parser.add_argument("--no-browser", action="store_true", help="skip the two screenshots")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    out: Path = args.out
    in_docs = out.resolve() == DOCS.resolve()
    wanted = OUTPUTS if not args.no_browser else SVGS + PLOTS
    existing = [name for name in wanted if (out / name).exists()]
    if existing and not in_docs and not args.force:
        print(f"make_images: {', '.join(str(out / name) for name in existing)} exist(s); --force replaces them, "
              "nothing was written", file=sys.stderr)
        return 2
    try:
        browser = None if args.no_browser else find_browser(args.browser)
    except Failure as exc:
        print(f"make_images: {exc}", file=sys.stderr)
        return 2
    if browser is None and not args.no_browser:
        print(f"make_images: {no_browser_message()}; going on with the others", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="kakuro-images-") as folder:
        work = Path(folder)
        pictures = work / "pictures"
        (pictures / "images").mkdir(parents=True)
        try:
            hard = make_svgs(work, pictures)
            report = make_campaign(work, pictures)
            made = list(SVGS + PLOTS)
            if browser is not None:
                screenshot(browser, report, "", REPORT_WINDOW, pictures / "images" / "compare-report.png")
                run(["explain", "hard.jsonl", "-o", "hard-trace.html"], work)
                step = hardest_step_number(hard)
                screenshot(browser, work / "hard-trace.html", f"#{step}", PAGE_WINDOW,
                           pictures / "images" / "explain-page.png")
                made += SCREENSHOTS
        except (Failure, subprocess.TimeoutExpired) as exc:
            print(f"make_images: {exc}; nothing was written", file=sys.stderr)
            return 1
        for name in made:  # all pictures were made: now replace them
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pictures / name, out / name)
            print(f"wrote {out / name}")
    print(f"made by python docs/make_images.py at {provenance()}")
    if browser is None and not args.no_browser:
        print(f"make_images: {no_browser_message()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

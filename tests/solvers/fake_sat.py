#!/usr/bin/env python3
"""A stand-in SAT solver for the `dimacs` backend's tests: reads the DIMACS CNF file given as
its last argument and answers in the SAT competition's format (`s` line, `v` lines ending with
0, exit code 10 or 20). Solves with PySAT (Minisat 2.2) when it can be imported, else with a
small DPLL of its own (enough for the puzzles the tests give it).

`--mode=MODE` makes it misbehave, for fault injection:

- `ok` (default): answers correctly;
- `crash`: dies by SIGSEGV without an answer;
- `hang`: sleeps for an hour (started helpers too: `--mode=hang-family` forks a grandchild);
- `garbage`: prints random text and exits 10;
- `silent`: prints nothing and exits 0;
- `flood`: prints 100 MB of comment chatter before its answer;
- `vflood`: prints `v` lines without end (up to 100 MB);
- `unknown`: answers `s UNKNOWN` (exit 0);
- `wrong`: answers SATISFIABLE with every variable false;
- `noend`: leaves the closing 0 off its model;
- `lie-exit`: answers correctly but exits 20 on SATISFIABLE.

`--pidfile=PATH` writes its pid (and a hang-family grandchild's on a second line) to PATH.
`--daemon=yes` first starts a daemon (a double fork, a session of its own, an hour's sleep) and
writes its pid too, on the last line.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time


def read_cnf(path: str) -> tuple[int, list[list[int]]]:
    num_vars, clauses, current = 0, [], []
    with open(path, encoding="ascii") as file:
        for line in file:
            if line.startswith("c") or not line.strip():
                continue
            if line.startswith("p"):
                num_vars = int(line.split()[2])
                continue
            for word in line.split():
                literal = int(word)
                if literal == 0:
                    clauses.append(current)
                    current = []
                else:
                    current.append(literal)
    return num_vars, clauses


def solve(num_vars: int, clauses: list[list[int]]) -> list[int] | None:
    try:
        from pysat.solvers import Minisat22
    except ImportError:
        return dpll(num_vars, clauses)
    with Minisat22(bootstrap_with=clauses) as solver:
        return list(solver.get_model()) if solver.solve() else None


def dpll(num_vars: int, clauses: list[list[int]]) -> list[int] | None:
    """Unit propagation and branching on the first unassigned variable (no learning)."""
    sys.setrecursionlimit(100_000)
    assignment: dict[int, bool] = {}

    def value(lit: int) -> bool | None:
        held = assignment.get(abs(lit))
        return None if held is None else held == (lit > 0)

    def propagate(trail: list[int]) -> bool:
        changed = True
        while changed:
            changed = False
            for clause in clauses:
                free, satisfied = [], False
                for lit in clause:
                    v = value(lit)
                    if v:
                        satisfied = True
                        break
                    if v is None:
                        free.append(lit)
                if satisfied:
                    continue
                if not free:
                    return False
                if len(free) == 1:
                    assignment[abs(free[0])] = free[0] > 0
                    trail.append(abs(free[0]))
                    changed = True
        return True

    def search() -> bool:
        trail: list[int] = []
        if not propagate(trail):
            for var in trail:
                del assignment[var]
            return False
        var = next((v for v in range(1, num_vars + 1) if v not in assignment), None)
        if var is None:
            return True
        for choice in (True, False):
            assignment[var] = choice
            if search():
                return True
            del assignment[var]
        for v in trail:
            del assignment[v]
        return False

    if not search():
        return None
    return [v if assignment.get(v, False) else -v for v in range(1, num_vars + 1)]


def print_model(model: list[int], close: bool = True) -> None:
    words = [str(lit) for lit in model] + (["0"] if close else [])
    for start in range(0, len(words), 10):
        print("v " + " ".join(words[start : start + 10]))


def daemon() -> int:
    """Start a daemon the classic way (fork, setsid, fork again, the middle process exits): an
    orphan in a session of its own that sleeps for an hour. Its pid."""
    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            os.close(read)
            os.close(write)
            time.sleep(3600)
            os._exit(0)
        os.write(write, str(grandchild).encode())
        os._exit(0)
    os.close(write)
    pid = int(os.read(read, 64))
    os.close(read)
    os.waitpid(middle, 0)
    return pid


def main(argv: list[str]) -> int:
    options = dict(arg[2:].split("=", 1) for arg in argv[1:-1] if arg.startswith("--") and "=" in arg)
    mode = options.get("mode", "ok")
    if "pidfile" in options:
        pids = [os.getpid()]
        if mode == "hang-family":
            child = os.fork()
            if child == 0:
                time.sleep(3600)
                os._exit(0)
            pids.append(child)
        if options.get("daemon") == "yes":
            pids.append(daemon())
        with open(options["pidfile"], "w") as file:
            file.write("\n".join(map(str, pids)) + "\n")
    print("c fake_sat: a stand-in SAT solver for kakuro's tests", flush=True)
    if mode == "crash":
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode in ("hang", "hang-family"):
        time.sleep(3600)
    if mode == "garbage":
        print("".join(random.choice("abc xyz\n{}%") for _ in range(5000)))
        return 10
    if mode == "silent":
        return 0
    if mode == "flood":
        line = "c " + "chatter " * 12 + "\n"
        chunk = line * (1 << 12)
        for _ in range((100 << 20) // len(chunk)):
            sys.stdout.write(chunk)
    if mode == "vflood":
        print("s SATISFIABLE")
        chunk = ("v " + " ".join(map(str, range(1, 20))) + "\n") * (1 << 12)
        for _ in range((100 << 20) // len(chunk)):
            sys.stdout.write(chunk)
        return 10
    num_vars, clauses = read_cnf(argv[-1])
    if mode == "unknown":
        print("s UNKNOWN")
        return 0
    model = solve(num_vars, clauses)
    print(f"c conflicts: {len(clauses) % 7}")
    if model is None:
        print("s UNSATISFIABLE")
        return 20
    print("s SATISFIABLE")
    if mode == "wrong":
        model = [-abs(lit) for lit in model]
    print_model(model, close=mode != "noend")
    return 20 if mode == "lie-exit" else 10


if __name__ == "__main__":
    sys.exit(main(sys.argv))

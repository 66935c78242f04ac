"""The one driver of the compiled engine (`kakuro.native`): its one helper that compiles in the
middle of a solve moves every clock by the time it took, the kernels it names are the engine's,
and its typed settings read a backend's options as the backends declare them."""

from __future__ import annotations

import itertools

import pytest

import kakuro
from kakuro import Deadline
from kakuro.engine.compile import KERNELS
from kakuro.engine.layout import END_NS
from kakuro.native import kernels
from kakuro.native.settings import (
    FAMILY_KERNELS,
    HARMONY_KERNELS,
    PLAIN,
    REFUTE_KERNELS,
    SHAVE_KERNEL,
    STAGES,
    UNIQUE_KERNELS,
    Flat,
    Nested,
    Order,
    Restarts,
    Sampling,
    Strength,
    TreeSearch,
    Uct,
    game_kernel,
    root_kernel,
)
from kakuro.native.state import arm, build_state
from kakuro.native_solver import DEFAULT_TREE, TREE_OPTIONS

PUZZLE = "instances/examples/puzzlink-6x5.txt"


def test_compiling_mid_solve_moves_the_state_deadline_and_the_callers_by_what_it_took(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`compile_off_clock` moves the armed state's deadline (the kernels' clock) and the
    caller's `Deadline` by the seconds the compilation took; no deadline stays none."""
    asked: list[tuple[str, ...]] = []

    def ensure(*names: str) -> float:
        asked.append(names)
        return 2.5  # seconds "spent compiling"

    monkeypatch.setattr(kernels.engine, "ensure", ensure)
    st = build_state(kakuro.read(PUZZLE)[0], Strength.GAC)
    deadline = Deadline.after(10)
    arm(st, deadline.end, 0)
    armed_at = int(st.info[END_NS])
    moved = kernels.compile_off_clock([SHAVE_KERNEL], st, deadline)
    assert asked == [(SHAVE_KERNEL,)]
    assert moved.end == pytest.approx(deadline.end + 2.5)
    assert int(st.info[END_NS]) - armed_at == 2_500_000_000
    assert kernels.compile_off_clock([SHAVE_KERNEL]) == Deadline()  # no limit stays none


def test_every_kernel_the_driver_names_is_the_engines() -> None:
    """Each kernel name made from typed settings is one `kakuro.engine.compile.ensure` knows."""
    named = {SHAVE_KERNEL, *REFUTE_KERNELS, *HARMONY_KERNELS, *UNIQUE_KERNELS, *FAMILY_KERNELS}
    for strength in Strength:
        named.add(root_kernel(strength))
        for restarts, learning, order in itertools.product(Restarts, (True, False), Order):
            tree = TreeSearch(restarts, learning, order)
            named.update(tree.kernels(strength, (STAGES[0],)))
    for strength, game in itertools.product((Strength.FC, Strength.GAC), (Sampling(), Nested(2), Flat(3), Uct(4, 0.2))):
        named.add(game_kernel(game, strength))
    assert named <= set(KERNELS), sorted(named - set(KERNELS))
    assert PLAIN.kernel(Strength.GAC) == "depth_first:gac" and DEFAULT_TREE.kernel(Strength.GAC) == "learning:learn"
    assert TreeSearch(learning=False).kernel(Strength.GAC) == "learning:gac"
    assert DEFAULT_TREE.kernel(Strength.FC) == "depth_first:fc"  # forward checking never learns


def test_the_tree_search_reads_the_backends_options() -> None:
    """`TreeSearch.of` reads the options `gac`, `fc` and `rdv` declare (TREE_OPTIONS): their
    defaults are the learning search with every part on; every part off is PLAIN."""
    assert set(TREE_OPTIONS) == set(TreeSearch.__dataclass_fields__)
    assert TreeSearch() == DEFAULT_TREE
    plain = {"restarts": "none", "learning": False, "order": "dom", "phase": False, "implied": False, "balance": False}
    assert TreeSearch.of(plain) == PLAIN and PLAIN.is_plain(Strength.GAC)
    assert not DEFAULT_TREE.is_plain(Strength.GAC) and DEFAULT_TREE.is_plain(Strength.FC)
    with pytest.raises(ValueError, match="dom/nothing"):
        TreeSearch.of({**plain, "order": "dom/nothing"})

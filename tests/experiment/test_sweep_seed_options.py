"""A scenario input's option values may say `{seed}`: each cell reads the input with its own
seed there, and the input hash in the table is that of the options the cell ran."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from sweep_testlib import EXAMPLES

from kubesched.experiment import config_file
from kubesched.experiment._cells import grid_cells
from kubesched.experiment._inputs import for_seed, scenario_input

DAY = EXAMPLES / "compare/day.yaml"


def test_each_cell_reads_its_seed_in_the_options_and_is_hashed_so() -> None:
    spec = scenario_input(DAY, "some-format", {"seed": "{seed}", "shift": "s{seed}x", "n": "3"})
    configs = [config_file(EXAMPLES / "compare/spread.yaml")]
    cells = grid_cells(configs, [spec], [4, 9])
    assert [c.input.options for c in cells] == [
        {"seed": "4", "shift": "s4x", "n": "3"},
        {"seed": "9", "shift": "s9x", "n": "3"},
    ]
    assert [c.input_hash for c in cells] == [for_seed(spec, s).digest for s in (4, 9)]
    assert cells[0].input_hash != cells[1].input_hash
    assert spec.digest not in {c.input_hash for c in cells}
    assert {c.input.name for c in cells} == {"day.yaml"}


def test_without_the_placeholder_every_seed_shares_the_input_and_its_hash() -> None:
    spec = scenario_input(DAY, "some-format", {"seed": "7"})
    cells = grid_cells([config_file(EXAMPLES / "compare/spread.yaml")], [spec], [1, 2, 3])
    assert {c.input_hash for c in cells} == {spec.digest}
    assert all(c.input is spec for c in cells)


@given(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.text(alphabet="ab{}d", max_size=8).filter(lambda t: "{seed" not in t and "}" not in t),
)
def test_substitution_replaces_every_placeholder_and_nothing_else(seed: int, text: str) -> None:
    spec = scenario_input(Path("x"), "f", {"a": f"{text}{{seed}}{text}{{seed}}", "b": text})
    seeded = for_seed(spec, seed)
    assert seeded.options == {"a": f"{text}{seed}{text}{seed}", "b": text}

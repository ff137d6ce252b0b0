"""A sweep's cells: every (config, input, seed) of a grid, each one deterministic run.

A cell is plain data (it is pickled to a worker process or a Ray task) and is
keyed by the config's hash, the input's hash and the seed: the same key is the
same run, which is what `--resume` relies on. A scenario input whose options say
`{seed}` is the input with the cell's seed in its place, and hashed so.
"""

from __future__ import annotations

from attrs import frozen

from kubesched.experiment._configs import ConfigSpec
from kubesched.experiment._inputs import InputSpec, for_seed


@frozen
class Cell:
    """One run of a grid: its position, config, input and seed, with their hashes."""

    index: int
    config: ConfigSpec
    config_hash: str
    input: InputSpec
    input_hash: str
    seed: int

    @property
    def key(self) -> str:
        return cell_key(self.config_hash, self.input_hash, self.seed)


def cell_key(config_hash: str, input_hash: str, seed: int) -> str:
    """What identifies a run: `config-hash/input-hash/seed`."""
    return f"{config_hash}/{input_hash}/{seed}"


def grid_cells(configs: list[ConfigSpec], inputs: list[InputSpec], seeds: list[int]) -> list[Cell]:
    """Every combination, configs outermost, then inputs, then seeds (the table's row order);
    each input as its seed's run reads it (`for_seed`), hashed once."""
    per_seed: list[list[tuple[InputSpec, str]]] = []
    for spec in inputs:
        digests: dict[tuple[tuple[str, str], ...], str] = {}
        row = []
        for seed in seeds:
            seeded = for_seed(spec, seed)
            options = tuple(sorted(seeded.options.items()))
            if options not in digests:
                digests[options] = seeded.digest
            row.append((seeded, digests[options]))
        per_seed.append(row)
    cells: list[Cell] = []
    for config in configs:
        config_hash = config.digest
        for row in per_seed:
            for seed, (spec, input_hash) in zip(seeds, row, strict=True):
                cells.append(Cell(len(cells), config, config_hash, spec, input_hash, seed))
    return cells

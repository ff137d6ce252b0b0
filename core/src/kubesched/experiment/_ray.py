"""`sweep --ray auto|ADDRESS`: the cells as tasks on a Ray cluster (the optional extra
`kubesched-core[ray]`).

Every cell is one task running the same `run_cell` as the local runner. Ray starts
a task again when its worker dies (`max_retries`), so a killed worker costs its
cell a retry; a task that still fails is an error row. Ray must already be
initialised (tests start a local cluster) or an address given: `auto` joins the
cluster this machine belongs to (`ray start`), `ray://host:10001` a remote one.
The workers need the same kubesched and plugin distributions installed. What Ray's
driver prints while the cells run goes to standard error, so the command's standard
output is its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched.errors import KubeschedError
from kubesched.experiment._cell_run import run_cell
from kubesched.experiment._cells import Cell
from kubesched.experiment._runners import MAX_ATTEMPTS, OnRow, OnRunning, lost_row
from kubesched.experiment._stdout import stdout_to_stderr


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise KubeschedError("--ray needs Ray: pip install 'kubesched-core[ray]'") from None
    return ray


class RayRunner:
    """Cells as Ray tasks; see the module docstring."""

    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        self.address = address

    def _connect(self) -> tuple[Any, bool]:
        """Ray, and whether this runner connected it (and so must disconnect it)."""
        ray = _ray()
        if ray.is_initialized():
            return ray, False
        try:
            ray.init(address=self.address, log_to_driver=False)
        except ConnectionError as exc:
            raise KubeschedError(f"--ray {self.address}: {exc}") from None
        return ray, True

    def run(self, cells: Sequence[Cell], on_row: OnRow, on_running: OnRunning) -> None:
        """Every cell as a task; whatever Ray's driver prints meanwhile goes to standard
        error (`stdout_to_stderr`), and a connection this runner made is closed at the end."""
        with stdout_to_stderr():
            ray, connected = self._connect()
            try:
                self._run(ray, cells, on_row, on_running)
            finally:
                if connected:
                    ray.shutdown()

    def _run(self, ray: Any, cells: Sequence[Cell], on_row: OnRow, on_running: OnRunning) -> None:
        task = ray.remote(max_retries=MAX_ATTEMPTS - 1, retry_exceptions=False)(run_cell)
        cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        pending = {task.remote(cell, self.name): cell for cell in cells}
        on_running(min(cpus, len(pending)))
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    cell = pending.pop(ref)
                    try:
                        row = ray.get(ref)
                    except ray.exceptions.RayError as exc:
                        why = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                        row = lost_row(cell, self.name, why)
                    on_row(cell, row)
                on_running(min(cpus, len(pending)))
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

"""VolumeBindingArgs: how long PreBind waits for bindings, and the capacity-scoring shape."""

from __future__ import annotations

from attrs import frozen

from kubesched.api import FieldError, child, invalid

DEFAULT_BIND_TIMEOUT_SECONDS = 600


@frozen
class UtilizationShapePoint:
    """One point of the capacity-scoring curve: utilization (0..100) -> score (0..10)."""

    utilization: int
    score: int


@frozen
class VolumeBindingArgs:
    """The plugin's pluginConfig args (upstream's `VolumeBindingArgs`, v1 defaults).

    `shape` belongs to storage-capacity scoring, behind upstream's
    StorageCapacityScoring feature gate, which is off by default and not
    implemented here: a shape is refused, as upstream refuses it with the gate off.
    """

    bind_timeout_seconds: int = DEFAULT_BIND_TIMEOUT_SECONDS
    shape: list[UtilizationShapePoint] | None = None

    def validate(self, path: str = "") -> list[str]:
        """Upstream's ValidateVolumeBindingArgs, one `<field path>: <message>` line each."""
        errs: list[FieldError] = []
        if self.bind_timeout_seconds < 0:
            errs.append(
                invalid(
                    child(path, "bindTimeoutSeconds"),
                    self.bind_timeout_seconds,
                    "invalid BindTimeoutSeconds, should not be a negative value",
                )
            )
        if self.shape is not None:
            errs.append(
                invalid(
                    child(path, "shape"),
                    [(p.utilization, p.score) for p in self.shape],
                    "unexpected field `shape`, remove it or turn on the feature gate "
                    "StorageCapacityScoring",
                )
            )
        return [str(e) for e in errs]

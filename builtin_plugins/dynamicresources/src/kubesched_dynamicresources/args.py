"""DynamicResourcesArgs: how long Filter may take per node, and how long PreBind waits."""

from __future__ import annotations

from datetime import timedelta

from attrs import frozen

DEFAULT_FILTER_TIMEOUT = timedelta(seconds=10)
DEFAULT_BINDING_TIMEOUT = timedelta(seconds=600)


@frozen
class DynamicResourcesArgs:
    """The plugin's pluginConfig args (upstream's `DynamicResourcesArgs`, v1 defaults).

    `filterTimeout` bounds the allocator's search per node (DRASchedulerFilterTimeout, on by
    default; 0 means no limit): past it, the node is rejected with `timed out trying to
    allocate devices`. `bindingTimeout` is how long upstream's PreBind waits for
    device binding conditions; the in-memory cluster has no driver to wait for, so it is
    only checked.
    """

    filter_timeout: timedelta | None = DEFAULT_FILTER_TIMEOUT
    binding_timeout: timedelta | None = DEFAULT_BINDING_TIMEOUT

    def validate(self, path: str = "") -> list[str]:
        """Upstream's ValidateDynamicResourcesArgs: one `<path>: <message>` line each."""
        errors = []
        for name, value in (
            ("filterTimeout", self.filter_timeout),
            ("bindingTimeout", self.binding_timeout),
        ):
            if value is not None and value < timedelta(0):
                where = f"{path}.{name}" if path else name
                shown = f"{value.total_seconds():g}s"
                errors.append(f"{where}: Invalid value: {shown!r}: must be zero or positive")
        return errors

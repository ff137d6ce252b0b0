"""Turning what a plugin returned (or raised) into a Status that names the plugin.

A plugin that raises, or returns something that is not a Status, becomes an
Error status naming it; the framework itself never raises for a plugin's fault.
"""

from __future__ import annotations

from kubesched.framework._status import Code, Status


def quote(text: str) -> str:
    """Go's %q for plain names: the text in double quotes (upstream's messages use it)."""
    return f'"{text}"'


def bad_return(plugin: str, hook: str, value: object) -> Status:
    return Status.error(
        f"plugin {quote(plugin)} returned {type(value).__name__} from {hook}, "
        "expected a Status or None",
        plugin=plugin,
    )


def raised(plugin: str, hook: str, exc: BaseException) -> Status:
    """An Error naming the plugin that raised; the exception stays in `err`."""
    message = f"plugin {quote(plugin)} raised {type(exc).__name__} in {hook}: {exc}"
    return Status(Code.ERROR, message, plugin=plugin, err=exc)


def as_status(value: object, plugin: str, hook: str) -> Status | None:
    """Check a hook's return: None or a Status, anything else is an Error naming the plugin."""
    if value is None or type(value) is Status:
        return value
    return bad_return(plugin, hook, value)


def wrap_error(message: str, status: Status, plugin: str) -> Status:
    """Upstream's AsStatus(fmt.Errorf(message + ": %w", status.AsError())).WithPlugin(plugin)."""
    return Status(Code.ERROR, f"{message}: {status.message()}", plugin=plugin, err=status.err)

"""Calling a plugin: its return value, or an Error status naming it (upstream's runXPlugin).

`PluginCall` is the one place where the framework calls into plugin code. A
plugin that raises (anything but KeyboardInterrupt: SystemExit and the cycle
watchdog's timeout included), or returns something that is not a Status,
becomes an Error status naming it; the framework itself never raises for a
plugin's fault.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import frozen

from kubesched.framework._status import Code, Status

HookFn = Callable[..., Any]


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
    return Status(Code.ERROR, f"{message}: {status.message}", plugin=plugin, err=status.err)


@frozen
class PluginCall:
    """One plugin's function at one hook, called positionally in the hookspec's order."""

    plugin: str
    hook: str
    fn: HookFn

    def __call__(self, *args: Any) -> Any:
        """What the hook returned, or an Error Status naming the plugin when it raised."""
        try:
            return self.fn(*args)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            return raised(self.plugin, self.hook, exc)

    def status(self, *args: Any) -> Status | None:
        """Call a hook that returns a Status or None; anything else is an Error."""
        return as_status(self(*args), self.plugin, self.hook)

    def failed(self, exc: BaseException) -> Status:
        """The Error for this call raising `exc`, for loops that call `fn` themselves."""
        return raised(self.plugin, self.hook, exc)


def first_failure(
    plan: tuple[PluginCall, ...], title: str, *args: Any, skip: bool = False
) -> Status | None:
    """Run a plan in order and stop at the first non-success (upstream's runXPlugins loop).

    A rejection keeps its code and names its plugin; any other failure becomes
    `running <title> plugin "<name>": ...`. With `skip`, Skip means "not mine, ask
    the next one" (Bind): the first plugin that does not skip decides, and its
    success is a Success status naming it; a plan of only Skips returns Skip.
    """
    for call in plan:
        status = call.status(*args)
        if status is None or status.code == Code.SUCCESS:
            if skip:
                return Status(Code.SUCCESS, plugin=call.plugin)
            continue
        if skip and status.code == Code.SKIP:
            continue
        if status.is_rejected():
            return status.with_plugin(call.plugin)
        return wrap_error(f"running {title} plugin {quote(call.plugin)}", status, call.plugin)
    return Status(Code.SKIP) if skip else None

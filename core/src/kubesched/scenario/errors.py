"""The error a scenario that cannot be replayed raises: one line naming the file, the event
and the field."""

from __future__ import annotations

from kubesched.errors import InputError


class ScenarioError(InputError):
    """A scenario file or event stream that is not valid; exit 2 at the CLI."""


def event_error(
    message: str, *, source: str, index: int, field: str | None = None
) -> ScenarioError:
    """The error of event `index` (0-based, as `events[index]` in the file)."""
    return ScenarioError(message, file=source, obj=f"event {index}", field=field)

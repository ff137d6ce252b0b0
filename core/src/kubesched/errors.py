"""The exception types kubesched raises for user mistakes.

Every user-facing error carries where it happened (file, document, object,
field path) so the CLI prints one line and exits non-zero, never a traceback.

    KubeschedError
    ├── InputError          bad manifests or objects (exit 2)
    │   └── QuantityError   a resource quantity that does not parse
    ├── ConfigError         a KubeSchedulerConfiguration that does not load or validate (exit 1)
    └── PluginError         a plugin that cannot be found, loaded, built or run at a point (exit 1)
        └── PluginCrash     a plugin that raised, exited or hung where nothing can go on (exit 2)
"""

from __future__ import annotations

MAX_MESSAGE = 500
"""Characters of a message a user is shown at most: no input floods a terminal."""


def cut_message(text: str) -> str:
    """`text`, or its start and how much was left out."""
    if len(text) <= MAX_MESSAGE:
        return text
    return f"{text[:MAX_MESSAGE]}... ({len(text) - MAX_MESSAGE} more characters)"


class KubeschedError(Exception):
    """Base class of every error kubesched reports to a user."""


class InputError(KubeschedError):
    """Bad input: names the file, the document, the object and the field where known."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        document: int | None = None,
        obj: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message = cut_message(message)
        self.file = file
        self.document = document
        self.obj = obj
        self.field = field
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file)
        if self.document is not None:
            where.append(f"document {self.document}")
        if self.obj:
            where.append(self.obj)
        if self.field:
            where.append(f"field {self.field}")
        prefix = ": ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class QuantityError(InputError):
    """A quantity string that Kubernetes would not accept."""


class ConfigError(KubeschedError):
    """A configuration that does not load or validate; `errors` holds one line per problem."""

    def __init__(self, errors: list[str], *, file: str | None = None) -> None:
        self.errors = [cut_message(e) for e in errors]
        self.file = file
        prefix = f"{file}: " if file else ""
        super().__init__("\n".join(prefix + e for e in self.errors))


class PluginError(KubeschedError):
    """A plugin that cannot be found, loaded, built, or used at an extension point."""


class PluginCrash(PluginError):
    """A plugin that raised, called `sys.exit` or did not return where the run cannot go on
    without it: its constructor, or the profile's QueueSort. Exit status 2, as for any
    other input the run cannot use; a plugin failing inside one pod's cycle fails only
    that pod."""


class PluginDeprecationWarning(FutureWarning):
    """A plugin implements a hook, or takes a hook argument, that is deprecated.

    A FutureWarning, so users of the CLI see it by default: they are the ones
    who can ask the plugin's authors to update it. Emitted once per process for
    each plugin and deprecation, with the plugin's name.
    """

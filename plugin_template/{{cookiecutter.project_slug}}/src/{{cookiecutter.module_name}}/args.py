"""The plugin's args: what a profile's `pluginConfig` may set, the defaults, and validation.

kubesched structures `pluginConfig[].args` of a profile into this class (camelCase keys in
YAML, snake_case fields here), fills in the defaults below, then calls `validate`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from attrs import frozen

_LABEL_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


def is_label_key(key: str) -> bool:
    """A Kubernetes label key: an optional DNS subdomain prefix and '/', then a name of at most
    63 characters (alphanumerics, '-', '_', '.'), starting and ending with an alphanumeric."""
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.fullmatch(prefix)):
        return False
    return len(name) <= 63 and _LABEL_NAME.fullmatch(name) is not None


@frozen
class {{ cookiecutter.plugin_name }}Args:
    """Which node label the plugin reads, and which of its values it prefers.

    `values` are in order of preference: the first one is the most wanted.
    """

    label_key: str = "example.com/tier"
    values: tuple[str, ...] = ("gold", "silver", "bronze")

    def rank(self, labels: Mapping[str, str]) -> int | None:
        """Where the `label_key` value in `labels` stands in `values` (0 = most preferred);
        None when the label is missing or its value is not listed."""
        value = labels.get(self.label_key)
        if value is None or value not in self.values:
            return None
        return self.values.index(value)

    def validate(self, path: str) -> list[str]:
        """Every problem, one `<field path>: <message>` line each (upstream's field errors)."""
        at = f"{path}." if path else ""
        errors: list[str] = []
        if not self.label_key:
            errors.append(f"{at}labelKey: Required value")
        elif not is_label_key(self.label_key):
            errors.append(
                f'{at}labelKey: Invalid value: "{self.label_key}": must be a label key, '
                'like "example.com/tier"'
            )
        if not self.values:
            errors.append(f"{at}values: Required value")
        for i, value in enumerate(self.values):
            if value in self.values[:i]:
                errors.append(f'{at}values[{i}]: Duplicate value: "{value}"')
            elif value and (len(value) > 63 or not _LABEL_NAME.fullmatch(value)):
                errors.append(f'{at}values[{i}]: Invalid value: "{value}": must be a label value')
        return errors

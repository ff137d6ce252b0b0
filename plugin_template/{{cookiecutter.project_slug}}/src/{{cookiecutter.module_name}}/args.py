"""The plugin's args: what a profile's `pluginConfig` may set, the defaults, and validation.

kubesched structures `pluginConfig[].args` of a profile into this class (camelCase keys in
YAML, snake_case fields here), fills in the defaults below, then calls `validate`.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen
from kubesched.api import validate_label_key, validate_label_value


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
        else:
            errors += map(str, validate_label_key(f"{at}labelKey", self.label_key))
        if not self.values:
            errors.append(f"{at}values: Required value")
        for i, value in enumerate(self.values):
            if value in self.values[:i]:
                errors.append(f'{at}values[{i}]: Duplicate value: "{value}"')
            else:
                errors += map(str, validate_label_value(f"{at}values[{i}]", value))
        return errors

{%- from "imports.jinja" import from_import -%}
"""{{ cookiecutter.plugin_name }}Args: defaults, ranking, and validation messages."""

from __future__ import annotations

from typing import Any

import pytest

{{ from_import(cookiecutter.module_name ~ ".args", [cookiecutter.plugin_name ~ "Args"]) }}

PATH = "profiles[0].pluginConfig[0].args"


def test_the_defaults_are_valid() -> None:
    assert {{ cookiecutter.plugin_name }}Args().validate(PATH) == []


@pytest.mark.parametrize(
    ("labels", "rank"),
    [
        ({"example.com/tier": "gold"}, 0),
        ({"example.com/tier": "silver"}, 1),
        ({"example.com/tier": "bronze"}, 2),
        ({"example.com/tier": "tin"}, None),
        ({"other.io/tier": "gold"}, None),
        ({}, None),
    ],
)
def test_rank_is_the_position_of_the_value(labels: dict[str, str], rank: int | None) -> None:
    assert {{ cookiecutter.plugin_name }}Args().rank(labels) == rank


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        pytest.param({"label_key": "kubernetes.io/hostname", "values": ("a", "b")}, [], id="valid"),
        pytest.param({"label_key": ""}, [f"{PATH}.labelKey: Required value"], id="empty key"),
        pytest.param(
            {"label_key": "Example.com/tier"},
            [
                f'{PATH}.labelKey: Invalid value: "Example.com/tier": prefix part a lowercase '
                "RFC 1123 subdomain must consist of lower case alphanumeric characters"
            ],
            id="upper-case prefix",
        ),
        pytest.param(
            {"label_key": "example.com/-tier"},
            [
                f'{PATH}.labelKey: Invalid value: "example.com/-tier": name part must consist of '
                "alphanumeric characters"
            ],
            id="name starts with a dash",
        ),
        pytest.param({"values": ()}, [f"{PATH}.values: Required value"], id="no values"),
        pytest.param(
            {"values": ("gold", "silver", "gold")},
            [f'{PATH}.values[2]: Duplicate value: "gold"'],
            id="duplicate value",
        ),
        pytest.param(
            {"values": ("gold", "not valid")},
            [
                f'{PATH}.values[1]: Invalid value: "not valid": a valid label must be an empty '
                "string or consist of alphanumeric characters"
            ],
            id="bad value",
        ),
        pytest.param(
            {"label_key": "", "values": ()},
            [f"{PATH}.labelKey: Required value", f"{PATH}.values: Required value"],
            id="every error is reported",
        ),
    ],
)
def test_validate(fields: dict[str, Any], errors: list[str]) -> None:
    """Each error, upstream's message for the field (shown here up to its first clause)."""
    got = {{ cookiecutter.plugin_name }}Args(**fields).validate(PATH)
    assert [e[: len(want)] for e, want in zip(got, errors, strict=False)] == errors
    assert len(got) == len(errors)


def test_validate_at_the_root_has_no_leading_dot() -> None:
    errors = {{ cookiecutter.plugin_name }}Args(values=()).validate("")
    assert errors == ["values: Required value"]

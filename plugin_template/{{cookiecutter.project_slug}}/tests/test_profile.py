{%- from "imports.jinja" import from_import -%}
{%- set points = cookiecutter.extension_points.replace(" ", "").split(",") -%}
{%- set name = cookiecutter.plugin_name -%}
"""The plugin in a whole profile, next to the default plugins, as `kubesched simulate` runs it.

The default plugins come with the `kubesched` distribution, which the `test` extra installs;
`kubesched_simulate` is a fixture of kubesched's pytest plugin (it comes with kubesched-core).
"""

from __future__ import annotations

from typing import Any

from kubesched.testing import Simulate, make_node, make_pod

{{ from_import(cookiecutter.module_name, [name]) }}

POINTS = [
{%- for point in points %}
{%- set parts = point.split("_") %}
    "{{ parts[0] }}{% for part in parts[1:] %}{{ part | capitalize }}{% endfor %}",
{%- endfor %}
]
"""The profile's extension points (`plugins` keys) the plugin is enabled at."""
ARGS = {"labelKey": "example.com/tier", "values": ["gold"]}
CONFIG: dict[str, Any] = {
    "profiles": [
        {
            "schedulerName": "default-scheduler",
            "plugins": {
                point: {
                    "enabled": [{"name": {{ name }}.name}],
                    "disabled": [{"name": "*"}] if point == "queueSort" else [],
                }
                for point in POINTS
            },
            "pluginConfig": [{"name": {{ name }}.name, "args": ARGS}],
        }
    ]
}
NODES = [
    make_node("plain").capacity(cpu="4", memory="16Gi").obj(),
    make_node("gold").capacity(cpu="4", memory="16Gi").label("example.com/tier", "gold").obj(),
]
PLUGINS = { {{- name }}.name: {{ name }}}
"""Registered in code too: the tests pass before the project is installed."""
PODS = [make_pod(f"web-{i}").namespace("shop").req(cpu="500m").obj() for i in range(4)]


def test_the_default_profile_spreads_the_pods(kubesched_simulate: Simulate) -> None:
    run = kubesched_simulate(NODES, PODS)
    assert set(run.placements.values()) == {"plain", "gold"}


def test_the_profile_with_the_plugin_schedules_every_pod(kubesched_simulate: Simulate) -> None:
    run = kubesched_simulate(NODES, PODS, config=CONFIG, plugins=PLUGINS)
{%- if points | select("in", ["pre_filter", "filter", "score"]) | list %}
    assert set(run.placements.values()) == {"gold"}
{%- else %}
    assert None not in run.placements.values()
{%- endif %}

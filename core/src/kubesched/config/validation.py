"""Upstream's rules for a defaulted KubeSchedulerConfiguration, with its messages.

A port of `ValidateKubeSchedulerConfiguration` (pkg/scheduler/apis/config/
validation/validation.go) and the component-base client-connection and
leader-election rules, plus each plugin's own args validation. One line per
problem: `<field path>: <message>`, in upstream's order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import attrs

from kubesched.config.converter import unstructure
from kubesched.config.field_errors import duplicate, invalid, required
from kubesched.config.types import (
    API_VERSION,
    ClientConnectionConfiguration,
    Extender,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    PluginSet,
)

REMOVED_PLUGINS: tuple[str, ...] = ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")
"""Plugin names that are invalid in v1 (upstream's invalidPluginsByVersion)."""

_REMOVED_DETAIL = (
    f'was invalid in version "{API_VERSION}" '
    f'(KubeSchedulerConfiguration is version "{API_VERSION}")'
)


def validate_configuration(cfg: KubeSchedulerConfiguration) -> list[str]:
    """Every rule upstream checks after defaulting, one line per problem."""
    errors = _client_connection_errors(cfg.client_connection, "clientConnection")
    errors += _leader_election_errors(cfg.leader_election, "leaderElection")
    if cfg.parallelism <= 0:
        errors.append(
            invalid("parallelism", cfg.parallelism, "should be an integer value greater than zero")
        )
    if not cfg.profiles:
        errors.append(required("profiles"))
    else:
        seen: dict[str, int] = {}
        for i, profile in enumerate(cfg.profiles):
            path = f"profiles[{i}]"
            errors += _profile_errors(profile, path)
            name = profile.scheduler_name or ""
            if name in seen:
                errors.append(duplicate(f"{path}.schedulerName", name))
            seen[name] = i
        errors += _common_queue_sort_errors(cfg.profiles)
    errors += _percentage_errors("percentageOfNodesToScore", cfg.percentage_of_nodes_to_score)
    if cfg.pod_initial_backoff_seconds <= 0:
        errors.append(
            invalid(
                "podInitialBackoffSeconds",
                cfg.pod_initial_backoff_seconds,
                "must be greater than 0",
            )
        )
    if cfg.pod_max_backoff_seconds < cfg.pod_initial_backoff_seconds:
        errors.append(
            invalid(
                "podMaxBackoffSeconds",
                cfg.pod_max_backoff_seconds,
                "must be greater than or equal to PodInitialBackoffSeconds",
            )
        )
    errors += _extender_errors(cfg.extenders, "extenders")
    return errors


def _client_connection_errors(cc: ClientConnectionConfiguration, path: str) -> list[str]:
    if cc.burst < 0:
        return [invalid(f"{path}.burst", cc.burst, "must be non-negative")]
    return []


def _leader_election_errors(le: LeaderElectionConfiguration, path: str) -> list[str]:
    if not le.leader_elect:
        return []
    errors = []
    zero = timedelta(0)
    for name, value in (
        ("leaseDuration", le.lease_duration),
        ("renewDeadline", le.renew_deadline),
        ("retryPeriod", le.retry_period),
    ):
        if value <= zero:
            errors.append(invalid(f"{path}.{name}", value, "must be greater than zero"))
    if le.lease_duration <= le.renew_deadline:
        errors.append(
            invalid(
                f"{path}.leaseDuration",
                le.renew_deadline,
                "LeaseDuration must be greater than RenewDeadline",
            )
        )
    for name, text in (
        ("resourceLock", le.resource_lock),
        ("resourceNamespace", le.resource_namespace),
        ("resourceName", le.resource_name),
    ):
        if not text:
            errors.append(invalid(f"{path}.{name}", text, f"{name} is required"))
    if le.resource_lock != "leases":
        errors.append(
            invalid(f"{path}.resourceLock", le.resource_lock, 'resourceLock value must be "leases"')
        )
    return errors


def _percentage_errors(path: str, value: int | None) -> list[str]:
    if value is not None and not 0 <= value <= 100:
        return [invalid(path, value, "not in valid range [0-100]")]
    return []


def _profile_errors(profile: KubeSchedulerProfile, path: str) -> list[str]:
    errors = []
    if not profile.scheduler_name:
        errors.append(required(f"{path}.schedulerName"))
    errors += _percentage_errors(
        f"{path}.percentageOfNodesToScore", profile.percentage_of_nodes_to_score
    )
    if profile.plugins is not None:
        for point, plugin_set in profile.plugins.by_point().items():
            for j, plugin in enumerate(plugin_set.enabled):
                if point != "multiPoint" and plugin.name in REMOVED_PLUGINS:
                    errors.append(
                        invalid(
                            f"{path}.plugins.{point}.enabled[{j}]", plugin.name, _REMOVED_DETAIL
                        )
                    )
    seen: set[str] = set()
    for j, entry in enumerate(profile.plugin_config):
        entry_path = f"{path}.pluginConfig[{j}]"
        if entry.name in seen:
            errors.append(duplicate(entry_path, entry.name))
        seen.add(entry.name)
        if entry.name in REMOVED_PLUGINS:
            errors.append(invalid(entry_path, entry.name, _REMOVED_DETAIL))
        elif attrs.has(type(entry.args)) and hasattr(entry.args, "validate"):
            errors += _args_errors(entry.name, entry.args, f"{entry_path}.args")
    return errors


def _args_errors(name: str, args: Any, path: str) -> list[str]:
    """The args' own validation; a validator that fails is reported, not raised."""
    try:
        return list(args.validate(path))
    except Exception as exc:
        return [
            f'{path}: validating the args of plugin "{name}" failed: {type(exc).__name__}: {exc}'
        ]


def _common_queue_sort_errors(profiles: Sequence[KubeSchedulerProfile]) -> list[str]:
    """The explicitly configured queueSort (and its args) must be the same in every profile."""
    errors = []
    first = profiles[0].plugins.queue_sort if profiles[0].plugins else PluginSet()
    if len(first.enabled) > 1:
        errors.append(
            invalid(
                "profiles[0].plugins.queueSort.enabled",
                len(first.enabled),
                "only one queue sort plugin can be enabled",
            )
        )
    name = first.enabled[0].name if first.enabled else ""
    args = next((e.args for e in profiles[0].plugin_config if name and e.name == name), None)
    for i, profile in enumerate(profiles[1:], start=1):
        current = profile.plugins.queue_sort if profile.plugins else PluginSet()
        if current != first:
            errors.append(
                invalid(
                    f"profiles[{i}].plugins.queueSort",
                    _plugin_set_value(current),
                    "must be the same for all profiles",
                )
            )
        for entry in profile.plugin_config:
            if entry.name == name and entry.args != args:
                errors.append(
                    invalid(
                        f"profiles[{i}].pluginConfig.args",
                        unstructure(entry.args),
                        "queueSort must be the same for all profiles",
                    )
                )
    return errors


def _plugin_set_value(plugin_set: PluginSet) -> dict[str, list[str]]:
    return {
        "enabled": [p.name for p in plugin_set.enabled],
        "disabled": [p.name for p in plugin_set.disabled],
    }


def _extender_errors(extenders: Sequence[Extender], path: str) -> list[str]:
    errors = []
    binders = 0
    managed: set[str] = set()
    for i, extender in enumerate(extenders):
        extender_path = f"{path}[{i}]"
        if extender.prioritize_verb and extender.weight <= 0:
            errors.append(
                invalid(
                    f"{extender_path}.weight",
                    extender.weight,
                    "must have a positive weight applied to it",
                )
            )
        if extender.bind_verb:
            binders += 1
        for j, resource in enumerate(extender.managed_resources):
            name_path = f"{extender_path}.managedResources[{j}].name"
            errors += _extended_resource_name_errors(name_path, resource.name)
            if resource.name in managed:
                errors.append(
                    invalid(name_path, resource.name, "duplicate extender managed resource name")
                )
            managed.add(resource.name)
    if binders > 1:
        errors.append(
            invalid(
                path,
                f"found {binders} extenders implementing bind",
                "only one extender can implement bind",
            )
        )
    return errors


_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QUALIFIED_NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_DNS_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN_FMT = rf"{_DNS_LABEL_FMT}(\.{_DNS_LABEL_FMT})*"
_DNS_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)


def _regex_error(message: str, fmt: str, *examples: str) -> str:
    quoted = " or ".join(f"'{e}', " for e in examples)
    return f"{message} (e.g. {quoted}regex used for validation is '{fmt}')"


def qualified_name_errors(value: str) -> list[str]:
    """Upstream's IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name."""
    parts = value.split("/")
    if len(parts) > 2:
        example = _regex_error(
            _QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"
        )
        return [
            f"a qualified name {example} with an optional DNS subdomain prefix "
            "and '/' (e.g. 'example.com/MyName')"
        ]
    errors = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errors.append("prefix part must be no more than 253 characters")
            if not re.fullmatch(_DNS_SUBDOMAIN_FMT, prefix):
                errors.append(
                    "prefix part "
                    + _regex_error(_DNS_SUBDOMAIN_MSG, _DNS_SUBDOMAIN_FMT, "example.com")
                )
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part must be no more than 63 characters")
    if not re.fullmatch(_QUALIFIED_NAME_FMT, name):
        errors.append(
            "name part "
            + _regex_error(_QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errors


def _is_extended_resource_name(name: str) -> bool:
    """Not native (no '/' or a kubernetes.io/ prefix), not `requests.`-prefixed, and a
    qualified name once prefixed with `requests.` (upstream's IsExtendedResourceName)."""
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests."):
        return False
    return not qualified_name_errors(f"requests.{name}")


def _extended_resource_name_errors(path: str, name: str) -> list[str]:
    errors = [invalid(path, name, message) for message in qualified_name_errors(name)]
    if not errors and not _is_extended_resource_name(name):
        errors.append(invalid(path, name, "is an invalid extended resource name"))
    return errors

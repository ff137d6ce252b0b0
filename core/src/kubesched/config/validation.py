"""Upstream's rules for a defaulted KubeSchedulerConfiguration, with its messages.

A port of `ValidateKubeSchedulerConfiguration` (pkg/scheduler/apis/config/
validation/validation.go) and the component-base client-connection and
leader-election rules, plus each plugin's own args validation. One line per
problem: `<field path>: <message>`, in upstream's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import attrs

from kubesched.api._field_errors import FieldError, Shown, duplicate, invalid, required
from kubesched.api._names import qualified_name_errors, validate_label_name
from kubesched.config.converter import unstructure
from kubesched.config.duration import format_duration
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
    before_profiles = [
        *_client_connection_errors(cfg.client_connection, "clientConnection"),
        *_leader_election_errors(cfg.leader_election, "leaderElection"),
    ]
    if cfg.parallelism <= 0:
        before_profiles.append(
            invalid("parallelism", cfg.parallelism, "should be an integer value greater than zero")
        )
    after_profiles = [
        *_percentage_errors("percentageOfNodesToScore", cfg.percentage_of_nodes_to_score),
        *_backoff_errors(cfg),
        *_extender_errors(cfg.extenders, "extenders"),
    ]
    return (
        [str(e) for e in before_profiles]
        + _profiles_errors(cfg.profiles)
        + [str(e) for e in after_profiles]
    )


def _profiles_errors(profiles: Sequence[KubeSchedulerProfile]) -> list[str]:
    """Each profile's rules and args, duplicate scheduler names, the common queue sort."""
    if not profiles:
        return [str(required("profiles"))]
    lines = []
    seen: set[str] = set()
    for i, profile in enumerate(profiles):
        path = f"profiles[{i}]"
        lines += _profile_errors(profile, path)
        name = profile.scheduler_name or ""
        if name in seen:
            lines.append(str(duplicate(f"{path}.schedulerName", name)))
        seen.add(name)
    return lines + [str(e) for e in _common_queue_sort_errors(profiles)]


def _backoff_errors(cfg: KubeSchedulerConfiguration) -> list[FieldError]:
    errors = []
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
    return errors


def _client_connection_errors(cc: ClientConnectionConfiguration, path: str) -> list[FieldError]:
    if cc.burst < 0:
        return [invalid(f"{path}.burst", cc.burst, "must be non-negative")]
    return []


def _leader_election_errors(le: LeaderElectionConfiguration, path: str) -> list[FieldError]:
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
            errors.append(
                invalid(
                    f"{path}.{name}", Shown(format_duration(value)), "must be greater than zero"
                )
            )
    if le.lease_duration <= le.renew_deadline:
        errors.append(
            invalid(
                f"{path}.leaseDuration",
                Shown(format_duration(le.renew_deadline)),
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


def _percentage_errors(path: str, value: int | None) -> list[FieldError]:
    if value is not None and not 0 <= value <= 100:
        return [invalid(path, value, "not in valid range [0-100]")]
    return []


def _profile_errors(profile: KubeSchedulerProfile, path: str) -> list[str]:
    """The profile's own rules, then each plugin's args validation, in upstream's order."""
    errors: list[FieldError] = []
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
    lines = [str(e) for e in errors]
    seen: set[str] = set()
    for j, entry in enumerate(profile.plugin_config):
        entry_path = f"{path}.pluginConfig[{j}]"
        if entry.name in seen:
            lines.append(str(duplicate(entry_path, entry.name)))
        seen.add(entry.name)
        if entry.name in REMOVED_PLUGINS:
            lines.append(str(invalid(entry_path, entry.name, _REMOVED_DETAIL)))
        elif attrs.has(type(entry.args)) and hasattr(entry.args, "validate"):
            lines += _args_errors(entry.name, entry.args, f"{entry_path}.args")
    return lines


def _args_errors(name: str, args: Any, path: str) -> list[str]:
    """The args' own validation; a validator that fails is reported, not raised."""
    try:
        return list(args.validate(path))
    except Exception as exc:
        return [
            f'{path}: validating the args of plugin "{name}" failed: {type(exc).__name__}: {exc}'
        ]


def _common_queue_sort_errors(profiles: Sequence[KubeSchedulerProfile]) -> list[FieldError]:
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


def _extender_errors(extenders: Sequence[Extender], path: str) -> list[FieldError]:
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


def _is_extended_resource_name(name: str) -> bool:
    """Not native (no '/' or a kubernetes.io/ prefix), not `requests.`-prefixed, and a
    qualified name once prefixed with `requests.` (upstream's IsExtendedResourceName)."""
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests."):
        return False
    return not qualified_name_errors(f"requests.{name}")


def _extended_resource_name_errors(path: str, name: str) -> list[FieldError]:
    errors = validate_label_name(path, name)
    if not errors and not _is_extended_resource_name(name):
        errors.append(invalid(path, name, "is an invalid extended resource name"))
    return errors

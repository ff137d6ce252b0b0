"""The configuration's extenders, made ready for the scheduler (upstream's buildExtenders).

Ignorable extenders go after the others; every profile's NodeResourcesFit
args get `ignoredResources` set to the extended resources an extender
manages with `ignoredByScheduler` (upstream replaces the list, and fails when
a profile has no NodeResourcesFit args).
"""

from __future__ import annotations

import attrs
from attrs import evolve

from kubesched.config import Extender, KubeSchedulerConfiguration
from kubesched.scheduler.extenders import ExtenderSettings, HTTPExtender, TLSSettings

NODE_RESOURCES_FIT = "NodeResourcesFit"


def extender_settings(e: Extender) -> ExtenderSettings:
    """A configured extender as the scheduler takes it."""
    tls = e.tls_config
    return ExtenderSettings(
        url_prefix=e.url_prefix,
        filter_verb=e.filter_verb,
        preempt_verb=e.preempt_verb,
        prioritize_verb=e.prioritize_verb,
        bind_verb=e.bind_verb,
        weight=e.weight,
        enable_https=e.enable_https,
        tls=None if tls is None else TLSSettings(**attrs.asdict(tls)),
        http_timeout=e.http_timeout.total_seconds(),
        node_cache_capable=e.node_cache_capable,
        managed_resources=frozenset(r.name for r in e.managed_resources),
        ignorable=e.ignorable,
    )


def build_extenders(cfg: KubeSchedulerConfiguration) -> list[HTTPExtender]:
    """The configuration's extenders in upstream's order: ignorable ones last."""
    ordered = sorted(cfg.extenders, key=lambda e: e.ignorable)  # stable: config order kept
    return [HTTPExtender(extender_settings(e)) for e in ordered]


def ignore_managed_resources(
    cfg: KubeSchedulerConfiguration,
) -> tuple[KubeSchedulerConfiguration, list[str]]:
    """`cfg` (defaulted) with NodeResourcesFit ignoring the resources extenders manage with
    ignoredByScheduler, and the problems found."""
    ignored = [r.name for e in cfg.extenders for r in e.managed_resources if r.ignored_by_scheduler]
    if not ignored:
        return cfg, []
    profiles, errors = [], []
    for i, profile in enumerate(cfg.profiles):
        configs = list(profile.plugin_config)
        at = next((j for j, pc in enumerate(configs) if pc.name == NODE_RESOURCES_FIT), None)
        args = None if at is None else configs[at].args
        if args is None or not hasattr(args, "ignored_resources"):
            errors.append(
                f"profiles[{i}]: extenders manage resources with ignoredByScheduler, but "
                f"the profile has no {NODE_RESOURCES_FIT} args to ignore them in"
            )
            profiles.append(profile)
            continue
        assert at is not None
        configs[at] = evolve(configs[at], args=evolve(args, ignored_resources=tuple(ignored)))
        profiles.append(evolve(profile, plugin_config=configs))
    return evolve(cfg, profiles=profiles), errors

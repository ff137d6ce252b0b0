"""KubeSchedulerConfiguration (`kubescheduler.config.k8s.io/v1`): load, default, merge, validate.

    cfg = load_config("scheduler-config.yaml")      # defaulted; ConfigError lists every problem
    profiles = effective_profiles(cfg, default_registry())

An existing kube-scheduler config file loads unchanged: strictly (unknown and
duplicate fields are errors with their path), defaulted as upstream's v1
defaulting does (default plugins restricted to the installed ones), and
validated with upstream's rules and messages, plus the checks upstream makes
when it builds each profile's framework.
"""

from kubesched.config.defaults import (
    UPSTREAM_DEFAULT_PLUGINS,
    apply_defaults,
    default_config,
    default_plugins,
    merge_plugin_set,
    merge_plugins,
    missing_default_plugins,
)
from kubesched.config.loader import load_config, parse_config
from kubesched.config.output import config_document, effective_document
from kubesched.config.resolve import check_config, effective_profiles
from kubesched.config.types import (
    API_VERSION,
    DEFAULT_SCHEDULER_NAME,
    KIND,
    ClientConnectionConfiguration,
    Extender,
    ExtenderManagedResource,
    ExtenderTLSConfig,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
)

__all__ = [
    "API_VERSION",
    "DEFAULT_SCHEDULER_NAME",
    "KIND",
    "UPSTREAM_DEFAULT_PLUGINS",
    "ClientConnectionConfiguration",
    "Extender",
    "ExtenderManagedResource",
    "ExtenderTLSConfig",
    "KubeSchedulerConfiguration",
    "KubeSchedulerProfile",
    "LeaderElectionConfiguration",
    "Plugin",
    "PluginConfig",
    "PluginSet",
    "Plugins",
    "apply_defaults",
    "check_config",
    "config_document",
    "default_config",
    "default_plugins",
    "effective_document",
    "effective_profiles",
    "load_config",
    "merge_plugin_set",
    "merge_plugins",
    "missing_default_plugins",
    "parse_config",
]

"""KubeSchedulerConfiguration (`kubescheduler.config.k8s.io/v1`): load, default, merge, validate.

    cfg = load_config("scheduler-config.yaml", default_registry())  # defaulted and validated

An existing kube-scheduler config file loads unchanged: strictly (unknown and
duplicate fields are errors with their path), defaulted as upstream's v1
defaulting does (default plugins restricted to the installed ones), and
validated with upstream's rules and messages. The config layer knows plugins
only as data, through a `PluginCatalog` (the framework's Registry is one);
building profiles from a configuration is `kubesched.profile`'s part.
"""

from kubesched.config.catalog import PluginCatalog
from kubesched.config.defaults import (
    UPSTREAM_DEFAULT_PLUGINS,
    apply_defaults,
    default_config,
    default_plugins,
    merge_plugin_set,
    merge_plugins,
    missing_default_plugins,
)
from kubesched.config.loader import (
    load_config,
    parse_config,
    prepare_config,
    read_config,
    read_text,
)
from kubesched.config.output import config_document
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
    "PluginCatalog",
    "PluginConfig",
    "PluginSet",
    "Plugins",
    "apply_defaults",
    "config_document",
    "default_config",
    "default_plugins",
    "load_config",
    "merge_plugin_set",
    "merge_plugins",
    "missing_default_plugins",
    "parse_config",
    "prepare_config",
    "read_config",
    "read_text",
]

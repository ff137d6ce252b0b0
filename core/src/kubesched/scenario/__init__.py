"""Scenarios: a starting cluster and timed events, replayed on a simulated clock by the same
scheduler `simulate` runs.

    scenario = load_scenario("day.yaml")
    result = replay(scenario, seed=1, options=ReplayOptions(ties="first"))
    result.to_document()   # apiVersion kubesched.io/v1alpha1, kind ReplayResult
"""

from kubesched.scenario.checks import checked
from kubesched.scenario.engine import Engine, Progress
from kubesched.scenario.errors import ScenarioError
from kubesched.scenario.formats import (
    DEFAULT_FORMAT,
    GROUP,
    ScenarioFormat,
    load_format,
    read_scenario,
    read_scenario_file,
    scenario_formats,
)
from kubesched.scenario.loader import (
    SCENARIO_API_VERSION,
    load_scenario,
    parse_scenario,
    read_event,
)
from kubesched.scenario.model import (
    EVENT_KINDS,
    SCENARIO_KIND,
    Event,
    NodeAdded,
    NodeCordoned,
    NodeLabelled,
    NodeRemoved,
    NodeTainted,
    NodeUncordoned,
    NodeUntainted,
    PodCreated,
    PodDeleted,
    Scenario,
    event_kind,
    scenario_of,
)
from kubesched.scenario.observers import Attempt, ClusterView, Observer, Summary
from kubesched.scenario.options import DEFAULT_SAMPLE_INTERVAL, ReplayOptions
from kubesched.scenario.plot import plot_bytes, write_plot
from kubesched.scenario.podlog import POD_STATES, PodRecord
from kubesched.scenario.replay import replay
from kubesched.scenario.result import (
    RESULT_KIND,
    TABLE_SUFFIXES,
    ReplayResult,
    RunTotals,
    csv_text,
    parquet_bytes,
    write_table,
)
from kubesched.scenario.series import Counters, ResourceUse, Sample
from kubesched.scheduler.ties import TIE_RULES, TIES_FIRST, TIES_RANDOM, node_order

__all__ = [
    "DEFAULT_FORMAT",
    "DEFAULT_SAMPLE_INTERVAL",
    "EVENT_KINDS",
    "GROUP",
    "POD_STATES",
    "RESULT_KIND",
    "SCENARIO_API_VERSION",
    "SCENARIO_KIND",
    "TABLE_SUFFIXES",
    "TIES_FIRST",
    "TIES_RANDOM",
    "TIE_RULES",
    "Attempt",
    "ClusterView",
    "Counters",
    "Engine",
    "Event",
    "NodeAdded",
    "NodeCordoned",
    "NodeLabelled",
    "NodeRemoved",
    "NodeTainted",
    "NodeUncordoned",
    "NodeUntainted",
    "Observer",
    "PodCreated",
    "PodDeleted",
    "PodRecord",
    "Progress",
    "ReplayOptions",
    "ReplayResult",
    "ResourceUse",
    "RunTotals",
    "Sample",
    "Scenario",
    "ScenarioError",
    "ScenarioFormat",
    "Summary",
    "checked",
    "csv_text",
    "event_kind",
    "load_format",
    "load_scenario",
    "node_order",
    "parquet_bytes",
    "parse_scenario",
    "plot_bytes",
    "read_event",
    "read_scenario",
    "read_scenario_file",
    "replay",
    "scenario_formats",
    "scenario_of",
    "write_plot",
    "write_table",
]

"""Scenarios: a starting cluster and timed events, replayed on a simulated clock by the same
scheduler `simulate` runs.

    scenario = load_scenario("day.yaml")
    result = replay(scenario, seed=1, options=ReplayOptions(ties="first"))
    result.to_document()   # apiVersion kubesched.io/v1alpha1, kind ReplayResult
"""

from kubesched.scenario.checks import checked
from kubesched.scenario.engine import Engine, Progress
from kubesched.scenario.errors import ScenarioError
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
from kubesched.scenario.podlog import POD_STATES, PodRecord
from kubesched.scenario.replay import replay
from kubesched.scenario.result import RESULT_KIND, ReplayResult, RunTotals, csv_text, write_table
from kubesched.scenario.series import Counters, ResourceUse, Sample
from kubesched.scheduler.ties import TIE_RULES, TIES_FIRST, TIES_RANDOM, node_order

__all__ = [
    "DEFAULT_SAMPLE_INTERVAL",
    "EVENT_KINDS",
    "POD_STATES",
    "RESULT_KIND",
    "SCENARIO_API_VERSION",
    "SCENARIO_KIND",
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
    "Summary",
    "checked",
    "csv_text",
    "event_kind",
    "load_scenario",
    "node_order",
    "parse_scenario",
    "read_event",
    "replay",
    "scenario_of",
    "write_table",
]

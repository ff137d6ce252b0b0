"""The public replay API: scenarios on a simulated clock (see `kubesched.scenario`).

from kubesched.replay import load_scenario, replay, ReplayOptions

result = replay(load_scenario("day.yaml"), "scheduler-config.yaml", seed=1)
print(result.totals.counters.bound)
"""

from kubesched.scenario import *  # noqa: F403
from kubesched.scenario import __all__ as __all__

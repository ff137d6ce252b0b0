"""Settings every test in the repository shares.

Hypothesis runs without its per-example deadline: a deadline measures the
machine's load (parallel workers, coverage, a busy CI host), not the code,
and made property tests fail at random. Slowness is the benchmarks' job.
"""

from hypothesis import settings

settings.register_profile("kubesched", deadline=None, print_blob=True)
settings.load_profile("kubesched")

"""Development sessions. Run through uv so every workspace member is installed editable:

    uv run nox                 # lint, typecheck, tests, docs (what CI runs)
    uv run nox -s tests        # just the test suite
    uv run nox -s bench        # full benchmarks (minutes), JSON in benchmarks/results/
    uv run nox -s wheels       # every distribution's wheel into dist/ (docs/installation.md)

Sessions run in the uv project environment (`uv run` syncs it from uv.lock),
so nox creates no virtualenvs of its own.
"""

from __future__ import annotations

from glob import glob

import nox

nox.options.default_venv_backend = "none"
nox.options.sessions = ["lint", "typecheck", "tests", "docs", "bench_quick"]
nox.options.error_on_missing_interpreters = True

TYPED = [
    "core/src",
    *sorted(glob("builtin_plugins/*/src")),
    *sorted(glob("contrib/*/src")),
    *sorted(glob("tests/plugins/*/src")),
    "plugin_template/hooks",
]


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check over the whole repository, docs' code included."""
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the sources of core and every plugin distribution."""
    session.run("mypy", "--strict", *TYPED)


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite, end-to-end tests (real venvs, real pip installs) included."""
    session.run("pytest", "-n", "2", "--dist", "loadgroup", *session.posargs)


@nox.session
def wheels(session: nox.Session) -> None:
    """A wheel of every distribution of the workspace into dist/, for
    `pip install --find-links dist/ kubesched` (docs/installation.md)."""
    session.run("uv", "build", "--all-packages", "--wheel", "-o", "dist", external=True)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site, built strictly: a broken link or missing page fails."""
    session.run("mkdocs", "build", "--strict", "--site-dir", f"{session.create_tmp()}/site")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks; each prints JSON and writes it under benchmarks/results/."""
    session.run("python", "benchmarks/dispatch.py")
    session.run("python", "benchmarks/scheduling_basic.py", *session.posargs)
    session.run("python", "benchmarks/simulate_cli.py")
    session.run("python", "benchmarks/topology_spreading.py")
    session.run("python", "benchmarks/scheduling_pod_affinity.py")
    session.run("python", "benchmarks/faults.py")
    session.run("python", "benchmarks/preemption.py")
    session.run("python", "benchmarks/scale.py")
    session.run("python", "benchmarks/replay.py")


@nox.session
def bench_quick(session: nox.Session) -> None:
    """Small benchmark workloads, so CI notices a benchmark that no longer runs."""
    dispatch = ["--nodes", "1000", "--repeat", "3", "--loop-pods", "300", "--loop-repeat", "1"]
    session.run("python", "benchmarks/dispatch.py", *dispatch)
    session.run("python", "benchmarks/scheduling_basic.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/simulate_cli.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/topology_spreading.py", "--quick")
    session.run("python", "benchmarks/scheduling_pod_affinity.py", "--quick")
    session.run("python", "benchmarks/faults.py", "--quick")
    session.run("python", "benchmarks/preemption.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/scale.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/replay.py", "--quick")
    session.run("python", "benchmarks/sweep.py", "--quick")


@nox.session
def badinput(session: nox.Session) -> None:
    """The whole bad-input and misbehaving-plugin corpus through the CLI, with totals."""
    session.run("python", "tests/badinput/run_corpus.py")

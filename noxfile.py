"""Development sessions. Run through uv so every workspace member is installed editable:

    uv run nox                 # lint, typecheck, tests, docs (what CI runs)
    uv run nox -s tests        # just the test suite
    uv run nox -s bench        # full benchmarks (minutes), JSON in benchmarks/results/
    uv run nox -s wheels       # every distribution's wheel into dist/ (docs/installation.md)
    uv run nox -s tests-3.13   # the suite on another Python (3.10 to 3.13), in .nox/py313

Sessions run in the uv project environment (`uv run` syncs it from uv.lock),
so nox creates no virtualenvs of its own; the `tests-3.X` sessions have uv make
one environment per interpreter under .nox/.
"""

from __future__ import annotations

import os
from glob import glob
from pathlib import Path

import nox

nox.options.default_venv_backend = "none"
nox.options.sessions = [
    "lint",
    "typecheck",
    "tests",
    "tests-3.10",
    "tests-3.13",
    "docs",
    "bench_quick",
]
nox.options.error_on_missing_interpreters = True

TYPED = [
    "core/src",
    *sorted(glob("builtin_plugins/*/src")),
    *sorted(glob("contrib/*/src")),
    *sorted(glob("tests/plugins/*/src")),
    "plugin_template/hooks",
    "tools",
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


PYTHONS = ("3.10", "3.11", "3.12", "3.13")
"""Every Python the distributions declare (requires-python >= 3.10)."""

ACROSS_PYTHONS = ["-m", "not e2e"]
"""What `tests-3.X` run by default: the whole suite but the `e2e` tests, which build
virtual environments and pip-install distributions (template, wheels, installation page,
registry and command discovery through pip). Those exercise packaging rather than the
interpreter, and take about a third of the suite's time; `tests` runs them on the project's
Python, and discovery itself is covered on every Python by the registry's unit tests. Every unit,
property, determinism and headline test runs, the docs' examples included (their shown
outputs must match on each Python). `-- ARGS` runs pytest with other arguments."""


def interpreter(version: str) -> str:
    """What uv is asked for: a pyenv-installed interpreter of `version` when there is one
    (pyenv's shims only answer for the selected versions), else the version itself, which
    uv resolves from PATH or its managed interpreters. No match is an error, never a skip."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(glob(str(root / "versions" / f"{version}.*" / "bin" / f"python{version}")))
    return found[-1] if found else version


def tests_on(version: str) -> None:
    """Declare the `tests-<version>` session."""

    def session_func(session: nox.Session) -> None:
        where = str(Path(f".nox/py{version.replace('.', '')}").resolve())
        env = {"UV_PROJECT_ENVIRONMENT": where, "VIRTUAL_ENV": where}
        python = interpreter(version)
        session.run("uv", "sync", "--frozen", "--python", python, env=env, external=True)
        check = f"import sys; assert sys.version_info[:2] == {tuple(map(int, version.split('.')))}"
        run = ["uv", "run", "--frozen", "--no-sync", "--python", python]
        session.run(*run, "python", "-c", check, env=env, external=True)
        args = session.posargs or ACROSS_PYTHONS
        pytest = [*run, "pytest", "-n", "2", "--dist", "loadgroup", *args]
        session.run(*pytest, env=env, external=True)

    session_func.__doc__ = f"The suite on Python {version}, in .nox/py{version.replace('.', '')}."
    nox.session(name=f"tests-{version}")(session_func)


for _version in PYTHONS:
    tests_on(_version)


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
    session.run("python", "benchmarks/dump_read.py")
    session.run("python", "benchmarks/topology_spreading.py")
    session.run("python", "benchmarks/scheduling_pod_affinity.py")
    session.run("python", "benchmarks/dynamic_resources.py")
    session.run("python", "benchmarks/faults.py")
    session.run("python", "benchmarks/preemption.py")
    session.run("python", "benchmarks/scheduler_perf_more.py")
    session.run("python", "benchmarks/scheduler_perf_churn.py")
    session.run("python", "benchmarks/scale.py")
    session.run("python", "benchmarks/replay.py")
    session.run("python", "benchmarks/report_page.py")  # needs /usr/bin/chromium


@nox.session
def realserver(session: nox.Session) -> None:
    """`kubesched run` against a real etcd and kube-apiserver (not run by default): the
    binaries come from KUBESCHED_REAL_APISERVER and KUBESCHED_REAL_ETCD (every test is skipped,
    with that reason, without them); KUBESCHED_REAL_SCHEDULER adds upstream's kube-scheduler
    to `benchmarks/run_real.py`. See docs/development.md."""
    session.run("pytest", "tests/realserver", "-n", "0", "-v", *session.posargs)


@nox.session
def bench_quick(session: nox.Session) -> None:
    """Small benchmark workloads, so CI notices a benchmark that no longer runs."""
    dispatch = ["--nodes", "1000", "--repeat", "3", "--loop-pods", "300", "--loop-repeat", "1"]
    session.run("python", "benchmarks/dispatch.py", *dispatch)
    session.run("python", "benchmarks/scheduling_basic.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/simulate_cli.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/dump_read.py", "--quick")
    session.run("python", "benchmarks/topology_spreading.py", "--quick")
    session.run("python", "benchmarks/scheduling_pod_affinity.py", "--quick")
    session.run("python", "benchmarks/dynamic_resources.py", "--quick")
    session.run("python", "benchmarks/faults.py", "--quick")
    session.run("python", "benchmarks/preemption.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/scheduler_perf_more.py", "--quick")
    session.run("python", "benchmarks/scheduler_perf_churn.py", "--quick")
    session.run("python", "benchmarks/scale.py", "--quick", "--repeat", "1")
    session.run("python", "benchmarks/replay.py", "--quick")
    session.run("python", "benchmarks/sweep.py", "--quick")


@nox.session
def badinput(session: nox.Session) -> None:
    """The whole bad-input and misbehaving-plugin corpus through the CLI, with totals."""
    session.run("python", "tests/badinput/run_corpus.py")

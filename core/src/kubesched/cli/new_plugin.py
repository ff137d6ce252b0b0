"""`kubesched new-plugin`: start a plugin distribution from the cookiecutter template.

The template ships inside the installed package (`kubesched/plugin_template`) and
lives at the root of a source checkout (`plugin_template/`); the first one found is
used. Its `pre_gen_project` hook checks the answers and explains a rejection in one
line on stderr.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import click

from kubesched.errors import InputError, KubeschedError

TEMPLATE = "plugin_template"
POINTS = (
    "pre_enqueue",
    "queue_sort",
    "pre_filter",
    "filter",
    "post_filter",
    "pre_score",
    "score",
    "reserve",
    "permit",
    "pre_bind",
    "bind",
    "post_bind",
)
"""The extension points the template has an example for (its `_extension_point_choices`)."""

CAMEL_CASE = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
"""A plugin name, as the template's pre_gen_project hook accepts it."""

# cookiecutter logs a traceback when a hook rejects the answers; the hook's own line is enough.
logging.getLogger("cookiecutter").addHandler(logging.NullHandler())


def template_dir() -> Path:
    """The plugin template: packaged next to `kubesched.cli`, or in the source checkout."""
    package = Path(__file__).resolve().parents[1]  # kubesched/
    candidates = [package / TEMPLATE]
    if len(package.parents) > 2:
        candidates.append(package.parents[2] / TEMPLATE)  # <repo>/core/src/kubesched -> <repo>/
    for candidate in candidates:
        if (candidate / "cookiecutter.json").is_file():
            return candidate
    searched = ", ".join(str(c) for c in candidates)
    raise KubeschedError(f"the plugin template is not installed (looked in {searched})")


def render(
    output_dir: Path,
    *,
    plugin_name: str | None = None,
    points: tuple[str, ...] = (),
    no_input: bool = False,
) -> Path:
    """Render the template into `output_dir` and return the new project's folder.

    A rejected answer (the hook has printed why) raises `click.exceptions.Exit(2)`;
    an existing project folder raises `InputError`.
    """
    try:
        from cookiecutter.exceptions import FailedHookException, OutputDirExistsException
        from cookiecutter.main import cookiecutter
    except ImportError:
        raise KubeschedError(
            "new-plugin needs cookiecutter, which kubesched-core installs only on request: "
            "pip install 'kubesched-core[new-plugin]' (or the whole of kubesched)"
        ) from None
    answers: dict[str, str] = {}
    if plugin_name is None and not no_input:
        plugin_name = click.prompt("Plugin name (CamelCase, as profiles will name it)")
    if plugin_name is not None:
        check_plugin_name(plugin_name)
        answers["plugin_name"] = plugin_name
    if points:
        answers["extension_points"] = ",".join(points)
    try:
        project = cookiecutter(
            str(template_dir()),
            no_input=no_input,
            extra_context=answers,
            output_dir=str(output_dir),
        )
    except FailedHookException:
        raise click.exceptions.Exit(2) from None
    except OutputDirExistsException as exc:
        raise InputError(str(exc).removeprefix("Error: ")) from None
    except OSError as exc:  # a read-only HOME (the template's replay file), a full disk
        where = exc.filename or None
        raise InputError(
            f"cannot write the new plugin: {exc.strerror or exc}", file=where
        ) from None
    return Path(project)


def check_plugin_name(name: str) -> None:
    """Refuse a name before anything is written (it becomes folder and package names), as
    the template's hook would: one line on stderr, exit 2."""
    if not CAMEL_CASE.fullmatch(name):
        click.echo(
            f"error: plugin_name {name!r} is not a CamelCase identifier: a capital letter, "
            "then letters and digits, at least one of them lower-case (like NodeLabelScore)",
            err=True,
        )
        raise click.exceptions.Exit(2)


def next_steps(project: Path) -> str:
    """What to do after rendering, as shell commands: a venv of the project's own, so `pip`
    is that venv's (in a uv-managed environment a bare `pip` may be another interpreter's)."""
    where = os.path.relpath(project)
    return "\n".join(
        [
            f"Created {where}",
            "",
            "Next steps:",
            f"  cd {where}",
            "  python -m venv .venv",
            '  .venv/bin/pip install -e ".[test]"   # + --find-links DIR: kubesched wheels, '
            "until it is on your index",
            "  .venv/bin/pytest                     # or: tox (the tests, then ruff and mypy)",
            "  .venv/bin/kubesched plugins          # lists the plugin as out-of-tree",
            "README.md shows how to install before kubesched is published, and the "
            "KubeSchedulerConfiguration that enables the plugin.",
        ]
    )


@click.command(name="new-plugin")
@click.argument("name", required=False)
@click.option("--no-input", is_flag=True, help="Do not prompt: use NAME and the defaults.")
@click.option(
    "-d",
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Where to create the project folder.",
)
@click.option(
    "--point",
    "points",
    type=click.Choice(POINTS),
    multiple=True,
    help="An extension point to implement (repeat for more; default: score).",
)
def command(name: str | None, no_input: bool, output_dir: Path, points: tuple[str, ...]) -> None:
    """Create a plugin distribution named after NAME (CamelCase, e.g. NodeLabelScore):
    the plugin class, its args, tests that pass, tox.ini, a README and a licence."""
    project = render(output_dir, plugin_name=name, points=points, no_input=no_input)
    click.echo(next_steps(project))

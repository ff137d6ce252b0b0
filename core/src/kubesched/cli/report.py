"""`kubesched report RESULT.json -o FILE.html`: a saved result as one HTML page.

RESULT is what `kubesched simulate --output json` (or yaml) wrote. The page is
the one `simulate --html` writes; `--config` adds the effective configuration
the run used, which a result document does not carry. A file that is not a
supported result exits 2 with one line naming the file and the field, writing
nothing.
"""

from __future__ import annotations

from pathlib import Path

import click

from kubesched.cli.output import API_VERSION, discovered_registry
from kubesched.cli.simulate import check_writable
from kubesched.profile import effective_document, load_profiles
from kubesched.report import ensure_available, read_document, render_html, write_html


@click.command(name="report")
@click.argument("result", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--output",
    "-o",
    "html_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The HTML file to write.",
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The KubeSchedulerConfiguration the result was produced with, shown on the page "
    "after defaulting.",
)
@click.option("--title", help="The page's title; default: after the kind of result.")
def command(result: Path, html_file: Path, config: Path | None, title: str | None) -> None:
    """Render RESULT (the JSON or YAML of kubesched simulate, replay or compare) as one
    self-contained HTML file."""
    ensure_available()
    check_writable(html_file, "the HTML report")
    document = read_document(result)
    configuration = None
    if config is not None:
        registry = discovered_registry()
        cfg, profiles = load_profiles(config, registry)
        configuration = {"apiVersion": API_VERSION, **effective_document(cfg, profiles, registry)}
    write_html(html_file, render_html(document, configuration=configuration, title=title))
    click.echo(f"wrote {html_file}", err=True)

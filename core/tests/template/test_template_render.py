"""The plugin template renders valid, lint-clean, passing projects, and rejects bad answers.

Everything here runs in this environment; `tests/e2e/test_template_e2e.py` installs a
rendered project into a fresh venv.
"""

from __future__ import annotations

import ast
import configparser
import importlib
import json
import keyword
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pluggy
import pytest
import yaml
from cookiecutter.exceptions import FailedHookException
from cookiecutter.main import cookiecutter
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kubesched.cli.main import main
from kubesched.cli.new_plugin import POINTS, render, template_dir
from kubesched.framework import EXTENSION_POINTS, hookspecs
from kubesched.framework._registry import points_of

CONFIG_POINTS = tuple(p.name for p in EXTENSION_POINTS)

if sys.version_info >= (3, 11):
    import tomllib
else:  # tomli, which tomllib was made from, comes with the dev tools on 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[3]
DEFAULT_FILES = {
    ".github/workflows/ci.yml",
    ".gitignore",
    "LICENSE",
    "README.md",
    "pyproject.toml",
    "tox.ini",
    "src/kubesched_nodelabelscore/__init__.py",
    "src/kubesched_nodelabelscore/args.py",
    "src/kubesched_nodelabelscore/plugin.py",
    "src/kubesched_nodelabelscore/py.typed",
    "tests/test_args.py",
    "tests/test_discovery.py",
    "tests/test_plugin.py",
    "tests/test_profile.py",
}


def reserved_names() -> set[str]:
    """The names the template's pre-generation hook refuses as a plugin name."""
    hook = ast.parse((template_dir() / "hooks" / "pre_gen_project.py").read_text())
    for node in hook.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "RESERVED":
            assert isinstance(node.value, ast.Call)
            return set(ast.literal_eval(node.value.args[0]))
    raise AssertionError("the hook defines no RESERVED names")


def config_point(point: str) -> str:
    """The template's snake_case point name as the v1 config spells it (`pre_filter` ->
    `preFilter`)."""
    first, *rest = point.split("_")
    return first + "".join(part.capitalize() for part in rest)


@pytest.fixture(autouse=True, scope="module")
def cookiecutter_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep cookiecutter's replay files and user config out of the real home folder."""
    home = tmp_path_factory.mktemp("cookiecutter")
    config = home / "config.yaml"
    config.write_text(f"replay_dir: {home / 'replay'}\ncookiecutters_dir: {home / 'cache'}\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COOKIECUTTER_CONFIG", str(config))
        yield


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, tuple[str, ...]], Path]:
    """Render a plugin with these points once per module; tests only read the result."""
    root = tmp_path_factory.mktemp("rendered")
    projects: dict[tuple[str, tuple[str, ...]], Path] = {}

    def get(name: str, points: tuple[str, ...]) -> Path:
        if (name, points) not in projects:
            projects[name, points] = render(root, plugin_name=name, points=points, no_input=True)
        return projects[name, points]

    return get


def bake(output: Path, **answers: str) -> Path:
    """Render the template without prompts, as a plain cookiecutter user would."""
    return Path(
        cookiecutter(
            str(template_dir()), no_input=True, extra_context=answers, output_dir=str(output)
        )
    )


def files_of(project: Path) -> set[str]:
    return {p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()}


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **env},
    )


@pytest.fixture
def import_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Import a rendered project's plugin class; forget its modules afterwards."""
    imported: list[str] = []

    def load(project: Path, module: str, name: str) -> Any:
        monkeypatch.syspath_prepend(str(project / "src"))
        imported.append(module)
        return getattr(importlib.import_module(module), name)

    yield load
    for module in imported:
        for key in [k for k in sys.modules if k == module or k.startswith(f"{module}.")]:
            del sys.modules[key]


def test_the_command_uses_the_template_of_this_checkout() -> None:
    assert template_dir() == REPO / "plugin_template"


def test_the_command_offers_exactly_the_points_the_template_has() -> None:
    context = json.loads((template_dir() / "cookiecutter.json").read_text())
    assert list(POINTS) == context["_extension_point_choices"]
    assert context["__prompts__"]["extension_points"].endswith(f"({', '.join(POINTS)})")
    assert {config_point(p) for p in POINTS} <= set(CONFIG_POINTS)


def test_default_render_has_the_expected_files(tmp_path: Path) -> None:
    project = render(tmp_path, no_input=True)
    assert project == tmp_path / "kubesched-nodelabelscore"
    assert files_of(project) == DEFAULT_FILES


def test_default_render_is_valid_python_toml_and_ini(tmp_path: Path) -> None:
    project = render(tmp_path, no_input=True)
    for path in project.rglob("*.py"):
        ast.parse(path.read_text(), filename=str(path))
    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["name"] == "kubesched-nodelabelscore"
    assert meta["project"]["version"] == "0.1.0"
    assert meta["project"]["license"] == "Apache-2.0"
    assert meta["project"]["dependencies"] == ["kubesched-core>=0.1"]
    assert meta["project"]["optional-dependencies"]["test"] == ["pytest>=8", "kubesched>=0.1"]
    assert meta["project"]["entry-points"]["kubesched.plugins"] == {
        "NodeLabelScore": "kubesched_nodelabelscore:NodeLabelScore"
    }
    assert meta["build-system"]["build-backend"] == "hatchling.build"
    assert meta["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == [
        "src/kubesched_nodelabelscore"
    ]
    tox = configparser.ConfigParser()
    tox.read(project / "tox.ini")
    assert [e.strip() for e in tox["tox"]["env_list"].split(",")] == ["py", "lint"]
    assert tox["testenv"]["commands"].strip() == "pytest {posargs}"


POINT_CHOICES = [
    pytest.param("TierScore", ("score",), id="score"),
    pytest.param("TierFilter", ("filter",), id="filter"),
    pytest.param("TierPreFilter", ("pre_filter", "filter"), id="pre_filter+filter"),
    pytest.param("TierGate", ("pre_enqueue", "permit"), id="pre_enqueue+permit"),
    pytest.param("TierQueue", ("queue_sort",), id="queue_sort"),
    pytest.param("TierReserve", ("reserve", "post_bind"), id="reserve+post_bind"),
    pytest.param("TierPost", ("post_filter", "pre_score", "score"), id="post_filter+scoring"),
    pytest.param("TierAll", POINTS, id="every point"),
]


@pytest.mark.parametrize(("name", "points"), POINT_CHOICES)
def test_the_plugin_implements_exactly_the_chosen_points(
    rendered: Callable[[str, tuple[str, ...]], Path],
    import_plugin: Any,
    name: str,
    points: tuple[str, ...],
) -> None:
    project = rendered(name, points)
    plugin_class = import_plugin(project, f"kubesched_{name.lower()}", name)
    assert points_of(plugin_class) == [p for p in CONFIG_POINTS if p in map(config_point, points)]
    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    manager.register(plugin_class())  # checks every hookimpl's arguments against its spec
    assert plugin_class.name == name
    assert plugin_class().args.validate("args") == []


@pytest.mark.parametrize(("name", "points"), POINT_CHOICES)
def test_the_generated_code_is_ruff_clean(
    rendered: Callable[[str, tuple[str, ...]], Path], name: str, points: tuple[str, ...]
) -> None:
    project = rendered(name, points)
    check = run(sys.executable, "-m", "ruff", "check", "--no-cache", ".", cwd=project)
    assert check.returncode == 0, check.stdout + check.stderr
    fmt = run(sys.executable, "-m", "ruff", "format", "--check", "--no-cache", ".", cwd=project)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_the_generated_code_is_mypy_strict_clean(
    tmp_path: Path, rendered: Callable[[str, tuple[str, ...]], Path]
) -> None:
    project = rendered("TierAll", POINTS)
    result = run(sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("points", "passed"),
    [pytest.param((), 21, id="default"), pytest.param(POINTS, 51, id="every point")],
)
def test_the_generated_tests_pass(tmp_path: Path, points: tuple[str, ...], passed: int) -> None:
    project = render(tmp_path, points=points, no_input=True)
    # test_discovery.py needs the project installed; the end-to-end test runs it.
    result = run(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--ignore=tests/test_discovery.py",
        cwd=project,
        PYTHONPATH=str(project / "src"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{passed} passed" in result.stdout


@pytest.mark.parametrize(("name", "points"), POINT_CHOICES)
def test_the_readme_profile_enables_the_plugin_at_each_point(
    rendered: Callable[[str, tuple[str, ...]], Path], name: str, points: tuple[str, ...]
) -> None:
    project = rendered(name, points)
    readme = (project / "README.md").read_text()
    block = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    config = yaml.safe_load(block)
    assert config["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert config["kind"] == "KubeSchedulerConfiguration"
    (profile,) = config["profiles"]
    plugins = profile["plugins"]
    assert list(plugins) == [config_point(p) for p in points]
    for point_config in plugins.values():
        assert point_config["enabled"][0]["name"] == name
    if "queue_sort" in points:
        assert plugins["queueSort"]["disabled"] == [{"name": "*"}]
    assert profile["pluginConfig"] == [
        {
            "name": name,
            "args": {"labelKey": "example.com/tier", "values": ["gold", "silver", "bronze"]},
        }
    ]


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "src/kubesched_nodelabelscore/__init__.py",
        "src/kubesched_nodelabelscore/args.py",
        "src/kubesched_nodelabelscore/plugin.py",
        "tests/test_plugin.py",
    ],
)
def test_the_tutorial_shows_the_generated_files_as_they_are(
    rendered: Callable[[str, tuple[str, ...]], Path], path: str
) -> None:
    project = rendered("NodeLabelScore", ())
    tutorial = (REPO / "docs" / "tutorial" / "first-plugin.md").read_text()
    assert (project / path).read_text() in tutorial, (
        f"docs/tutorial/first-plugin.md no longer shows the generated {path}"
    )


def test_the_tutorial_enables_the_plugin_as_the_generated_readme_does(
    rendered: Callable[[str, tuple[str, ...]], Path],
) -> None:
    readme = (rendered("NodeLabelScore", ()) / "README.md").read_text()
    profile = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    tutorial = (REPO / "docs" / "tutorial" / "first-plugin.md").read_text()
    assert f'```yaml title="config.yaml"\n{profile}```' in tutorial


@pytest.mark.parametrize(
    ("licence", "first_line"),
    [
        ("Apache-2.0", "Apache License"),
        ("MIT", "MIT License"),
        ("BSD-3-Clause", "BSD 3-Clause License"),
    ],
)
def test_the_chosen_licence_is_the_only_one_left(
    tmp_path: Path, licence: str, first_line: str
) -> None:
    project = bake(tmp_path, license=licence, author="Ada Lovelace")
    text = (project / "LICENSE").read_text()
    assert text.splitlines()[0].strip() == first_line
    if licence != "Apache-2.0":
        assert "Ada Lovelace" in text
    assert not (project / "licenses").exists()
    assert tomllib.loads((project / "pyproject.toml").read_text())["project"]["license"] == licence


def test_free_text_answers_cannot_break_the_pyproject(tmp_path: Path) -> None:
    description = 'Prefers "fast" nodes \\ and ünïcode'
    project = bake(tmp_path, description=description, author='Jo "JJ" O\'Neil', version="1.2.3")
    meta = tomllib.loads((project / "pyproject.toml").read_text())["project"]
    assert meta["description"] == description
    assert meta["authors"] == [{"name": 'Jo "JJ" O\'Neil', "email": "you@example.com"}]
    assert meta["version"] == "1.2.3"


@pytest.mark.parametrize(
    "name",
    [
        "nodeLabel",
        "Node-Label",
        "Node Label",
        "Node_Label",
        "9Lives",
        "Nodé",
        "",
        'A"B',
        "GPU",
        "../../Escape",
        "Up/../../X",
    ],
)
def test_a_bad_plugin_name_is_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str
) -> None:
    assert main(["new-plugin", name, "--no-input", "-d", str(tmp_path / "out")]) == 2
    err = capfd.readouterr().err
    assert err == (
        f"error: plugin_name {name!r} is not a CamelCase identifier: a capital letter, "
        "then letters and digits, at least one of them lower-case (like NodeLabelScore)\n"
    )
    assert not any((tmp_path / "out").rglob("*"))
    assert [p.name for p in tmp_path.iterdir()] == [], "nothing written, inside or out"


def test_the_installed_command_exits_2_with_the_hook_line(tmp_path: Path) -> None:
    kubesched = Path(sys.executable).with_name("kubesched")
    result = run(str(kubesched), "new-plugin", "my-plugin", "--no-input", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: plugin_name 'my-plugin' is not a CamelCase identifier: a capital letter, "
        "then letters and digits, at least one of them lower-case (like NodeLabelScore)"
    ]
    assert result.stdout == ""
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["None", "True", "Status", "NodeInfo", "Reservation"])
def test_a_name_python_or_the_generated_code_uses_is_rejected(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str
) -> None:
    assert main(["new-plugin", name, "--no-input", "-d", str(tmp_path)]) == 2
    assert capfd.readouterr().err == (
        f"error: plugin_name {name!r} is taken by Python or the generated code\n"
    )


def test_the_hook_reserves_every_class_name_the_generated_code_uses(
    rendered: Callable[[str, tuple[str, ...]], Path],
) -> None:
    project = rendered("TierAll", POINTS)
    used: set[str] = set()
    for path in [*(project / "src").rglob("*.py"), *(project / "tests").rglob("*.py")]:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom):
                used.update(alias.asname or alias.name for alias in node.names)
            elif isinstance(node, ast.ClassDef):
                used.add(node.name)
    camel_case = {n for n in used if n[0].isupper() and not n.isupper()}
    assert camel_case - {"TierAll", "TierAllArgs"} == reserved_names()


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (
            {"extension_points": "score,bogus"},
            "unknown extension point 'bogus' in 'score,bogus'; choose one or more of: "
            + ", ".join(POINTS),
        ),
        (
            {"project_slug": "kubesched-"},
            "project_slug 'kubesched-' is not a valid distribution name: letters, digits, "
            "'-', '_' and '.', starting and ending with a letter or digit",
        ),
        (
            {"module_name": "kubesched-x"},
            "module_name 'kubesched-x' is not a valid Python package name",
        ),
    ],
)
def test_the_hook_rejects_other_bad_answers(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], answers: dict[str, str], message: str
) -> None:
    with pytest.raises(FailedHookException):
        bake(tmp_path, **answers)
    assert capfd.readouterr().err == f"error: {message}\n"
    assert not any(tmp_path.glob("kubesched-*"))


def test_an_unknown_point_option_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["new-plugin", "Tier", "--no-input", "--point", "bogus", "-d", str(tmp_path)])
    assert exit_info.value.code == 2
    assert not any(tmp_path.iterdir())


def test_an_existing_project_folder_is_not_overwritten(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kubesched-tier").mkdir()
    (tmp_path / "kubesched-tier" / "mine.txt").write_text("keep me")
    with pytest.raises(SystemExit) as exit_info:
        main(["new-plugin", "Tier", "--no-input", "-d", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capfd.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "kubesched-tier" in err and "already exists" in err
    assert files_of(tmp_path / "kubesched-tier") == {"mine.txt"}


def test_the_command_prints_the_next_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    main(["new-plugin", "GpuFit", "--no-input", "--point", "filter", "--point", "score"])
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Created kubesched-gpufit",
        "",
        "Next steps:",
        "  cd kubesched-gpufit",
        "  python -m venv .venv",
        '  .venv/bin/pip install -e ".[test]"   # + --find-links DIR: kubesched wheels, '
        "until it is on your index",
        "  .venv/bin/pytest                     # or: tox (the tests, then ruff and mypy)",
        "  .venv/bin/kubesched plugins          # lists the plugin as out-of-tree",
        "README.md shows how to install before kubesched is published, and the "
        "KubeSchedulerConfiguration that enables the plugin.",
    ]
    plugin = (tmp_path / "kubesched-gpufit/src/kubesched_gpufit/plugin.py").read_text()
    assert "def filter(" in plugin and "def score(" in plugin and "def permit(" not in plugin


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    name=st.from_regex(r"[A-Z][A-Za-z0-9]{0,19}[a-z][A-Za-z0-9]{0,18}", fullmatch=True).filter(
        lambda n: not keyword.iskeyword(n) and n not in reserved_names()
    )
)
@example(name="NodeResourcesBalancedAllocation")
@example(name="A" * 39 + "a")
def test_any_camel_case_name_renders_a_matching_lint_clean_package(
    tmp_path: Path, name: str
) -> None:
    output = Path(tempfile.mkdtemp(dir=tmp_path))
    project = render(output, plugin_name=name, points=POINTS, no_input=True)
    module = f"kubesched_{name.lower()}"
    assert project.name == f"kubesched-{name.lower()}"
    tree = ast.parse((project / "src" / module / "plugin.py").read_text())
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    assert classes == ["Reservation", name]
    meta = tomllib.loads((project / "pyproject.toml").read_text())["project"]
    assert meta["entry-points"]["kubesched.plugins"] == {name: f"{module}:{name}"}
    check = run(sys.executable, "-m", "ruff", "check", "--no-cache", ".", cwd=project)
    assert check.returncode == 0, check.stdout
    fmt = run(sys.executable, "-m", "ruff", "format", "--check", "--no-cache", ".", cwd=project)
    assert fmt.returncode == 0, fmt.stdout


def test_without_cookiecutter_new_plugin_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "cookiecutter.main", None)
    with pytest.raises(SystemExit) as exited:
        main(["new-plugin", "Tier", "--no-input", "-d", str(tmp_path)])
    assert exited.value.code == 1
    assert "pip install 'kubesched-core[new-plugin]'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())

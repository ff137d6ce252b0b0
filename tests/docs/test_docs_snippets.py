"""Every code example in docs/ runs, so the docs cannot go stale.

The conventions, also described in docs/development.md:

- `python` blocks run in order, one module namespace per page, so a later
  block uses what an earlier one defined; `pycon` blocks are doctests run in
  that same namespace.
- A block with `title="NAME"` is a file: before anything on the page runs, it
  is written to NAME in the page's scratch directory, which is the working
  directory of every command and is on `sys.path`. A `.py` file must be
  imported by the page's python, or be a `test_*.py` module, which is run with
  pytest.
- `console` and `bash` blocks hold `$ ` commands, each followed by the output
  it prints, if shown. A command that starts with `kubesched` (after optional
  `VAR=value` assignments or `uv run`, or as a path such as
  `.venv/bin/kubesched`; each part of `a && b` counts on its own) runs in the
  page's scratch directory, where `examples/` is the repository's. Its output
  (stdout and stderr) must match what is shown, `...` standing for any text.
  It must exit 0, or N when the line ends with the comment `# exits N`. Other
  commands are for the reader's shell and are not run, but must start with a
  program from OTHER_PROGRAMS.
- `yaml`, `json` and `toml` blocks, titled or not, must parse.
- A block preceded by the line `<!-- illustrative -->` is not run; keep them
  rare.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from attrs import frozen

if sys.version_info >= (3, 11):
    import tomllib

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
ILLUSTRATIVE = "<!-- illustrative -->"
OTHER_PROGRAMS = frozenset(
    {"pip", "uv", "python", "twine", "git", "nox", "kubectl", "kind", "docker", "curl"}
    | {"tox", "pytest", "cd"}
)
"""Programs a page may show without the test running them (installing, building, uploading)."""
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", os.devnull)
"""How a titled `test_*.py` block runs: its own pytest, configured by nothing around it."""
SHELL_LANGUAGES = frozenset({"console", "bash", "sh", "shell"})
DATA_LANGUAGES = frozenset({"yaml", "json", "toml"})
UNCHECKED_LANGUAGES = frozenset({"", "text", "mermaid"})
KNOWN_LANGUAGES = SHELL_LANGUAGES | DATA_LANGUAGES | UNCHECKED_LANGUAGES | {"python", "pycon"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
TITLE = re.compile(r"""title=(?:"([^"]*)"|'([^']*)')""")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
EXIT_COMMENT = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")


@frozen
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int
    language: str
    title: str | None
    text: str
    illustrative: bool

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def parse_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order (indented fences included)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, fence, info = opening["indent"], opening["fence"], opening["info"]
        language = info.split("{", 1)[0].split(" ", 1)[0].strip().lstrip(".").lower()
        title = TITLE.search(info)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence[0] * len(fence):
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        illustrative = i > 0 and lines[i - 1].strip() == ILLUSTRATIVE
        blocks.append(
            Block(
                page=page,
                line=i + 1,
                language=language,
                title=(title[1] or title[2]) if title else None,
                text="\n".join(body) + "\n",
                illustrative=illustrative,
            )
        )
        i = j + 1
    return blocks


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def page_id(page: Path) -> str:
    return str(page.relative_to(DOCS))


# -- shell blocks ----------------------------------------------------------------------


@frozen
class Command:
    """A `$ ` line of a shell block (continuations joined) and the output shown after it."""

    line: int
    text: str
    output: str | None


def parse_commands(block: Block) -> list[Command]:
    """The commands of a console/bash block; text before the first `$ ` is an error."""
    commands: list[Command] = []
    current: list[str] | None = None
    output: list[str] = []
    start = 0
    continuing = False
    for offset, raw in enumerate(block.text.splitlines()):
        if continuing and current is not None:
            current.append(raw)
        elif raw.startswith("$ "):
            if current is not None:
                commands.append(_command(start, current, output))
            current, output, start = [raw[2:]], [], block.line + 1 + offset
        elif current is None:
            if raw.strip():
                pytest.fail(f"{block.where}: a shell block must start with a `$ ` command")
            continue
        else:
            output.append(raw)
        continuing = raw.endswith("\\")
    if current is not None:
        commands.append(_command(start, current, output))
    return commands


def _command(line: int, parts: list[str], output: list[str]) -> Command:
    text = " ".join(part.removesuffix("\\").strip() for part in parts)
    shown = "\n".join(output).strip("\n")
    return Command(line, text, shown + "\n" if shown else None)


def split_command(text: str) -> list[tuple[dict[str, str], list[str]]]:
    """Each `&&`-joined part of a command: its leading `VAR=value` assignments and its argv,
    the program as a bare name (`.venv/bin/kubesched` is `kubesched`, `uv run` dropped)."""
    parts: list[tuple[dict[str, str], list[str]]] = []
    words = shlex.split(text)
    while words:
        end = words.index("&&") if "&&" in words else len(words)
        part, words = words[:end], words[end + 1 :]
        env: dict[str, str] = {}
        while part and ASSIGNMENT.match(part[0]):
            name, _, value = part.pop(0).partition("=")
            env[name] = value
        if part[:3] == ["uv", "run", "kubesched"]:
            part = part[2:]
        if part:
            part[0] = Path(part[0]).name
        parts.append((env, part))
    return parts


def kubesched_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a documented command: no KUBESCHED_* from the caller, no colour."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KUBESCHED_")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"})
    env.update(extra)
    return env


def kubesched_argv() -> list[str]:
    script = Path(sys.executable).with_name("kubesched")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from kubesched.cli import main; sys.exit(main())"]


def run_command(block: Block, command: Command, workdir: Path) -> None:
    """Run the kubesched parts of a command; the shown output and a `# exits N` comment
    belong to the last part."""
    where = f"{block.page.relative_to(REPO)}:{command.line}"
    exits = EXIT_COMMENT.search(command.text)
    text = command.text[: exits.start()] if exits else command.text
    parts = split_command(text)
    for index, (env, argv) in enumerate(parts):
        program = argv[0] if argv else ""
        if program != "kubesched":
            assert program in OTHER_PROGRAMS, (
                f"{where}: `{command.text}` runs {program!r}, neither kubesched nor one of "
                f"{sorted(OTHER_PROGRAMS)}"
            )
            continue
        last = index == len(parts) - 1
        status = int(exits[1]) if exits and last else 0
        run_kubesched(where, env, argv, command.output if last else None, status, workdir)


def run_kubesched(
    where: str,
    env: dict[str, str],
    argv: list[str],
    shown: str | None,
    status: int,
    workdir: Path,
) -> None:
    text = shlex.join(argv)
    shell_syntax = {"|", ">", ">>", "<", "||", ";"} & set(argv)
    assert not shell_syntax, f"{where}: kubesched commands cannot use {sorted(shell_syntax)}"
    result = subprocess.run(
        [*kubesched_argv(), *argv[1:]],
        cwd=workdir,
        env=kubesched_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )
    got = "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"
    assert result.returncode == status, (
        f"{where}: `{text}` exited {result.returncode}, expected {status}\n{got}"
    )
    if shown is not None:
        checker = doctest.OutputChecker()
        assert checker.check_output(shown, got, doctest.ELLIPSIS), (
            f"{where}: `{text}` printed\n{got}\nbut the page shows\n{shown}"
        )


# -- python blocks ---------------------------------------------------------------------


def run_python(block: Block, module: types.ModuleType) -> None:
    padded = "\n" * (block.line) + block.text  # tracebacks point at the page's lines
    exec(compile(padded, str(block.page), "exec"), module.__dict__)


def run_pycon(block: Block, module: types.ModuleType) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, module.__dict__, block.where, str(block.page), block.line)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append, clear_globs=False)
    module.__dict__.update(test.globs)
    assert runner.failures == 0, "".join(report)


def check_data(block: Block) -> None:
    try:
        if block.language == "yaml":
            list(yaml.safe_load_all(block.text))
        elif block.language == "json":
            json.loads(block.text)
        elif sys.version_info >= (3, 11):
            tomllib.loads(block.text)
    except (yaml.YAMLError, ValueError) as exc:
        pytest.fail(f"{block.where}: the {block.language} block does not parse: {exc}")


def write_files(blocks: list[Block], workdir: Path) -> list[Block]:
    """Write the titled blocks into `workdir`; return them."""
    files = [b for b in blocks if b.title is not None and not b.illustrative]
    for block in files:
        assert block.title is not None
        target = workdir / block.title
        assert target.resolve().is_relative_to(workdir.resolve()), f"{block.where}: bad title"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, encoding="utf-8")
    return files


def run_pytest_module(block: Block, workdir: Path) -> None:
    result = subprocess.run(
        [*PYTEST, block.title or ""],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"{block.where}: the test module fails\n{result.stdout}"


@pytest.fixture
def page_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """A fresh module for one page's python, with `tmp_path` as working directory and on
    sys.path; modules imported from there are forgotten afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = types.ModuleType("docs_page")
    sys.modules[module.__name__] = module
    before = set(sys.modules)
    yield module
    for name in set(sys.modules) - before:
        origin = getattr(sys.modules[name], "__file__", None) or ""
        if origin.startswith(str(tmp_path)):
            del sys.modules[name]
    del sys.modules[module.__name__]


@pytest.mark.parametrize("page", pages(), ids=page_id)
def test_page_examples_run(page: Path, tmp_path: Path, page_module: types.ModuleType) -> None:
    blocks = parse_blocks(page)
    if (REPO / "examples").is_dir():
        (tmp_path / "examples").symlink_to(REPO / "examples")
    files = write_files(blocks, tmp_path)
    for block in blocks:
        assert block.language in KNOWN_LANGUAGES, (
            f"{block.where}: unknown language {block.language!r}; use one of "
            f"{sorted(KNOWN_LANGUAGES)} so the block is checked"
        )
        if block.illustrative:
            continue
        if block.language == "python" and block.title is None:
            run_python(block, page_module)
        elif block.language == "pycon":
            run_pycon(block, page_module)
        elif block.language in SHELL_LANGUAGES:
            for command in parse_commands(block):
                run_command(block, command, tmp_path)
        elif block.language in DATA_LANGUAGES:
            check_data(block)
    for block in files:
        assert block.title is not None
        if Path(block.title).suffix != ".py":
            continue
        if Path(block.title).name.startswith("test_"):
            run_pytest_module(block, tmp_path)
            continue
        module_name = Path(block.title).with_suffix("").as_posix().replace("/", ".")
        imported = sys.modules.get(module_name)
        assert imported is not None and str(tmp_path) in (imported.__file__ or ""), (
            f"{block.where}: {block.title} is never imported by the page's python"
        )


# -- the conventions themselves --------------------------------------------------------


def test_parse_blocks_reads_titles_indentation_and_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Intro\n\n"
        '```python title="mod.py"\nX = 1\n```\n\n'
        "!!! note\n\n    ```pycon\n    >>> 1 + 1\n    2\n    ```\n\n"
        f"{ILLUSTRATIVE}\n```yaml\nnot: [valid\n```\n",
        encoding="utf-8",
    )
    blocks = parse_blocks(page)
    assert [(b.line, b.language, b.title, b.illustrative) for b in blocks] == [
        (3, "python", "mod.py", False),
        (9, "pycon", None, False),
        (15, "yaml", None, True),
    ]
    assert blocks[1].text == ">>> 1 + 1\n2\n"


def test_parse_commands_splits_commands_output_and_continuations(tmp_path: Path) -> None:
    block = Block(
        page=REPO / "docs" / "x.md",
        line=10,
        language="console",
        title=None,
        text="$ kubesched plugins \\\n  --output json\n{\n}\n$ uv run nox\n",
        illustrative=False,
    )
    assert parse_commands(block) == [
        Command(11, "kubesched plugins --output json", "{\n}\n"),
        Command(15, "uv run nox", None),
    ]


def test_split_command_takes_assignments_chains_and_program_paths() -> None:
    assert split_command("KUBESCHED_LOAD_PLUGINS= uv run kubesched plugins -o json") == [
        ({"KUBESCHED_LOAD_PLUGINS": ""}, ["kubesched", "plugins", "-o", "json"])
    ]
    assert split_command("pip install uv && uv run nox -s docs") == [
        ({}, ["pip", "install", "uv"]),
        ({}, ["uv", "run", "nox", "-s", "docs"]),
    ]
    assert split_command(".try/bin/kubesched plugins") == [({}, ["kubesched", "plugins"])]


def test_a_wrong_shown_output_fails(tmp_path: Path) -> None:
    block = Block(
        page=REPO / "docs" / "x.md",
        line=1,
        language="console",
        title=None,
        text="$ kubesched --help\nUsage: somebody-else [OPTIONS]\n",
        illustrative=False,
    )
    with pytest.raises(AssertionError, match="but the page shows"):
        run_command(block, parse_commands(block)[0], tmp_path)


def test_an_unexpected_exit_status_fails(tmp_path: Path) -> None:
    block = Block(
        page=REPO / "docs" / "x.md",
        line=1,
        language="console",
        title=None,
        text="$ kubesched --help  # exits 2\n",
        illustrative=False,
    )
    with pytest.raises(AssertionError, match="exited 0, expected 2"):
        run_command(block, parse_commands(block)[0], tmp_path)

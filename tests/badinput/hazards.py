# ruff: noqa: E501  (a table of cases reads best one case a line)
"""Inputs and plugins that used to crash, hang or leak, each with what the CLI must do now.

A hazard sets up its files in a folder and says the command line, the environment, the
standard input, the exit code and the one line stderr must hold (`{dir}` stands for the
folder). Plugin faults run the FaultInjection test plugin at every extension point: the
run must end normally with the healthy pod scheduled. `run_corpus.py` and
`test_corpus.py` run them all.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

from attrs import frozen

from kubesched.cli.main import main

NODE = (
    "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
    "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n"
)
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c}]}\n"
HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


@frozen
class Hazard:
    """One case: files to write (name -> text; None: a FIFO), the arguments, and what must
    come out: the exit code and stderr's one line (None: stderr must be empty)."""

    id: str
    files: dict[str, str | None]
    argv: tuple[str, ...]
    code: int
    line: str | None
    env: dict[str, str] | None = None
    stdin: str | None = None
    patch: Callable[[Path], contextlib.AbstractContextManager[object]] | None = None
    """Something to change in the process while the case runs (a directory that cannot be
    listed, which root could still list)."""


def _unlistable(folder: Path) -> contextlib.AbstractContextManager[object]:
    locked = str(folder / "cluster" / "locked")
    real = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> object:
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real(path)

    return mock.patch("os.scandir", scandir)


def _replay_under_home(folder: Path) -> contextlib.AbstractContextManager[object]:
    """cookiecutter's replay folder under a HOME that is a file. Named through
    COOKIECUTTER_CONFIG, since cookiecutter reads HOME once, when it is first imported."""
    config = folder / "cookiecutter.yaml"
    config.write_text(f"replay_dir: {folder / 'home' / '.cookiecutter_replay'}/\n")
    return mock.patch.dict(os.environ, {"COOKIECUTTER_CONFIG": str(config)})


DEEP_BLOCK = "a:\n  " + "- " * 30_000 + "x\n"
ANNOTATED = NODE.replace(
    "metadata: {name: n1}", "metadata: {name: n1, annotations: {a: '" + "[" * 150 + "'}}"
)
HUGE = "9" * 5000


def _sorter(init: str = "", less: str = "") -> str:
    """A configuration whose only QueueSort plugin is FaultySort, misbehaving as told."""
    return HEADER + (
        "profiles:\n- plugins:\n"
        "    queueSort: {enabled: [{name: FaultySort}], disabled: [{name: '*'}]}\n"
        f"  pluginConfig:\n  - name: FaultySort\n    args: {{init: '{init}', less: '{less}'}}\n"
    )


def _short_init_limit(folder: Path) -> contextlib.AbstractContextManager[object]:
    """A plugin constructor may take half a second (30 s otherwise)."""
    return mock.patch("kubesched.framework._runtime.PLUGIN_INIT_TIMEOUT", 0.5)


TWO_PODS = NODE + "---\n" + POD + "---\n" + POD.replace("name: p,", "name: q,")
SORTER = 'plugin "FaultySort" (kubesched-faultinjection 0.1.0) in profile "default-scheduler"'
QUEUE_SORT = 'QueueSort plugin "FaultySort" of profile "default-scheduler" failed'
SORT_ARGV = (
    "simulate",
    "{dir}/c.yaml",
    "--config",
    "{dir}/s.yaml",
    "--cycle-timeout",
    "0.5",
    "-o",
    "json",
)


SPREAD_POD = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default, labels: {tier: a}}\n"
    "spec:\n  containers: [{name: c}]\n  topologySpreadConstraints:\n"
    "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [app]}\n"
)
"""A spread constraint whose matchLabelKeys names a key its selector has, on a pod without
that label: only the legacy rule (selector merge off) refuses it."""
NO_SELECTOR_POD = SPREAD_POD.replace(", labelSelector: {matchLabels: {app: x}}", "")
PREFERRED_BAD_VALUE = POD.replace(
    "spec: {containers: [{name: c}]}",
    "spec:\n  containers: [{name: c}]\n  affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
    "[{weight: 1, preference: {matchExpressions: [{key: zone, operator: In, values: ['a b']}]}}]}}",
)
MERGE_OFF = "MatchLabelKeysInPodTopologySpreadSelectorMerge=false"
LEGACY_LINE = (
    "error: {dir}/c.yaml: document 1: Pod default/p: field spec.topologySpreadConstraints[0].matchLabelKeys[0]: "
    'Invalid value: "app": exists in both matchLabelKeys and labelSelector'
)

HAZARDS: list[Hazard] = [
    Hazard("deep-block-yaml", {"c.yaml": DEEP_BLOCK}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: document 0: nested deeper than 100 levels"),
    Hazard("deep-block-yaml-second-document", {"c.yaml": NODE + "---\n" + DEEP_BLOCK}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: document 1: nested deeper than 100 levels"),
    Hazard("deep-block-config", {"c.yaml": NODE, "s.yaml": HEADER + "x:\n" + DEEP_BLOCK.replace("a:\n", "")},
           ("simulate", "{dir}/c.yaml", "--config", "{dir}/s.yaml"), 1,
           "error: {dir}/s.yaml: nested deeper than 100 levels"),
    Hazard("deep-block-config-validate", {"s.yaml": HEADER + "x:\n  " + "- " * 5000 + "x\n"},
           ("config", "validate", "{dir}/s.yaml"), 1, "{dir}/s.yaml: nested deeper than 100 levels"),
    Hazard("quoted-brackets-are-not-nesting", {"c.yaml": ANNOTATED}, ("simulate", "{dir}/c.yaml", "-o", "json"), 0, None),
    Hazard("quoted-brackets-in-json", {"c.json": json.dumps({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "annotations": {"a": "{" * 150}}})},
           ("simulate", "{dir}/c.json", "-o", "json"), 0, None),
    Hazard("fifo-cluster", {"c.yaml": None}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: cannot read: not a regular file: it is a FIFO (named pipe)"),
    Hazard("fifo-config", {"c.yaml": NODE, "s.yaml": None}, ("simulate", "{dir}/c.yaml", "--config", "{dir}/s.yaml"), 1,
           "error: {dir}/s.yaml: cannot read the file: not a regular file: it is a FIFO (named pipe)"),
    Hazard("dev-zero", {}, ("simulate", "/dev/zero"), 2,
           "error: /dev/zero: cannot read: not a regular file: it is a character device"),
    Hazard("dev-urandom", {}, ("simulate", "/dev/urandom"), 2,
           "error: /dev/urandom: cannot read: not a regular file: it is a character device"),
    Hazard("dev-zero-config", {"c.yaml": NODE}, ("simulate", "{dir}/c.yaml", "--config", "/dev/zero"), 1,
           "error: /dev/zero: cannot read the file: not a regular file: it is a character device"),
    Hazard("dev-zero-kubeconfig", {"s.yaml": HEADER}, ("run", "--config", "{dir}/s.yaml", "--kubeconfig", "/dev/zero"), 1,
           "error: /dev/zero: cannot read the kubeconfig: not a regular file: it is a character device"),
    Hazard("over-the-size-limit", {"c.yaml": NODE}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: cannot read: 107 bytes is larger than the limit of 50 bytes; set KUBESCHED_MAX_INPUT_BYTES to read more",
           env={"KUBESCHED_MAX_INPUT_BYTES": "50"}),
    Hazard("stdin-over-the-size-limit", {}, ("simulate", "-"), 2,
           "error: <stdin>: cannot read: larger than the limit of 50 bytes; set KUBESCHED_MAX_INPUT_BYTES to read more",
           env={"KUBESCHED_MAX_INPUT_BYTES": "50"}, stdin=NODE),
    Hazard("size-limit-not-a-number", {"c.yaml": NODE}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: cannot read: KUBESCHED_MAX_INPUT_BYTES='lots' is not a byte count",
           env={"KUBESCHED_MAX_INPUT_BYTES": "lots"}),
    Hazard("metadata-a-list", {"c.yaml": "apiVersion: v1\nkind: Pod\nmetadata: [a]\n"}, ("simulate", "{dir}/c.yaml"), 2,
           'error: {dir}/c.yaml: document 0: Pod at the top level: field metadata: expected an object, got ["a"]'),
    Hazard("metadata-a-string", {"c.yaml": "apiVersion: v1\nkind: Node\nmetadata: n1\n"}, ("simulate", "{dir}/c.yaml"), 2,
           'error: {dir}/c.yaml: document 0: Node at the top level: field metadata: expected an object, got "n1"'),
    Hazard("huge-integer-json", {"c.json": '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "x": ' + HUGE + "}"},
           ("simulate", "{dir}/c.json"), 2, "error: {dir}/c.json: document 0: invalid JSON: an integer longer than 4300 digits"),
    Hazard("huge-integer-yaml", {"c.yaml": NODE + "spec: {x: " + HUGE + "}\n"}, ("simulate", "{dir}/c.yaml"), 2,
           "error: {dir}/c.yaml: document 0: field spec.x: an integer longer than 4300 digits (line 5)"),
    Hazard("huge-integer-config", {"c.yaml": NODE, "s.yaml": HEADER + "parallelism: " + HUGE + "\n"},
           ("simulate", "{dir}/c.yaml", "--config", "{dir}/s.yaml"), 1,
           "error: {dir}/s.yaml: an integer longer than 4300 digits (line 3)"),
    Hazard("json-duplicate-key", {"c.json": '{"apiVersion": "v1", "kind": "Node",\n "metadata": {"name": "a"},\n "metadata": {"name": "b"}}'},
           ("simulate", "{dir}/c.json"), 2, "error: {dir}/c.json: document 0: field metadata: duplicate field (line 3)"),
    Hazard("json-duplicate-nested-key", {"c.json": '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "labels": {"x": "1", "x": "2"}}}'},
           ("simulate", "{dir}/c.json"), 2, "error: {dir}/c.json: document 0: field metadata.labels.x: duplicate field (line 1)"),
    Hazard("json-duplicate-key-on-stdin", {}, ("simulate", "-"), 2,
           "error: <stdin>: document 0: field kind: duplicate field (line 1)",
           stdin='{"apiVersion": "v1", "kind": "Node", "kind": "Pod", "metadata": {"name": "a"}}'),
    Hazard("unlistable-subdirectory", {"cluster/n.yaml": NODE, "cluster/locked/p.yaml": POD}, ("simulate", "{dir}/cluster"), 2,
           "error: {dir}/cluster/locked: cannot read the directory: Permission denied", patch=_unlistable),
    Hazard("metrics-to-a-full-disk", {"c.yaml": NODE}, ("simulate", "{dir}/c.yaml", "--metrics", "/dev/full"), 2,
           "error: /dev/full: cannot write the output: No space left on device"),
    Hazard("malformed-kubeconfig", {"s.yaml": HEADER, "k.yaml": "clusters:\n- name: c\n  user: {token: s3cr3t-t0ken}\n bad: [\n"},
           ("run", "--config", "{dir}/s.yaml", "--kubeconfig", "{dir}/k.yaml"), 1,
           "error: {dir}/k.yaml: not a valid kubeconfig: line 4, column 2: invalid YAML: while parsing a block mapping expected <block end>, but found '<block mapping start>'"),
    Hazard("kubeconfig-without-contexts", {"s.yaml": HEADER, "k.yaml": "users:\n- name: u\n  user: {token: s3cr3t-t0ken}\n"},
           ("run", "--config", "{dir}/s.yaml", "--kubeconfig", "{dir}/k.yaml"), 1,
           "error: {dir}/k.yaml: not a valid kubeconfig: it has no contexts"),
    Hazard("kubeconfig-clusters-not-a-list", {"s.yaml": HEADER, "k.yaml": "clusters: {server: x}\n"},
           ("run", "--config", "{dir}/s.yaml", "--kubeconfig", "{dir}/k.yaml"), 1,
           "error: {dir}/k.yaml: not a valid kubeconfig: field clusters: expected a list"),
    Hazard("kubeconfig-unknown-current-context", {"s.yaml": HEADER, "k.yaml": "contexts:\n- name: a\n  context: {cluster: c}\ncurrent-context: b\n"},
           ("run", "--config", "{dir}/s.yaml", "--kubeconfig", "{dir}/k.yaml"), 1,
           "error: {dir}/k.yaml: not a valid kubeconfig: field current-context: no context has that name"),
    Hazard("new-plugin-with-an-unwritable-home", {"home": ""}, ("new-plugin", "MyPlugin", "--no-input", "-d", "{dir}/out"), 2,
           "error: cannot write the new plugin: Unable to create directory at {dir}/home/.cookiecutter_replay/",
           env={"HOME": "{dir}/home"}, patch=_replay_under_home),
    Hazard("constructor-raises", {"c.yaml": TWO_PODS, "s.yaml": _sorter(init="raise")}, SORT_ARGV, 2,
           f"error: initializing {SORTER}: RuntimeError: injected fault in FaultySort's constructor"),
    Hazard("constructor-exits", {"c.yaml": TWO_PODS, "s.yaml": _sorter(init="exit")}, SORT_ARGV, 2,
           f"error: initializing {SORTER}: SystemExit: 3"),
    Hazard("constructor-hangs", {"c.yaml": TWO_PODS, "s.yaml": _sorter(init="hang")}, SORT_ARGV, 2,
           f"error: initializing {SORTER}: PluginTimeout: did not return within 0.5s", patch=_short_init_limit),
    Hazard("queue-sort-raises", {"c.yaml": TWO_PODS, "s.yaml": _sorter(less="raise")}, SORT_ARGV, 2,
           f"error: {QUEUE_SORT}: RuntimeError: injected fault in FaultySort's queue_sort_less"),
    Hazard("queue-sort-exits", {"c.yaml": TWO_PODS, "s.yaml": _sorter(less="exit")}, SORT_ARGV, 2,
           f"error: {QUEUE_SORT}: SystemExit: 3"),
    Hazard("queue-sort-hangs", {"c.yaml": TWO_PODS, "s.yaml": _sorter(less="hang")}, SORT_ARGV, 2,
           f"error: {QUEUE_SORT}: CycleTimeout: the cycle exceeded its 0.5s time limit"),
    Hazard("queue-sort-that-behaves", {"c.yaml": TWO_PODS, "s.yaml": _sorter()}, SORT_ARGV, 0, None),
    Hazard("spread-label-key-the-pod-lacks-merged-nothing", {"c.yaml": NODE + "---\n" + SPREAD_POD}, ("simulate", "{dir}/c.yaml", "-o", "json"), 0, None),
    Hazard("spread-label-key-in-selector-legacy-rule", {"c.yaml": NODE + "---\n" + SPREAD_POD},
           ("simulate", "{dir}/c.yaml", "--feature-gates", MERGE_OFF), 2, LEGACY_LINE),
    Hazard("spread-label-keys-without-selector-legacy-rule", {"c.yaml": NODE + "---\n" + NO_SELECTOR_POD},
           ("simulate", "{dir}/c.yaml", "--feature-gates", MERGE_OFF), 2,
           "error: {dir}/c.yaml: document 1: Pod default/p: field spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"),
    Hazard("spread-label-keys-dropped-when-their-gate-is-off", {"c.yaml": NODE + "---\n" + NO_SELECTOR_POD},
           ("simulate", "{dir}/c.yaml", "-o", "json", "--feature-gates", "MatchLabelKeysInPodTopologySpread=false"), 0, None),
    Hazard("preferred-node-affinity-bad-label-value-accepted", {"c.yaml": NODE + "---\n" + PREFERRED_BAD_VALUE},
           ("simulate", "{dir}/c.yaml", "-o", "json"), 0, None),
]  # fmt: skip


def _make(folder: Path, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            os.mkfifo(path)
        else:
            path.write_text(text)


@contextlib.contextmanager
def _environment(values: dict[str, str] | None) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values or {}}
    os.environ.update(values or {})
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the CLI run in this process."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                result = main(argv)
                code = result if isinstance(result, int) else 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()


def check_hazard(hazard: Hazard, folder: Path) -> str | None:
    """None when the CLI does what the hazard says; else what went wrong."""
    _make(folder, hazard.files)
    argv = [a.replace("{dir}", str(folder)) for a in hazard.argv]
    patch = hazard.patch(folder) if hazard.patch else contextlib.nullcontext()
    env = {k: v.replace("{dir}", str(folder)) for k, v in (hazard.env or {}).items()}
    with _environment(env), patch:
        code, _, err = run_cli(argv, hazard.stdin)
    expected = None if hazard.line is None else hazard.line.replace("{dir}", str(folder))
    lines = [line for line in err.splitlines() if not line.startswith("warning: ")]
    got = lines[0] if len(lines) == 1 else ("\n".join(lines) if lines else None)
    if code != hazard.code or got != expected:
        return f"exit {code}, stderr {err[:800]!r}; expected exit {hazard.code}, {expected!r}"
    return None


PLUGIN_HOOKS = ("pre_filter", "filter", "post_filter", "pre_score", "score", "normalize_score",
                "reserve", "unreserve", "permit", "pre_bind", "bind", "post_bind", "pre_enqueue")  # fmt: skip
PLUGIN_FAULTS = ("raise", "exit", "garbage", "error")
FAULT_CONFIG = {
    "apiVersion": "kubescheduler.config.k8s.io/v1",
    "kind": "KubeSchedulerConfiguration",
    "profiles": [{"schedulerName": "default-scheduler", "plugins": {
        "multiPoint": {"enabled": [{"name": "FaultInjection"}]},
        "bind": {"enabled": [{"name": "FaultInjection"}]}}}],
}  # fmt: skip


def check_plugin_fault(hook: str, fault: str, folder: Path) -> str | None:
    """A FaultInjection plugin misbehaving at `hook` for one pod: the run ends normally (exit
    0, nothing on stderr but warnings), the healthy pod is scheduled, the faulty one is
    reported."""
    faulty = POD.replace("name: p,", "name: faulty,").replace(
        "namespace: default}",
        f"namespace: default, annotations: {{faults.kubesched.io/{hook}: {fault}}}}}",
    )
    (folder / "c.yaml").write_text(NODE + "---\n" + POD + "---\n" + faulty)
    (folder / "s.json").write_text(json.dumps(FAULT_CONFIG))
    argv = ["simulate", str(folder / "c.yaml"), "--config", str(folder / "s.json"), "-o", "json"]
    code, out, err = run_cli(argv)
    problems = [line for line in err.splitlines() if not line.startswith("warning: ")]
    if code != 0 or problems:
        return f"exit {code}, stderr {err[:800]!r}"
    outcomes = {o["pod"]: o["status"] for o in json.loads(out)["results"]}
    if outcomes.get("default/p") != "Scheduled" or "default/faulty" not in outcomes:
        return f"outcomes {outcomes}"
    return None


KUBESCHED = str(Path(sys.executable).parent / "kubesched")
"""The installed command, run as a child process where a case needs one."""
WAIT_SECONDS = 60.0
"""How long a child gets to reach the hanging plugin before a signal is sent."""


def _cpu_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])  # utime + stime


def _wait_idle(pid: int) -> None:
    """Wait until the child has worked and then stopped using the CPU for a second: it sleeps
    in the hanging plugin (where /proc is missing, a fixed few seconds)."""
    deadline = time.monotonic() + WAIT_SECONDS
    last, still_since = _cpu_ticks(pid), time.monotonic()
    if last is None:
        time.sleep(5)
        return
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = _cpu_ticks(pid)
        if now is None:
            return
        if now != last:
            last, still_since = now, time.monotonic()
        elif now > 50 and time.monotonic() - still_since > 1.0:
            return


HANGING = (
    NODE
    + "---\n"
    + POD.replace(
        "namespace: default}",
        "namespace: default, annotations: {faults.kubesched.io/filter: hang}}",
    )
)


def check_signal(signum: int, folder: Path) -> str | None:
    """A run stuck in a plugin gets `signum`: it exits 128 + signum at once with one line
    saying how far it got, and leaves no metrics file."""
    (folder / "c.yaml").write_text(HANGING)
    (folder / "s.json").write_text(json.dumps(FAULT_CONFIG))
    metrics = folder / "metrics.prom"
    argv = [KUBESCHED, "simulate", str(folder / "c.yaml"), "--config",
            str(folder / "s.json"), "--cycle-timeout", "0", "--metrics", str(metrics)]  # fmt: skip
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_idle(process.pid)  # loading done; the filter hangs (no cycle timeout)
    process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        return "still running 30 s after the signal"
    name = signal.Signals(signum).name
    expected = (
        f"error: interrupted ({name}) while scheduling: 0 of 1 pods decided; no output was written"
    )
    if process.returncode != 128 + signum or err.strip() != expected or out or metrics.exists():
        return f"exit {process.returncode}, stdout {out[:200]!r}, stderr {err[:400]!r}"
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".metrics")]
    return f"temporary files left: {leftovers}" if leftovers else None


def check_full_stdout(folder: Path) -> str | None:
    """Output to a full disk: one line, exit 2, no traceback."""
    (folder / "c.yaml").write_text(NODE)
    argv = [KUBESCHED, "simulate", str(folder / "c.yaml"), "-o", "json"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    expected = "error: cannot write the output: No space left on device"
    if done.returncode != 2 or done.stderr.strip() != expected:
        return f"exit {done.returncode}, stderr {done.stderr[:400]!r}"
    return None

"""`kubesched run` as a process: probes and metrics while it schedules, SIGTERM stops it
gracefully and hands the lease back; without the client library it names the extra."""

from __future__ import annotations

import os
import re
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, config_text
from .test_run_binds import node_of
from .test_run_leader import holder

SERVING = re.compile(rb"serving /healthz, /readyz and /metrics on 127\.0\.0\.1:(\d+)")
METRICS_READER = "metrics-reader-token"


def fetch(port: int, path: str, token: str | None = METRICS_READER) -> tuple[int, str]:
    """GET over HTTPS (the self-signed certificate is not checked), with a bearer token."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    request = urllib.request.Request(f"https://127.0.0.1:{port}{path}")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5, context=context) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def read_port(process: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    assert process.stderr is not None
    os.set_blocking(process.stderr.fileno(), False)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen += process.stderr.read() or b""
        found = SERVING.search(seen)
        if found:
            return int(found[1])
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"no port announced: {seen.decode(errors='replace')}")


def test_kubesched_run_serves_probes_and_stops_on_sigterm(
    apiserver: FakeApiServer, kubeconfig: Path, tmp_path: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(config_text(elect=True))
    apiserver.users = {METRICS_READER: "prometheus", "nobody-token": "nobody"}
    apiserver.allowed = {("prometheus", "get", "/metrics")}
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("web").scheduler_name(SCHEDULER).req(cpu="1").obj())
    process = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("kubesched")),
            "run",
            "--config",
            str(config),
            "--kubeconfig",
            str(kubeconfig),
            "--bind-address",
            "127.0.0.1",
            "--port",
            "0",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    try:
        port = read_port(process)
        assert apiserver.wait_for(lambda: node_of(apiserver, "web"), timeout=30) == "n1"
        assert fetch(port, "/healthz") == (200, "ok")
        assert apiserver.wait_for(lambda: fetch(port, "/readyz") == (200, "ok"))
        scheduled = (
            'scheduler_schedule_attempts_total{profile="my-scheduler",result="scheduled"} 1.0'
        )
        apiserver.wait_for(lambda: scheduled in fetch(port, "/metrics")[1])
        metrics = fetch(port, "/metrics")[1]
        assert "scheduler_pending_pods" in metrics
        for family in (
            'leader_election_master_status{name="my-scheduler"} 1.0',
            'rest_client_requests_total{code="201",host="127.0.0.1:',
            'rest_client_request_duration_seconds_bucket{host="127.0.0.1:',
            "process_cpu_seconds_total ",
            "process_resident_memory_bytes ",
            'scheduler_event_handling_duration_seconds_count{event="NodeAdd"}',
            "# TYPE scheduler_inflight_events gauge",
            "# TYPE scheduler_queueing_hint_execution_duration_seconds histogram",
            "# TYPE scheduler_goroutines gauge",
            'scheduler_plugin_evaluation_total{extension_point="Filter",plugin="NodeResourcesFit",'
            'profile="my-scheduler"} 1.0',
        ):
            assert family in metrics, family
        assert fetch(port, "/healthz", token=None) == (200, "ok")  # health: anonymous
        assert fetch(port, "/metrics", token=None)[0] == 401
        assert fetch(port, "/metrics", token="unknown-token")[0] == 401
        assert fetch(port, "/metrics", token="nobody-token") == (
            403,
            'forbidden: User "nobody" cannot get path "/metrics"\n',
        )
        assert fetch(port, "/nope")[0] == 404
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert holder(apiserver) == ""


def test_without_the_client_library_run_names_the_extra(kubeconfig: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(config_text())
    script = (
        "import sys; sys.modules['kr8s'] = None; sys.modules['kr8s.asyncio'] = None\n"
        "from kubesched.cli.main import main\n"
        f"main(['run', '--config', {str(config)!r}, '--kubeconfig', {str(kubeconfig)!r},"
        " '--port', '0', '--bind-address', '127.0.0.1'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert "pip install 'kubesched-core[run]'" in result.stderr


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["run", "--help"]])
def test_the_client_library_is_imported_only_to_run(argv: list[str]) -> None:
    script = (
        "import sys\nfrom kubesched.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "assert 'kr8s' not in sys.modules and 'httpx' not in sys.modules, 'imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, timeout=60)


def test_an_api_server_down_at_start_is_waited_for_with_one_line_per_kind_of_failure(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(config_text())
    with FakeApiServer() as server:
        kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    # The server is gone: nothing listens on its port any more.
    process = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("kubesched")),
            "run",
            "--config",
            str(config),
            "--kubeconfig",
            str(kubeconfig),
            "--port",
            "0",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert process.stderr is not None
    os.set_blocking(process.stderr.fileno(), False)
    stderr = b""
    try:
        deadline = time.monotonic() + 60
        while b"retrying with backoff" not in stderr and time.monotonic() < deadline:
            stderr += process.stderr.read() or b""
            time.sleep(0.05)
        time.sleep(4.0)  # attempts after 0.8-1.6 s, then 1.6-3.2 s: at least one more
        assert process.poll() is None, "it gave up instead of waiting for the API server"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    os.set_blocking(process.stderr.fileno(), True)
    text = (stderr + process.stderr.read()).decode()
    lines = [line for line in text.splitlines() if "cannot reach the API server" in line]
    assert len(lines) == 1, text
    assert "retrying with backoff until it answers" in lines[0]
    assert "Traceback" not in text

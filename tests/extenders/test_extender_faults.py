"""Extenders that fail: unreachable, slow, refusing, answering garbage; `ignorable` ones
skipped; prioritize failures ignored (as upstream). Served by a bare http.server."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from kubesched.api import Node, Pod
from kubesched.testing import make_node, make_pod, simulate

NODES = [make_node(f"n{i}").capacity(cpu="4", memory="8Gi").obj() for i in (1, 2)]


def web() -> Pod:
    return make_pod("web").namespace("apps").uid("uid-web").req(cpu="1").obj()


def run_with(extenders: list[dict[str, Any]], nodes: list[Node] = NODES) -> Any:
    return simulate(nodes, [web()], {"extenders": extenders}, max_pod_attempts=1, explain=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


FILTER_OK = {"NodeNames": ["n1", "n2"], "FailedNodes": {}, "Error": ""}


def test_an_unreachable_filter_extender_fails_the_cycle_naming_its_url() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    run = run_with([{"urlPrefix": url, "filterVerb": "filter", "nodeCacheCapable": True}])
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message.startswith(f'Post "{url}/filter": ')
    assert "refused" in outcome.message.lower()


def test_a_slow_filter_extender_times_out(raw_server: Any) -> None:
    server = raw_server()
    server.answer("filter", FILTER_OK, delay=1.0)
    cfg = {"urlPrefix": server.url, "filterVerb": "filter", "httpTimeout": "100ms"}
    run = run_with([{**cfg, "nodeCacheCapable": True}])
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message == (
        f'Post "{server.url}/filter": no answer within the extender timeout (0.1s)'
    )


def test_a_non_200_answer_is_upstreams_error(raw_server: Any) -> None:
    server = raw_server()
    server.answer("filter", {}, status=500)
    run = run_with([{"urlPrefix": server.url + "/", "filterVerb": "filter"}])
    assert run.outcome("apps/web").message == (
        f"failed filter with extender at URL {server.url}/filter, code 500"
    )


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        (b"<html>oops</html>", "not JSON"),
        (b'{"NodeNames": "n1", "Error": ""}', "expected a list"),
        (b'{"NodeNames": ["n1"], "FailedNodes": {"n2": 3}}', "expected a string"),
        (b"[1, 2]", "expected an object"),
    ],
)
def test_a_malformed_filter_answer_is_an_error_naming_the_extender(
    raw_server: Any, raw: bytes, detail: str
) -> None:
    server = raw_server()
    server.answer("filter", raw=raw)
    run = run_with([{"urlPrefix": server.url, "filterVerb": "filter", "nodeCacheCapable": True}])
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message.startswith(f'extender "{server.url}": malformed filter response: ')
    assert detail in outcome.message


def test_the_error_field_of_a_filter_answer_fails_the_cycle(raw_server: Any) -> None:
    server = raw_server()
    server.answer("filter", {"Error": "cache not warm yet"})
    run = run_with([{"urlPrefix": server.url, "filterVerb": "filter"}])
    assert run.outcome("apps/web").message == "cache not warm yet"


def test_a_filter_answer_naming_an_unknown_node_is_an_error(raw_server: Any) -> None:
    server = raw_server()
    server.answer("filter", {"NodeNames": ["n1", "ghost"]})
    run = run_with([{"urlPrefix": server.url, "filterVerb": "filter", "nodeCacheCapable": True}])
    assert run.outcome("apps/web").message == (
        f'extender "{server.url}" claims a filtered node "ghost" which is not found in the '
        "input node list"
    )


def test_keys_are_matched_case_insensitively_as_go_does(raw_server: Any) -> None:
    server = raw_server()
    server.answer(
        "filter",
        {"nodenames": ["n2"], "failedNodes": {"n1": "busy"}, "error": ""},
    )
    run = run_with([{"urlPrefix": server.url, "filterVerb": "filter", "nodeCacheCapable": True}])
    assert run.placements == {"apps/web": "n2"}


def test_an_ignorable_extender_that_fails_is_skipped(raw_server: Any) -> None:
    broken = f"http://127.0.0.1:{free_port()}"
    good = raw_server()
    good.answer("filter", {"NodeNames": ["n2"], "FailedNodes": {"n1": "busy"}})
    run = run_with(
        [
            {"urlPrefix": broken, "filterVerb": "filter", "ignorable": True},
            {"urlPrefix": good.url, "filterVerb": "filter", "nodeCacheCapable": True},
        ]
    )
    assert run.placements == {"apps/web": "n2"}
    assert good.verbs() == ["filter"]


def test_ignorable_extenders_are_called_after_the_others(raw_server: Any) -> None:
    first, second = raw_server(), raw_server()
    first.answer("filter", {"NodeNames": ["n1", "n2"]})
    second.answer("filter", {"NodeNames": ["n1"], "FailedNodes": {"n2": "no"}})
    run = run_with(
        [
            {
                "urlPrefix": first.url,
                "filterVerb": "filter",
                "nodeCacheCapable": True,
                "ignorable": True,
            },
            {"urlPrefix": second.url, "filterVerb": "filter", "nodeCacheCapable": True},
        ]
    )
    assert run.placements == {"apps/web": "n1"}
    assert second.calls[0][1]["NodeNames"] == ["n1", "n2"]
    assert first.calls[0][1]["NodeNames"] == ["n1"]  # after the non-ignorable one


def test_a_failing_prioritize_call_is_ignored(raw_server: Any) -> None:
    failing, scoring = raw_server(), raw_server()
    failing.answer("prioritize", raw=b"not json")
    scoring.answer("prioritize", [{"Host": "n1", "Score": 0}, {"Host": "n2", "Score": 10}])
    run = run_with(
        [
            {"urlPrefix": failing.url, "prioritizeVerb": "prioritize", "weight": 100},
            {"urlPrefix": scoring.url, "prioritizeVerb": "prioritize", "weight": 1},
        ]
    )
    assert run.placements == {"apps/web": "n2"}
    nodes = run.outcome("apps/web").nodes
    assert failing.url not in nodes["n2"].extenders
    assert nodes["n2"].extenders[scoring.url].weighted == 100


def test_a_failing_binder_fails_the_binding_cycle(raw_server: Any) -> None:
    server = raw_server()
    server.answer("bind", {"Error": "quota exceeded"})
    run = run_with([{"urlPrefix": server.url, "bindVerb": "bind"}])
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message == "quota exceeded"
    assert outcome.node is None


def test_an_ignorable_binder_that_fails_leaves_binding_to_the_plugins(raw_server: Any) -> None:
    server = raw_server()
    server.answer("bind", {}, status=503)
    run = run_with([{"urlPrefix": server.url, "bindVerb": "bind", "ignorable": True}])
    assert run.placements == {"apps/web": "n1"} or run.placements == {"apps/web": "n2"}
    assert server.verbs() == ["bind"]


def test_a_preempt_answer_naming_a_pod_not_on_the_node_is_an_error(raw_server: Any) -> None:
    server = raw_server()
    server.answer("preempt", {"NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": "nobody"}]}}})
    nodes = [make_node("n1").capacity(cpu="2").obj()]
    batch = make_pod("batch").namespace("apps").uid("b").node("n1").req(cpu="2").obj()
    urgent = make_pod("urgent").namespace("apps").uid("u").priority(9).req(cpu="2").obj()
    run = simulate(
        nodes,
        [batch, urgent],
        {"extenders": [{"urlPrefix": server.url, "preemptVerb": "preempt"}]},
        max_pod_attempts=1,
    )
    outcome = run.outcome("apps/urgent")
    assert outcome.victims == []
    assert (
        f"extender: {server.url} claims to preempt pod (UID: nobody) on node: n1, "
        "but the pod is not found on that node"
    ) in outcome.message


def test_a_preempt_answer_leaving_a_node_without_victims_is_an_error(raw_server: Any) -> None:
    server = raw_server()
    server.answer("preempt", {"NodeNameToMetaVictims": {"n1": {"Pods": []}}})
    nodes = [make_node("n1").capacity(cpu="2").obj()]
    batch = make_pod("batch").namespace("apps").uid("b").node("n1").req(cpu="2").obj()
    urgent = make_pod("urgent").namespace("apps").uid("u").priority(9).req(cpu="2").obj()
    config = {"extenders": [{"urlPrefix": server.url, "preemptVerb": "preempt"}]}
    run = simulate(nodes, [batch, urgent], config, max_pod_attempts=1)
    assert 'expected at least one victim pod on node "n1"' in run.outcome("apps/urgent").message


def test_calls_reuse_one_connection_and_send_json(raw_server: Any) -> None:
    server = raw_server()
    server.answer("filter", {"NodeNames": ["n1", "n2"]})
    server.answer("prioritize", [{"Host": "n1", "Score": 1}, {"Host": "n2", "Score": 2}])
    pods = [make_pod(f"p{i}").namespace("a").uid(f"p{i}").req(cpu="1").obj() for i in range(3)]
    config = {
        "extenders": [
            {
                "urlPrefix": server.url,
                "filterVerb": "filter",
                "prioritizeVerb": "prioritize",
                "weight": 1,
                "nodeCacheCapable": True,
            }
        ]
    }
    run = simulate(NODES, pods, config)
    assert all(run.placements.values())
    assert server.verbs() == ["filter", "prioritize"] * 3
    assert len(set(server.client_ports)) == 1  # a keep-alive server sees one connection
    headers = server.calls[0][2]
    assert headers["Content-Type"] == "application/json"


def test_a_url_without_a_scheme_is_an_error_naming_it() -> None:
    run = run_with([{"urlPrefix": "127.0.0.1:1", "filterVerb": "filter"}])
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message.startswith('Post "127.0.0.1:1/filter": ')

"""Host port conflicts, as upstream's HostPortInfo.CheckConflict decides them.

A port is (hostIP, protocol, hostPort), with an empty hostIP read as 0.0.0.0
and an empty protocol as TCP (`kubesched.framework.host_ports` gives them so).
A wanted port conflicts with a used one of the same protocol and number when
either binds 0.0.0.0 or both bind the same address.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

HostPort = tuple[str, str, int]
"""(hostIP, protocol, hostPort)."""

BIND_ALL = "0.0.0.0"


def conflicts(used: Collection[HostPort], want: HostPort) -> bool:
    """True when `want` clashes with a port in `used` (a set, or a dict keyed by port)."""
    ip, protocol, port = want
    if port <= 0:
        return False
    if ip == BIND_ALL:
        return any(p == port and proto == protocol for _, proto, p in used)
    return (BIND_ALL, protocol, port) in used or want in used


def fits(wanted: Iterable[HostPort], used: Collection[HostPort]) -> bool:
    """True when no wanted port clashes with a used one (upstream's fitsPorts)."""
    return not any(conflicts(used, want) for want in wanted)

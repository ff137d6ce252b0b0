"""Validation messages worded as upstream's `field.Error`s and label-name checks.

`invalid("a.b", -1, "detail")` gives `a.b: Invalid value: -1: detail`, the
string kube-scheduler prints for the same mistake.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_QNAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_RE = re.compile(f"^{_QNAME_FMT}$")
_QNAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_QNAME_MAX = 63
_DNS_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN_FMT = rf"{_DNS_LABEL_FMT}(\.{_DNS_LABEL_FMT})*"
_DNS_SUBDOMAIN_RE = re.compile(f"^{_DNS_SUBDOMAIN_FMT}$")
_DNS_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)
_DNS_SUBDOMAIN_MAX = 253


def join(path: str, child: str) -> str:
    """`path.child`, or `child` at the root; indexes (`[0]`) attach without a dot."""
    if not path or child.startswith("["):
        return f"{path}{child}"
    return f"{path}.{child}"


def _go_value(value: object) -> str:
    """A bad value the way Go's field errors print it: strings quoted, numbers bare."""
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    return str(value)


def invalid(path: str, value: object, detail: str) -> str:
    """field.Invalid."""
    return f"{path}: Invalid value: {_go_value(value)}: {detail}"


def not_supported(path: str, value: str, supported: Iterable[str]) -> str:
    """field.NotSupported, listing the supported values in order."""
    values = ", ".join(_go_value(v) for v in supported)
    return f"{path}: Unsupported value: {_go_value(value)}: supported values: {values}"


def required(path: str, detail: str) -> str:
    """field.Required."""
    return f"{path}: Required value: {detail}"


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    quoted = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {quoted}regex used for validation is '{fmt}')"


def _dns1123_subdomain_errors(value: str) -> list[str]:
    errs = []
    if len(value) > _DNS_SUBDOMAIN_MAX:
        errs.append(f"must be no more than {_DNS_SUBDOMAIN_MAX} characters")
    if not _DNS_SUBDOMAIN_RE.match(value):
        errs.append(_regex_error(_DNS_SUBDOMAIN_MSG, _DNS_SUBDOMAIN_FMT, "example.com"))
    return errs


def qualified_name_errors(value: str) -> list[str]:
    """Upstream's IsQualifiedName: `[DNS-subdomain prefix/]name`, name at most 63 characters."""
    parts = value.split("/")
    errs: list[str] = []
    if len(parts) > 2:
        example = " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        return [
            "a qualified name "
            + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
            + example
        ]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend(f"prefix part {msg}" for msg in _dns1123_subdomain_errors(prefix))
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > _QNAME_MAX:
        errs.append(f"name part must be no more than {_QNAME_MAX} characters")
    if not _QNAME_RE.match(name):
        errs.append(
            "name part " + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errs


def label_name_errors(path: str, value: str) -> list[str]:
    """metav1validation.ValidateLabelName: one Invalid line per problem."""
    return [invalid(path, value, msg) for msg in qualified_name_errors(value)]

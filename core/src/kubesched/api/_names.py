"""Name syntax checks with apimachinery's messages (`api/validate/content`).

Each `*_errors` check returns why a value is not valid, one message per
problem, and an empty list when it is: `qualified_name_errors("a/b/c")` gives
the one line upstream's IsQualifiedName gives. Lengths count bytes, as Go's
`len` does; label keys and values say so ("must be no more than 63 bytes"),
while object names and namespaces, which upstream still checks with
`util/validation`'s IsDNS1123Subdomain and IsDNS1123Label, say "characters".
The `validate_*` functions turn those messages into field errors the way
upstream's callers do.
"""

from __future__ import annotations

import re

from kubesched.api._field_errors import FieldError, invalid

QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_VALUE_FMT = f"({QUALIFIED_NAME_FMT})?"
DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + r"(\." + DNS1123_LABEL_FMT + ")*"

QUALIFIED_NAME_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1123_LABEL_MAX_LENGTH = 63

EMPTY_ERROR = "must be non-empty"

_QUALIFIED_NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_QUALIFIED_NAME_EXAMPLES = ("MyName", "my.name", "123-abc")
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, "
    "'-', '_' or '.', and must start and end with an alphanumeric character"
)
_DNS1123_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)

_QUALIFIED_NAME_RE = re.compile(QUALIFIED_NAME_FMT)
_LABEL_VALUE_RE = re.compile(LABEL_VALUE_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(DNS1123_SUBDOMAIN_FMT)
_DNS1123_LABEL_RE = re.compile(DNS1123_LABEL_FMT)


def max_len_error(length: int, unit: str = "bytes") -> str:
    """Upstream's MaxLenError: `content`'s counts bytes, `util/validation`'s characters."""
    return f"must be no more than {length} {unit}"


def regex_error(message: str, regex: str, *examples: str) -> str:
    """Upstream's RegexError: the message, the examples and the regex itself."""
    if not examples:
        return f"{message} (regex used for validation is '{regex}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{regex}')"


def _byte_length(text: str) -> int:
    return len(text.encode())


def dns1123_subdomain_errors(value: str, unit: str = "characters") -> list[str]:
    """Why `value` is not a lowercase RFC 1123 subdomain (IsDNS1123Subdomain; `unit` is the
    word its length message uses: "bytes" for a label key's prefix)."""
    errors = []
    if _byte_length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errors.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH, unit))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errors.append(regex_error(_DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errors


def dns1123_label_errors(value: str) -> list[str]:
    """Why `value` is not a lowercase RFC 1123 label (IsDNS1123Label), as a namespace must be:
    a valid subdomain that is not a label has dots in it, and is told so."""
    errors = []
    if _byte_length(value) > DNS1123_LABEL_MAX_LENGTH:
        errors.append(max_len_error(DNS1123_LABEL_MAX_LENGTH, "characters"))
    if not _DNS1123_LABEL_RE.fullmatch(value):
        if _DNS1123_SUBDOMAIN_RE.fullmatch(value):
            errors.append("must not contain dots")
        else:
            errors.append(regex_error(_DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errors


def _name_part_regex_error() -> str:
    return regex_error(_QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, *_QUALIFIED_NAME_EXAMPLES)


def qualified_name_errors(value: str) -> list[str]:
    """Why `value` is not a qualified name: an optional DNS-subdomain prefix and '/', then a
    name of at most 63 bytes (IsQualifiedName, which upstream also calls IsLabelKey: every
    label key is a qualified name)."""
    parts = value.split("/")
    if len(parts) > 2:
        return [
            f"a valid label key {_name_part_regex_error()} "
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    errors = []
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append(f"prefix part {EMPTY_ERROR}")
        else:
            errors.extend(f"prefix part {e}" for e in dns1123_subdomain_errors(prefix, "bytes"))
    name = parts[-1]
    if not name:
        errors.append(f"name part {EMPTY_ERROR}")
    elif _byte_length(name) > QUALIFIED_NAME_MAX_LENGTH:
        errors.append(f"name part {max_len_error(QUALIFIED_NAME_MAX_LENGTH)}")
    if not _QUALIFIED_NAME_RE.fullmatch(name):
        errors.append(f"name part {_name_part_regex_error()}")
    return errors


def label_value_errors(value: str) -> list[str]:
    """Why `value` is not a label value (IsValidLabelValue); the empty string is one."""
    errors = []
    if _byte_length(value) > LABEL_VALUE_MAX_LENGTH:
        errors.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE_RE.fullmatch(value):
        examples = ("MyValue", "my_value", "12345")
        errors.append(regex_error(_LABEL_VALUE_MSG, LABEL_VALUE_FMT, *examples))
    return errors


def validate_label_name(path: str, name: str) -> list[FieldError]:
    """One Invalid error per problem with a qualified name (metav1 ValidateLabelName)."""
    return [invalid(path, name, problem) for problem in qualified_name_errors(name)]


def validate_label_key(path: str, key: str) -> list[FieldError]:
    """A selector's key: at most one Invalid error, joining every problem (labels'
    validateLabelKey)."""
    problems = qualified_name_errors(key)
    return [invalid(path, key, "; ".join(problems))] if problems else []


def validate_label_value(path: str, value: str) -> list[FieldError]:
    """A selector's value: at most one Invalid error, joining every problem (labels'
    validateLabelValue)."""
    problems = label_value_errors(value)
    return [invalid(path, value, "; ".join(problems))] if problems else []

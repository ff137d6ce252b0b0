"""Label key and value syntax, and Go's integer parsing, as upstream's selectors check them.

Messages are upstream's (`apimachinery/pkg/api/validate/content`): a node
selector requirement with a bad key or value does not parse, and the reason
shows up in PreScore errors and in NodeAffinityArgs validation.
"""

from __future__ import annotations

import re

LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_VALUE_FMT = f"({LABEL_KEY_FMT})?"
DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + r"(\." + DNS1123_LABEL_FMT + ")*"

LABEL_KEY_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253

_LABEL_KEY_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, "
    "'-', '_' or '.', and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)
EMPTY_ERROR = "must be non-empty"

_LABEL_KEY_RE = re.compile(LABEL_KEY_FMT)
_LABEL_VALUE_RE = re.compile(LABEL_VALUE_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(DNS1123_SUBDOMAIN_FMT)
_GO_INT_RE = re.compile(r"[+-]?[0-9]+")
_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


def max_len_error(length: int) -> str:
    return f"must be no more than {length} bytes"


def regex_error(message: str, regex: str, *examples: str) -> str:
    """Upstream's RegexError: the message, examples, and the regex itself."""
    if not examples:
        return f"{message} (regex used for validation is '{regex}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{regex}')"


def _label_key_regex_error() -> str:
    return regex_error(_LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")


def _byte_length(text: str) -> int:
    return len(text.encode())


def dns1123_subdomain_errors(value: str) -> list[str]:
    """Why `value` is not a lowercase RFC 1123 subdomain (empty when it is)."""
    errors = []
    if _byte_length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errors.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errors.append(regex_error(_DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errors


def label_key_errors(key: str) -> list[str]:
    """Why `key` is not a label key: an optional DNS-subdomain prefix, '/', a name."""
    parts = key.split("/")
    if len(parts) > 2:
        return [
            "a valid label key "
            + _label_key_regex_error()
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    errors = []
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part " + EMPTY_ERROR)
        else:
            errors.extend("prefix part " + e for e in dns1123_subdomain_errors(prefix))
    name = parts[-1]
    if not name:
        errors.append("name part " + EMPTY_ERROR)
    elif _byte_length(name) > LABEL_KEY_MAX_LENGTH:
        errors.append("name part " + max_len_error(LABEL_KEY_MAX_LENGTH))
    if not _LABEL_KEY_RE.fullmatch(name):
        errors.append("name part " + _label_key_regex_error())
    return errors


def label_value_errors(value: str) -> list[str]:
    """Why `value` is not a label value (the empty string is one)."""
    errors = []
    if _byte_length(value) > LABEL_VALUE_MAX_LENGTH:
        errors.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE_RE.fullmatch(value):
        examples = ("MyValue", "my_value", "12345")
        errors.append(regex_error(_LABEL_VALUE_MSG, LABEL_VALUE_FMT, *examples))
    return errors


def parse_go_int64(text: str) -> int | None:
    """`text` as Go's `strconv.ParseInt(text, 10, 64)` reads it, or None where Go fails:
    an optional sign and decimal digits only, within int64."""
    if not _GO_INT_RE.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None

"""Name syntax with apimachinery's messages: api/validate/content's kube_test.go and
dns_test.go tables (IsLabelKey, IsLabelValue, IsDNS1123Subdomain) as data, every message
branch word for word, and the field errors built from them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api._names import (
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_value_errors,
    max_len_error,
    qualified_name_errors,
    regex_error,
    validate_label_key,
    validate_label_name,
    validate_label_value,
)

NAME_RULE = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    # Upstream's RegexError really does put two spaces before each "or".
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
    "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
VALUE_RULE = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
SUBDOMAIN_RULE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
    r"used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_RULE = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)

# TestIsLabelKey
VALID_KEYS = [
    "simple",
    "now-with-dashes",
    "1-starts-with-num",
    "1234",
    "simple/simple",
    "now-with-dashes/simple",
    "now-with-dashes/now-with-dashes",
    "now.with.dots/simple",
    "now-with.dashes-and.dots/simple",
    "1-num.2-num/3-num",
    "1234/5678",
    "1.2.3.4/5678",
    "Uppercase_Is_OK_123",
    "example.com/Uppercase_Is_OK_123",
    "requests.storage-foo",
    "a" * 63,
    "a" * 253 + "/" + "b" * 63,
    "kubernetes.io/hostname",
    "example.com/a-b_c.d",
]
INVALID_KEYS = [
    "nospecialchars%^=@",
    "cantendwithadash-",
    "-cantstartwithadash-",
    "only/one/slash",
    "Example.com/abc",
    "example_com/abc",
    "example.com/",
    "/simple",
    "a" * 64,
    "a" * 254 + "/abc",
    "-a",
    "a_",
    "é",
    "name\n",
]


@pytest.mark.parametrize("key", VALID_KEYS)
def test_valid_qualified_names(key: str) -> None:
    assert qualified_name_errors(key) == []


@pytest.mark.parametrize("key", INVALID_KEYS)
def test_invalid_qualified_names(key: str) -> None:
    assert qualified_name_errors(key) != []


@pytest.mark.parametrize(
    ("key", "errors"),
    [
        (
            "a/b/c",
            [
                f"a valid label key {NAME_RULE} with an optional DNS subdomain prefix and '/' "
                "(e.g. 'example.com/MyName')"
            ],
        ),
        ("/x", ["prefix part must be non-empty"]),
        ("Ex.com/a", [f"prefix part {SUBDOMAIN_RULE}"]),
        ("a" * 254 + "/abc", ["prefix part must be no more than 253 bytes"]),
        ("a/", ["name part must be non-empty", f"name part {NAME_RULE}"]),
        ("x" * 64, ["name part must be no more than 63 bytes"]),
        ("é" * 32, ["name part must be no more than 63 bytes", f"name part {NAME_RULE}"]),
        ("-x", [f"name part {NAME_RULE}"]),
        ("/-x", ["prefix part must be non-empty", f"name part {NAME_RULE}"]),
    ],
)
def test_qualified_name_messages(key: str, errors: list[str]) -> None:
    assert qualified_name_errors(key) == errors


# TestIsLabelValue
@pytest.mark.parametrize(
    "value",
    ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a" * 63, ""],
)
def test_valid_label_values(value: str) -> None:
    assert label_value_errors(value) == []


@pytest.mark.parametrize(
    ("value", "errors"),
    [
        ("nospecialchars%^=@", [VALUE_RULE]),
        ("Tama-nui-te-rā.is.Māori.sun", [VALUE_RULE]),
        ("\\backslashes\\are\\bad", [VALUE_RULE]),
        ("-starts-with-dash", [VALUE_RULE]),
        ("ends-with-dash-", [VALUE_RULE]),
        (".starts.with.dot", [VALUE_RULE]),
        ("ends.with.dot.", [VALUE_RULE]),
        ("a" * 64, ["must be no more than 63 bytes"]),
        ("-" * 64, ["must be no more than 63 bytes", VALUE_RULE]),
    ],
)
def test_invalid_label_values(value: str, errors: list[str]) -> None:
    assert label_value_errors(value) == errors


# TestIsDNS1123Subdomain
@pytest.mark.parametrize(
    "value",
    [
        "a", "ab", "abc", "a1", "a-1", "a--1--2--b",
        "0", "01", "012", "1a", "1-a", "1--a--b--2",
        "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a",
        "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1",
        "0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2",
        "0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1",
        "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55",
        "a" * 253,
    ],
)  # fmt: skip
def test_valid_dns1123_subdomains(value: str) -> None:
    assert dns1123_subdomain_errors(value) == []


@pytest.mark.parametrize(
    "value",
    [
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A",
        "-", "a-", "-a", "1-", "-1",
        "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
        ".", "a.", ".a", "a..b", "1.", ".1", "1..2",
        " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        "A.a", "aB.a", "ab.A", "A1.a", "a1.A",
        "A.1", "aB.1", "A1.1", "1A.1",
        "0.A", "01.A", "012.A", "1A.a", "1a.A",
        "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee",
        "a@b", "a,b", "a;b", "a:b", "a%b", "a?b", "a$b",
    ],
)  # fmt: skip
def test_invalid_dns1123_subdomains(value: str) -> None:
    assert dns1123_subdomain_errors(value) == [SUBDOMAIN_RULE]


def test_long_dns1123_subdomain() -> None:
    assert dns1123_subdomain_errors("a" * 254) == ["must be no more than 253 characters"]
    assert dns1123_subdomain_errors("a" * 254, "bytes") == ["must be no more than 253 bytes"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("my.ns", ["must not contain dots"]),
        ("a" * 64, ["must be no more than 63 characters"]),
        ("a." + "b" * 62, ["must be no more than 63 characters", "must not contain dots"]),
        ("My-ns", [LABEL_RULE]),
        ("ok-1", []),
    ],
)
def test_dns1123_labels_as_util_validation_words_them(value: str, expected: list[str]) -> None:
    assert dns1123_label_errors(value) == expected


def test_message_builders() -> None:
    assert max_len_error(15) == "must be no more than 15 bytes"
    assert regex_error("bad", "[a-z]+") == "bad (regex used for validation is '[a-z]+')"
    assert (
        regex_error("bad", "[a-z]+", "ab")
        == "bad (e.g. 'ab', regex used for validation is '[a-z]+')"
    )


NAME_ALPHABET = st.sampled_from("abcXYZ019-_.")
ALNUM = st.sampled_from("aZ9")


@given(ALNUM, st.text(NAME_ALPHABET, max_size=61), ALNUM)
def test_well_formed_names_are_keys_and_values(first: str, middle: str, last: str) -> None:
    name = first + middle + last
    assert qualified_name_errors(name) == []
    assert qualified_name_errors(f"example.com/{name}") == []
    assert label_value_errors(name) == []


@given(st.text(max_size=80))
def test_a_bare_name_is_a_key_exactly_when_it_is_a_non_empty_value(text: str) -> None:
    if "/" not in text:
        assert (qualified_name_errors(text) == []) == (
            text != "" and label_value_errors(text) == []
        )


def test_label_name_gives_one_error_per_problem() -> None:
    assert [str(e) for e in validate_label_name("ignoredResources[0]", "example.com/")] == [
        'ignoredResources[0]: Invalid value: "example.com/": name part must be non-empty',
        f'ignoredResources[0]: Invalid value: "example.com/": name part {NAME_RULE}',
    ]
    assert validate_label_name("p", "example.com") == []


def test_selector_key_and_value_join_their_problems() -> None:
    assert [str(e) for e in validate_label_key("p.key", "a/")] == [
        f'p.key: Invalid value: "a/": name part must be non-empty; name part {NAME_RULE}'
    ]
    assert [str(e) for e in validate_label_value("p.values[0][k]", "-" * 64)] == [
        f'p.values[0][k]: Invalid value: "{"-" * 64}": must be no more than 63 bytes; {VALUE_RULE}'
    ]
    assert validate_label_key("p.key", "k") == []
    assert validate_label_value("p.values[0][k]", "") == []

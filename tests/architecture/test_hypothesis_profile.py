"""Property tests do not depend on how loaded the machine is."""

from hypothesis import settings


def test_property_tests_have_no_deadline() -> None:
    assert settings.default.deadline is None

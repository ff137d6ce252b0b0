"""Parsing `--feature-gates` and the effective gate values (component-base's featuregate).

The syntax is upstream's: a comma-separated list of `Name=bool`, spaces around
names and values ignored, empty items skipped, a later setting of a name
overriding an earlier one. Values are Go's `strconv.ParseBool` spellings. The
errors carry upstream's wording: the first unknown name stops the check, and
every gate set against its lock is reported (in the order given). Nothing is
applied when anything is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from attrs import field, frozen

from kubesched.errors import KubeschedError
from kubesched.features._table import ALL_ALPHA, ALL_BETA, KNOWN_FEATURES, Stage

_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})


class FeatureGateError(KubeschedError):
    """A `--feature-gates` value that does not parse or names an unknown or locked gate."""

    def __init__(self, errors: Iterable[str]) -> None:
        self.errors = list(errors)
        one = self.errors[0] if len(self.errors) == 1 else f"[{', '.join(self.errors)}]"
        super().__init__(one)


def _parse_bool(name: str, text: str) -> bool:
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    err = f'strconv.ParseBool: parsing "{text}": invalid syntax'
    raise FeatureGateError([f"invalid value of {name}={text}, err: {err}"])


def parse_feature_gates_flag(value: str) -> dict[str, bool]:
    """`A=true,B=false` as a mapping, in order; FeatureGateError on a malformed item."""
    out: dict[str, bool] = {}
    for item in value.split(","):
        if not item:
            continue
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep:
            raise FeatureGateError([f"missing bool value for {name}"])
        out[name] = _parse_bool(name, text.strip())
    return out


def _effective(settings: Mapping[str, bool]) -> dict[str, bool]:
    errors: list[str] = []
    for name, value in settings.items():
        spec = KNOWN_FEATURES.get(name)
        if spec is None:
            raise FeatureGateError([f"unrecognized feature gate: {name}"])
        if spec.locked and spec.default != value:
            wanted, lock = str(value).lower(), str(spec.default).lower()
            errors.append(
                f"cannot set feature gate {name} to {wanted}, feature is locked to {lock}"
            )
    if errors:
        raise FeatureGateError(errors)
    values = {name: spec.default for name, spec in KNOWN_FEATURES.items()}
    for special, stage in ((ALL_ALPHA, Stage.ALPHA), (ALL_BETA, Stage.BETA)):
        if special in settings:
            for name, spec in KNOWN_FEATURES.items():
                if spec.stage is stage and name not in (ALL_ALPHA, ALL_BETA):
                    values[name] = settings[special]
    values.update(settings)
    return values


def _frozen_mapping(settings: Mapping[str, bool]) -> Mapping[str, bool]:
    return MappingProxyType(dict(settings))


@frozen
class FeatureGates:
    """The effective value of every known gate: read-only, hashable, shared by plugins.

    `enabled(name)` is upstream's `Enabled`; an unknown name is a programming
    error (KeyError), as upstream panics on one.
    """

    explicit: Mapping[str, bool] = field(factory=dict, converter=_frozen_mapping)
    """The gates named on the command line, as given (AllAlpha/AllBeta included)."""
    values: Mapping[str, bool] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(_effective(self.explicit)))

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.explicit.items())))

    def enabled(self, name: str) -> bool:
        """Whether the gate is on."""
        try:
            return self.values[name]
        except KeyError:
            raise KeyError(f"unrecognized feature gate: {name}") from None

    def warnings(self) -> list[str]:
        """Upstream's warnings for explicitly set GA and Deprecated gates, in order."""
        out = []
        for name, value in self.explicit.items():
            stage = KNOWN_FEATURES[name].stage
            if stage in (Stage.GA, Stage.DEPRECATED):
                kind = "GA" if stage is Stage.GA else "deprecated"
                out.append(
                    f"Setting {kind} feature gate {name}={str(value).lower()}. "
                    "It will be removed in a future release."
                )
        return out

    def as_flag(self) -> str:
        """The explicit settings in `--feature-gates` syntax (empty when none)."""
        return ",".join(f"{k}={str(v).lower()}" for k, v in self.explicit.items())


DEFAULT_FEATURE_GATES = FeatureGates()
"""Every gate at its default."""


def parse_feature_gates(value: str | None) -> FeatureGates:
    """The gates `--feature-gates VALUE` gives; FeatureGateError naming what is wrong."""
    if not value:
        return DEFAULT_FEATURE_GATES
    return FeatureGates(parse_feature_gates_flag(value))

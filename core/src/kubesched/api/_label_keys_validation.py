"""What an API server checks in `matchLabelKeys` and `mismatchLabelKeys`.

Pod (anti-)affinity terms (validateMatchLabelKeysAndMismatchLabelKeys) and topology spread
constraints, whose rule depends on two feature gates as upstream's pod strategy picks it:

- MatchLabelKeysInPodTopologySpread off: the API server drops the field, nothing is checked.
- MatchLabelKeysInPodTopologySpreadSelectorMerge on (the v1.35 default): the keys are merged
  into the constraint's selector when the pod is created and the merged selector is checked
  as an affinity term's is: a key the selector already names is refused where its merged
  requirement meets the selector's own.
- that gate off: the legacy rule (validateMatchLabelKeysInTopologySpread), any key the
  selector names is refused.

Every key must be a label name, and the keys need a labelSelector. A merged requirement the
selector already holds word for word is not counted twice: a pod read from a cluster's dump
carries the requirements the API server merged when it was created (see
`kubesched.api._defaults`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from kubesched.api._field_errors import FieldError, forbidden, invalid
from kubesched.api._meta import LabelSelector, LabelSelectorRequirement
from kubesched.api._meta_validation import label_name_errors

IN_BOTH_SELECTOR = "exists in both matchLabelKeys and labelSelector"
IN_BOTH_KEYS = "exists in both matchLabelKeys and mismatchLabelKeys"
NO_SELECTOR = "must not be specified when labelSelector is not set"


def _key_list_errors(
    path: str, keys: Sequence[str], selector: LabelSelector | None
) -> Iterator[FieldError]:
    """validateLabelKeys: keys need a selector, and each is a label name."""
    if not keys:
        return
    if selector is None:
        yield forbidden(path, NO_SELECTOR)
        return
    for i, key in enumerate(keys):
        yield from label_name_errors(f"{path}[{i}]", key)


def match_mismatch_errors(
    path: str,
    match_keys: Sequence[str],
    mismatch_keys: Sequence[str],
    selector: LabelSelector | None,
) -> Iterator[FieldError]:
    """validateMatchLabelKeysAndMismatchLabelKeys over a selector the keys were merged into:
    the key lists, a matchLabelKeys key met a second time among the selector's keys (the
    error's path is `path[i]`, as upstream's is), a key in both lists."""
    yield from _key_list_errors(f"{path}.matchLabelKeys", match_keys, selector)
    yield from _key_list_errors(f"{path}.mismatchLabelKeys", mismatch_keys, selector)
    if selector is not None:
        position = {key: i for i, key in enumerate(match_keys)}
        seen = set(selector.match_labels)
        for requirement in selector.match_expressions:
            key = requirement.key
            if key in position and key in seen:
                yield invalid(f"{path}[{position[key]}]", key, IN_BOTH_SELECTOR)
            seen.add(key)
    mismatched = set(mismatch_keys)
    for i, key in enumerate(match_keys):
        if key in mismatched:
            yield invalid(f"{path}.matchLabelKeys[{i}]", key, IN_BOTH_KEYS)


def merged_selector(
    selector: LabelSelector | None, keys: Sequence[str], labels: Mapping[str, str]
) -> LabelSelector | None:
    """The selector as the API server stores it once `keys` of the pod's `labels` are merged
    in (an `In` requirement each, for the keys the pod carries); a requirement it already
    holds is not added again."""
    if selector is None or not keys:
        return selector
    wanted = [LabelSelectorRequirement(k, "In", [labels[k]]) for k in keys if k in labels]
    added = [r for r in wanted if r not in selector.match_expressions]
    if not added:
        return selector
    return LabelSelector(dict(selector.match_labels), [*selector.match_expressions, *added])


def legacy_spread_key_errors(
    path: str, keys: Sequence[str], selector: LabelSelector | None
) -> Iterator[FieldError]:
    """validateMatchLabelKeysInTopologySpread: keys need a selector, each is a label name and
    none is a key the selector names."""
    if not keys:
        return
    named: set[str] = set()
    if selector is not None:
        named.update(selector.match_labels)
        named.update(r.key for r in selector.match_expressions)
    else:
        yield forbidden(path, NO_SELECTOR)
    for i, key in enumerate(keys):
        yield from label_name_errors(f"{path}[{i}]", key)
        if key in named:
            yield invalid(f"{path}[{i}]", key, IN_BOTH_SELECTOR)

"""The fake API server's TokenReview and SubjectAccessReview: a token of `users`
authenticates as that user, and `allowed` lists the (user, verb, non-resource path) allowed."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews"
ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews"


def answer_review(
    path: str, body: Any, users: Mapping[str, str], allowed: Set[tuple[str, str, str]]
) -> dict[str, Any] | None:
    """The review answered, or None when `path` is not a review."""
    if path == TOKEN_REVIEWS:
        user = users.get(str((body.get("spec") or {}).get("token") or ""))
        status: dict[str, Any] = {"authenticated": user is not None}
        if user is not None:
            status["user"] = {"username": user, "groups": ["system:authenticated"]}
        return {**body, "status": status}
    if path == ACCESS_REVIEWS:
        spec = body.get("spec") or {}
        attributes = spec.get("nonResourceAttributes") or {}
        wanted = (spec.get("user"), attributes.get("verb"), attributes.get("path"))
        return {**body, "status": {"allowed": wanted in allowed}}
    return None

"""CoschedulingArgs: scheduler-plugins' v1 args for Coscheduling, defaults and validation."""

from __future__ import annotations

from attrs import frozen

DEFAULT_PERMIT_WAITING_TIME_SECONDS = 60
"""How long members wait at Permit for the rest of their group (also used when set to 0)."""
DEFAULT_POD_GROUP_BACKOFF_SECONDS = 0
DEFAULT_POD_GROUP_REJECT_PERCENTAGE = 10


def _field_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


@frozen
class CoschedulingArgs:
    """The plugin's pluginConfig args (`kind: CoschedulingArgs`).

    - `permit_waiting_time_seconds`: how long a member waits at Permit for its
      group to reach its minimum before the whole group is rejected.
    - `pod_group_backoff_seconds`: after PostFilter rejects a group, PreFilter
      turns its members away for this long (0: no backoff).
    - `pod_group_reject_percentage`: PostFilter rejects the group only when the
      share of its minimum still unplaced is above this percentage; at or below
      it, the placed members keep waiting for the rest (0: always reject,
      100: never).
    """

    permit_waiting_time_seconds: int = DEFAULT_PERMIT_WAITING_TIME_SECONDS
    pod_group_backoff_seconds: int = DEFAULT_POD_GROUP_BACKOFF_SECONDS
    pod_group_reject_percentage: int = DEFAULT_POD_GROUP_REJECT_PERCENTAGE

    def validate(self, path: str) -> list[str]:
        """scheduler-plugins' ValidateCoschedulingArgs: one line per problem, empty when valid."""
        errors = []
        if self.permit_waiting_time_seconds < 0:
            errors.append(
                f"{_field_path(path, 'permitWaitingTimeSeconds')}: Invalid value: "
                f"{self.permit_waiting_time_seconds}: must be greater than 0"
            )
        if self.pod_group_backoff_seconds < 0:
            errors.append(
                f"{_field_path(path, 'podGroupBackoffSeconds')}: Invalid value: "
                f"{self.pod_group_backoff_seconds}: must be greater than 0"
            )
        if not 0 <= self.pod_group_reject_percentage <= 100:
            errors.append(
                f"{_field_path(path, 'podGroupRejectPercentage')}: Invalid value: "
                f"{self.pod_group_reject_percentage}: must be between 0 and 100"
            )
        return errors

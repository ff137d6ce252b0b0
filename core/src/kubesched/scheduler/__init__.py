"""The scheduler loop: queue, cache and snapshot, nominator, schedule-one, binding, metrics."""

"""The PrioritySort plugin. QueueSort: higher priority first, then earlier queue time."""

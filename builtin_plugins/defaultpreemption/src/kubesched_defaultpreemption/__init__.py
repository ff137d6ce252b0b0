"""The DefaultPreemption plugin. PostFilter: evicts lower-priority pods to make room."""

"""Where pods and nodes come from and where bindings go: the in-memory cluster."""

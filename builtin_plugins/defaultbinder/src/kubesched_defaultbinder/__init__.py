"""The DefaultBinder plugin. Bind: binds the pod through the cluster client."""

"""The refresh pipeline: snapshot -> plan -> extract -> store -> embed (see `incremental`)."""

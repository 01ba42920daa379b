"""Use cases: what a command does, as library functions the CLI, the demo and the eval
harness share (the CLI adds only arguments, progress bars and printing)."""

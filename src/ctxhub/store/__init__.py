"""Storage: the protocols every backend implements (`protocol`, `memory_protocol`) and
the backends themselves (`sqlite/`). Only this package speaks SQL."""

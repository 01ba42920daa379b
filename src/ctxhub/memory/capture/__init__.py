"""Records from outside log_solution: the Claude Code hook, GitHub issues, session
transcripts. The hook's modules import only the standard library (it runs on every tool
call); this `__init__` imports nothing."""

"""Memory: problem/solution records agents log, import or mine, found again by search.

- `records/`: writing records (`log`: embed three spaces, merge or link variants),
  their symbol `links`, `feedback` (rate), the hook's `pending` queue, `transfer`.
- `search/`: `retrieval` (search_solutions, search_by_approach), the query's `shape`,
  the abstention `evidence`, records as `hits`, `browse` and the digest.
- `capture/`: where records come from besides log_solution: the Claude Code hook
  (`hooks`, stdlib only: it runs on every tool call), GitHub issues, mined transcripts.
- `redaction/`: secrets removed from every text before it is stored.
"""

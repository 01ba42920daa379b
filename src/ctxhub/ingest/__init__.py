"""Ingestion: a source's files -> chunks (with deprecations), embedded, in the store.

- `refresh/`: the pipeline. `incremental.refresh_sources` snapshots each source, `plan`
  turns its files into units, `extract` sends each unit to its chunker, `embedding`
  fills in vectors; `running` tells a live refresh from an interrupted one.
- `docs/`: markdown, MDX, reST and llms-full.txt pages -> heading-split doc chunks.
- `python/`: a Python file's `ast` -> module, class, method and function chunks with
  signature, bases, call graph and deprecations.
- `examples/`: example projects and scripts -> example chunks with a taxonomy.
- `embed_text`: the text each chunk is embedded as (shared by the three chunkers).
"""

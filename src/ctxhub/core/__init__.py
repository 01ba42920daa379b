"""The ground floor: the vocabulary every layer speaks, and nothing else of ctxhub.

- `knowledge`: chunks, hits, search requests and responses, filters, deprecations;
- `records`: memory records, their filters and the results of writing them;
- `outputs`: what the tools return (each becomes an MCP output schema);
- `errors`: the one error hierarchy (`CtxhubError`) and how a message quotes a value;
- `cursor`, `progress`, `identifiers`, `doc_paths`, `budget`: small shared rules.

Modules here import only the standard library and pydantic.
"""

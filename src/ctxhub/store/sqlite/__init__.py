"""The SQLite store: one file holds chunks, vectors, file texts, sources and memory.

`store.SQLiteStore` is the class; the other modules are its parts (schema and
migrations, connection and error translation, FTS5 terms, filters, row mapping, reads,
memory writes and reads, the in-memory vector matrix). Nothing outside `store/`
imports these modules except to construct the store.
"""

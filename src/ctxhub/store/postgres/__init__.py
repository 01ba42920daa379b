"""The PostgreSQL store: one database (with pgvector) holds what the SQLite file holds,
shared by every hub that points `CTXHUB_DB=postgresql://...` at it.

`store.PostgresStore` is the class; the other modules are its parts (connection pool
and error translation, schema and migrations, the text index, filters, vectors, reads,
memory reads and writes, the portable rows `ctxhub migrate` copies). psycopg is imported
only when a `postgresql://` location is opened, never by the CLI at start-up.
"""

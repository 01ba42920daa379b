"""SQLite schema and its migrations.

Each migration is a list of statements applied in one transaction and recorded in
`meta.schema_version`, so opening a store twice (or from two processes) is idempotent.
Typed columns exist for everything a filter uses; list-valued metadata (calls, yields,
tags, bases) live in small side tables with an index on the value.
"""

from __future__ import annotations

import contextlib
import sqlite3

from ctxhub.core.errors import StoreError

#: FTS5 tokenizer: Porter stems, and `_` stays inside a token so `run_function_calls`
#: is one word (its parts are indexed separately in the `idents` column).
FTS_TOKENIZER = "\"porter unicode61 tokenchars '_'\""

#: Migration 5's rows: each written call of an API chunk that has no `calls_via`.
_OLD_CALLS = """chunks c, json_each(
            CASE WHEN json_valid(c.meta) THEN c.meta ELSE '{}' END, '$.extra.calls_qualified'
        ) q
        WHERE c.kind = 'api' AND json_extract(q.json, '$.extra.calls_via') IS NULL"""
_SUPER_NAME = "substr(q.value, instr(q.value, ').') + 2)"

MIGRATIONS: list[list[str]] = [
    # 1: the knowledge store
    [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE IF NOT EXISTS sources (
            name TEXT PRIMARY KEY,
            kinds TEXT NOT NULL DEFAULT '',
            origin TEXT NOT NULL DEFAULT '',
            root TEXT,
            version TEXT,
            commit_sha TEXT,
            status TEXT NOT NULL DEFAULT 'new',
            error TEXT,
            last_refresh REAL,
            stats TEXT NOT NULL DEFAULT '{}'
        )""",
        """CREATE TABLE IF NOT EXISTS files (
            source TEXT NOT NULL,
            path TEXT NOT NULL,
            hash TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'ok',
            reason TEXT,
            PRIMARY KEY (source, path)
        )""",
        """CREATE TABLE IF NOT EXISTS chunks (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            source TEXT NOT NULL,
            file TEXT NOT NULL,
            kind TEXT NOT NULL,
            path TEXT NOT NULL,
            symbol TEXT,
            title TEXT NOT NULL DEFAULT '',
            section TEXT,
            line_start INTEGER,
            line_end INTEGER,
            url TEXT,
            version TEXT,
            content TEXT NOT NULL,
            embed_text TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            embed_hash TEXT NOT NULL,
            row_hash TEXT NOT NULL,
            chunk_type TEXT,
            module TEXT,
            class_name TEXT,
            language TEXT,
            execution_mode TEXT,
            is_dataclass INTEGER,
            deprecated INTEGER NOT NULL DEFAULT 0,
            names TEXT NOT NULL DEFAULT '',
            idents TEXT NOT NULL DEFAULT '',
            meta TEXT NOT NULL DEFAULT '{}'
        )""",
        "CREATE INDEX IF NOT EXISTS chunks_source_file ON chunks(source, file)",
        "CREATE INDEX IF NOT EXISTS chunks_kind ON chunks(kind)",
        "CREATE INDEX IF NOT EXISTS chunks_path ON chunks(source, path)",
        "CREATE INDEX IF NOT EXISTS chunks_symbol ON chunks(symbol)",
        "CREATE INDEX IF NOT EXISTS chunks_module ON chunks(module)",
        "CREATE INDEX IF NOT EXISTS chunks_class ON chunks(class_name)",
        "CREATE INDEX IF NOT EXISTS chunks_type ON chunks(chunk_type)",
        "CREATE INDEX IF NOT EXISTS chunks_embed_hash ON chunks(embed_hash)",
        # list-valued metadata, one row per value
        """CREATE TABLE IF NOT EXISTS chunk_terms (
            chunk INTEGER NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
            field TEXT NOT NULL,
            value TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS chunk_terms_value ON chunk_terms(field, value)",
        "CREATE INDEX IF NOT EXISTS chunk_terms_chunk ON chunk_terms(chunk)",
        # every dotted suffix of a symbol, lowercased: exact lookup of `Class.method`
        """CREATE TABLE IF NOT EXISTS symbol_names (
            name TEXT NOT NULL,
            chunk INTEGER NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
            depth INTEGER NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS symbol_names_name ON symbol_names(name)",
        "CREATE INDEX IF NOT EXISTS symbol_names_chunk ON symbol_names(chunk)",
        # external-content FTS5 over chunks: content, names (title/symbol/path), idents
        f"""CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
            content, names, idents,
            content='chunks', content_rowid='rowid',
            tokenize={FTS_TOKENIZER}
        )""",
        # embedding cache: one vector per (model, sha256 of embedded text)
        """CREATE TABLE IF NOT EXISTS embeddings (
            model TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            vec BLOB NOT NULL,
            PRIMARY KEY (model, text_hash)
        ) WITHOUT ROWID""",
        """CREATE TABLE IF NOT EXISTS deprecations (
            source TEXT NOT NULL,
            file TEXT NOT NULL,
            symbol TEXT NOT NULL,
            replacement TEXT,
            since TEXT,
            note TEXT,
            path TEXT,
            line INTEGER,
            origin TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS deprecations_symbol ON deprecations(symbol)",
        "CREATE INDEX IF NOT EXISTS deprecations_file ON deprecations(source, file)",
        # the text of indexed code files, so snippets by line range never touch the disk
        """CREATE TABLE IF NOT EXISTS file_texts (
            source TEXT NOT NULL,
            unit TEXT NOT NULL,
            path TEXT NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (source, path)
        )""",
        "CREATE INDEX IF NOT EXISTS file_texts_unit ON file_texts(source, unit)",
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0')",
    ],
    # 2: per-term document counts, so retrieval can drop words that match everything
    ["CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, row)"],
    # 3: memory -- problem/solution records, their vectors, symbol links and feedback
    [
        """CREATE TABLE IF NOT EXISTS records (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            problem TEXT NOT NULL,
            solution TEXT NOT NULL DEFAULT '',
            error_type TEXT,
            stack_trace TEXT,
            code_snippet TEXT,
            code_diff TEXT,
            language TEXT,
            framework TEXT,
            libraries TEXT NOT NULL DEFAULT '[]',
            tags TEXT NOT NULL DEFAULT '[]',
            file_path TEXT,
            agent TEXT,
            os TEXT,
            confidence REAL NOT NULL,
            resolved INTEGER NOT NULL DEFAULT 1,
            source TEXT NOT NULL,
            session_id TEXT,
            url TEXT,
            variant_of TEXT,
            created_at REAL NOT NULL,
            last_seen REAL NOT NULL,
            occurrences INTEGER NOT NULL DEFAULT 1,
            worked INTEGER NOT NULL DEFAULT 0,
            not_worked INTEGER NOT NULL DEFAULT 0,
            text_hash TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS records_language ON records(language)",
        "CREATE INDEX IF NOT EXISTS records_framework ON records(framework)",
        "CREATE INDEX IF NOT EXISTS records_error_type ON records(error_type COLLATE NOCASE)",
        "CREATE INDEX IF NOT EXISTS records_source ON records(source)",
        "CREATE INDEX IF NOT EXISTS records_last_seen ON records(last_seen)",
        """CREATE TABLE IF NOT EXISTS record_tags (
            record INTEGER NOT NULL,
            tag TEXT NOT NULL,
            PRIMARY KEY (record, tag)
        ) WITHOUT ROWID""",
        "CREATE INDEX IF NOT EXISTS record_tags_tag ON record_tags(tag)",
        # its own FTS table (not external content): `code` joins three columns
        f"""CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(
            problem, error_type, stack_trace, solution, code,
            tokenize={FTS_TOKENIZER}
        )""",
        # one vector per (record, space): problem, solution, code (only when there is code)
        """CREATE TABLE IF NOT EXISTS record_vectors (
            record INTEGER NOT NULL,
            space TEXT NOT NULL,
            model TEXT NOT NULL,
            vec BLOB NOT NULL,
            PRIMARY KEY (record, space, model)
        ) WITHOUT ROWID""",
        # knowledge symbols a record names, with the content hash they had when linked
        """CREATE TABLE IF NOT EXISTS record_links (
            record INTEGER NOT NULL,
            symbol TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            PRIMARY KEY (record, symbol)
        ) WITHOUT ROWID""",
        # append-only ratings of records (worked) and knowledge hits (useful)
        """CREATE TABLE IF NOT EXISTS feedback_events (
            id INTEGER PRIMARY KEY,
            target TEXT NOT NULL,
            target_kind TEXT NOT NULL,
            worked INTEGER NOT NULL,
            note TEXT,
            agent TEXT,
            session_id TEXT,
            query TEXT,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS feedback_events_target ON feedback_events(target)",
        """CREATE TABLE IF NOT EXISTS knowledge_feedback (
            chunk_id TEXT PRIMARY KEY,
            useful INTEGER NOT NULL DEFAULT 0,
            not_useful INTEGER NOT NULL DEFAULT 0
        )""",
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('memory_generation', '0')",
    ],
    # 4: ids of imported records that merged into an existing record on first import
    [
        """CREATE TABLE IF NOT EXISTS record_aliases (
            alias TEXT PRIMARY KEY,
            record_id TEXT NOT NULL
        ) WITHOUT ROWID""",
        "CREATE INDEX IF NOT EXISTS record_aliases_record ON record_aliases(record_id)",
    ],
    # 5: call terms by receiver (core/calls.py) for chunks indexed before calls recorded
    # theirs, read from the calls as written, as `call_sites` does: `calls_via` filters
    # and super() callers then need no re-index. `super().x` was not a `calls` term.
    [
        f"""INSERT INTO chunk_terms(chunk, field, value)
        SELECT DISTINCT c.rowid, 'calls_self', substr(q.value, instr(q.value, '.') + 1)
        FROM {_OLD_CALLS}
        AND (q.value GLOB 'self.*' OR q.value GLOB 'cls.*')
        AND instr(substr(q.value, instr(q.value, '.') + 1), '.') = 0""",
        f"""INSERT INTO chunk_terms(chunk, field, value)
        SELECT DISTINCT c.rowid, 'calls_super', {_SUPER_NAME}
        FROM {_OLD_CALLS} AND q.value GLOB 'super(*).*'""",
        f"""INSERT INTO chunk_terms(chunk, field, value)
        SELECT DISTINCT c.rowid, 'calls', {_SUPER_NAME}
        FROM {_OLD_CALLS} AND q.value GLOB 'super(*).*'
        AND NOT EXISTS (SELECT 1 FROM chunk_terms t
            WHERE t.chunk = c.rowid AND t.field = 'calls' AND t.value = {_SUPER_NAME})""",
    ],
    # 6: window texts of long chunks: their vectors live in `embeddings` by text hash, like
    # the chunks' own (one cache, one model check), and the dense path scores a chunk by
    # its best window too. A store from before fills them when python units re-chunk.
    [
        """CREATE TABLE IF NOT EXISTS chunk_windows (
            chunk INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            embed_hash TEXT NOT NULL,
            embed_text TEXT NOT NULL,
            PRIMARY KEY (chunk, seq)
        )""",
        "CREATE INDEX IF NOT EXISTS chunk_windows_hash ON chunk_windows(embed_hash)",
    ],
    # 7: named bearer tokens for `serve --http` (sha256 digests of their secrets), and
    # who logged a record or made a rating (the token's name)
    [
        """CREATE TABLE IF NOT EXISTS tokens (
            name TEXT PRIMARY KEY,
            digest TEXT NOT NULL UNIQUE,
            read_only INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            revoked_at REAL
        )""",
        "ALTER TABLE records ADD COLUMN logged_by TEXT",
        "ALTER TABLE feedback_events ADD COLUMN author TEXT",
    ],
    # 8: the embedding cache's keys alone: "which texts have a vector" (coverage, what is
    # left to embed) reads this instead of the table, whose rows hold the vectors
    # (~10x faster at 13k chunks); the queries name it (INDEXED BY): the planner prefers
    # the primary key
    ["CREATE INDEX IF NOT EXISTS embeddings_keys ON embeddings(model, text_hash)"],
    # 9: lookup-only chunks (core/knowledge.LOOKUP_ONLY): rows with no `chunks_fts` entry
    # and no vector. A column, not the flag in `meta`'s JSON: the vector matrix, the
    # embedding queue and the BM25 row count exclude them on every read, which a
    # json_extract per row would slow; existing rows are all ranked (0)
    ["ALTER TABLE chunks ADD COLUMN lookup_only INTEGER NOT NULL DEFAULT 0"],
    # 10: a module's imports as `imports` terms (Store.importers: a re-export's hops
    # through private modules), read from the chunks already stored: an unchanged chunk
    # is never rewritten, so no re-index would add them
    [
        """INSERT INTO chunk_terms(chunk, field, value)
        SELECT DISTINCT c.rowid, 'imports', i.value FROM chunks c, json_each(
            CASE WHEN json_valid(c.meta) THEN c.meta ELSE '{}' END, '$.imports'
        ) i
        WHERE c.chunk_type = 'module' AND i.type = 'text'""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: sqlite3.Connection) -> int:
    has_meta = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
    ).fetchone()
    if not has_meta:
        return 0
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Apply pending migrations; returns the resulting version. Safe to call concurrently:
    the version is re-read inside an IMMEDIATE transaction."""
    found = current_version(conn)
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"store schema {found} is newer than this ctxhub ({SCHEMA_VERSION}); upgrade ctxhub"
        )
    if found == SCHEMA_VERSION:
        return found
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = current_version(conn)
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                _apply(conn, statement)
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('schema_version', ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (str(SCHEMA_VERSION),),
        )
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    return SCHEMA_VERSION


def _apply(conn: sqlite3.Connection, statement: str) -> None:
    """Run one migration statement. SQLite has no ADD COLUMN IF NOT EXISTS: a column
    already there (a schema version set back by hand) is what the statement wanted."""
    try:
        conn.execute(statement)
    except sqlite3.Error as exc:
        if not (statement.startswith("ALTER TABLE") and "duplicate column name" in str(exc)):
            raise


def rollback(conn: sqlite3.Connection) -> None:
    """ROLLBACK if a transaction is still open; never raises over the error being handled
    (SQLite rolls back by itself after a full disk, and a damaged file may refuse it)."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error, StoreError):
            conn.execute("ROLLBACK")

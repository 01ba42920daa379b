"""PostgreSQL schema and its migrations.

The tables mirror SQLite's (same names and columns, so filters and row mapping are
shared), with three differences: a `tsvector` column replaces each FTS5 table, vectors
are pgvector `vector` columns, and HNSW indexes are made per embedding model (see
vectors.py). Each migration is a list of statements applied in one transaction under an
advisory lock and recorded in `meta.schema_version`: opening a store from many
processes at once is idempotent.
"""

from __future__ import annotations

from typing import Any

from ctxhub.core.errors import StoreError

#: The text search configuration: Snowball English stems, no stop words (FTS5 drops none)
FTS_CONFIG = "ctxhub_fts"

#: Advisory lock keys (one namespace: the first int of the two-int form).
LOCK_NAMESPACE = 0x6374  # "ct"
MIGRATE_LOCK = 1
MEMORY_LOCK = 2

_TEXT_SEARCH = f"""DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'ctxhub_stem'
                   AND dictnamespace = current_schema()::regnamespace) THEN
        CREATE TEXT SEARCH DICTIONARY ctxhub_stem (TEMPLATE = snowball, LANGUAGE = english);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = '{FTS_CONFIG}'
                   AND cfgnamespace = current_schema()::regnamespace) THEN
        CREATE TEXT SEARCH CONFIGURATION {FTS_CONFIG} (COPY = pg_catalog.simple);
        ALTER TEXT SEARCH CONFIGURATION {FTS_CONFIG}
            ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword,
                hword_part, hword_asciipart, hword_numpart WITH ctxhub_stem;
    END IF;
END $$"""

#: A tsvector position's weight -> the BM25 column weight its term frequency counts with
#: (SQLite's BM25_WEIGHTS: names A 4.0, identifier parts B 1.5, content D 1.0; C unused)
POSTING_WEIGHTS = {"A": 4.0, "B": 1.5, "D": 1.0}
_TF_CASE = " ".join(f"WHEN '{k}' THEN {v!r}" for k, v in POSTING_WEIGHTS.items())

#: A record's text fields, each its own tsvector column; a posting's `field` is the index
#: here (the order of RECORD_BM25_WEIGHTS, `memory_reads.FTS_COLUMNS`)
RECORD_TEXT_FIELDS = ("problem", "error_type", "stack_trace", "solution", "code")
_RECORD_FIELDS = ", ".join(
    f"({i}::smallint, {arg})" for i, arg in enumerate(("p", "e", "s", "o", "c"))
)
_RECORD_TSV = ", ".join(f"{{row}}.tsv_{f}" for f in RECORD_TEXT_FIELDS)

MIGRATIONS: list[list[str]] = [
    # 1: knowledge and memory, as SQLite's migrations 1-5 left them
    [
        _TEXT_SEARCH,
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE IF NOT EXISTS sources (
            name TEXT PRIMARY KEY, kinds TEXT NOT NULL DEFAULT '',
            origin TEXT NOT NULL DEFAULT '', root TEXT, version TEXT, commit_sha TEXT,
            status TEXT NOT NULL DEFAULT 'new', error TEXT, last_refresh DOUBLE PRECISION,
            stats TEXT NOT NULL DEFAULT '{}')""",
        """CREATE TABLE IF NOT EXISTS files (
            source TEXT NOT NULL, path TEXT NOT NULL, hash TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'ok', reason TEXT,
            PRIMARY KEY (source, path))""",
        """CREATE TABLE IF NOT EXISTS chunks (
            rowid BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE, source TEXT NOT NULL, file TEXT NOT NULL,
            kind TEXT NOT NULL, path TEXT NOT NULL, symbol TEXT,
            title TEXT NOT NULL DEFAULT '', section TEXT, line_start INTEGER,
            line_end INTEGER, url TEXT, version TEXT, content TEXT NOT NULL,
            embed_text TEXT NOT NULL, content_hash TEXT NOT NULL, embed_hash TEXT NOT NULL,
            row_hash TEXT NOT NULL, chunk_type TEXT, module TEXT, class_name TEXT,
            language TEXT, execution_mode TEXT, is_dataclass INTEGER,
            deprecated INTEGER NOT NULL DEFAULT 0, names TEXT NOT NULL DEFAULT '',
            idents TEXT NOT NULL DEFAULT '', meta TEXT NOT NULL DEFAULT '{}',
            tsv TSVECTOR NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS chunks_source_file ON chunks(source, file)",
        "CREATE INDEX IF NOT EXISTS chunks_kind ON chunks(kind)",
        "CREATE INDEX IF NOT EXISTS chunks_path ON chunks(source, path)",
        "CREATE INDEX IF NOT EXISTS chunks_symbol ON chunks(symbol)",
        "CREATE INDEX IF NOT EXISTS chunks_module ON chunks(module)",
        "CREATE INDEX IF NOT EXISTS chunks_class ON chunks(class_name)",
        "CREATE INDEX IF NOT EXISTS chunks_type ON chunks(chunk_type)",
        "CREATE INDEX IF NOT EXISTS chunks_embed_hash ON chunks(embed_hash)",
        "CREATE INDEX IF NOT EXISTS chunks_tsv ON chunks USING gin(tsv)",
        """CREATE TABLE IF NOT EXISTS chunk_terms (
            chunk BIGINT NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
            field TEXT NOT NULL, value TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS chunk_terms_value ON chunk_terms(field, value)",
        "CREATE INDEX IF NOT EXISTS chunk_terms_chunk ON chunk_terms(chunk)",
        """CREATE TABLE IF NOT EXISTS symbol_names (
            name TEXT NOT NULL,
            chunk BIGINT NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
            depth INTEGER NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS symbol_names_name ON symbol_names(name)",
        "CREATE INDEX IF NOT EXISTS symbol_names_chunk ON symbol_names(chunk)",
        # one vector per (model, embedded text); no fixed dimension: a store switching
        # models holds both until the old one is dropped (HNSW indexes cast per model)
        """CREATE TABLE IF NOT EXISTS embeddings (
            model TEXT NOT NULL, text_hash TEXT NOT NULL, vec VECTOR NOT NULL,
            PRIMARY KEY (model, text_hash))""",
        """CREATE TABLE IF NOT EXISTS deprecations (
            source TEXT NOT NULL, file TEXT NOT NULL, symbol TEXT NOT NULL,
            replacement TEXT, since TEXT, note TEXT, path TEXT, line INTEGER,
            origin TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS deprecations_symbol ON deprecations(lower(symbol))",
        "CREATE INDEX IF NOT EXISTS deprecations_file ON deprecations(source, file)",
        """CREATE TABLE IF NOT EXISTS file_texts (
            source TEXT NOT NULL, unit TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL,
            PRIMARY KEY (source, path))""",
        "CREATE INDEX IF NOT EXISTS file_texts_unit ON file_texts(source, unit)",
        "INSERT INTO meta(key, value) VALUES ('generation', '0') ON CONFLICT DO NOTHING",
        # memory
        """CREATE TABLE IF NOT EXISTS records (
            rowid BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE, problem TEXT NOT NULL,
            solution TEXT NOT NULL DEFAULT '', error_type TEXT, stack_trace TEXT,
            code_snippet TEXT, code_diff TEXT, language TEXT, framework TEXT,
            libraries TEXT NOT NULL DEFAULT '[]', tags TEXT NOT NULL DEFAULT '[]',
            file_path TEXT, agent TEXT, os TEXT, confidence DOUBLE PRECISION NOT NULL,
            resolved INTEGER NOT NULL DEFAULT 1, source TEXT NOT NULL, session_id TEXT,
            url TEXT, variant_of TEXT, created_at DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION NOT NULL, occurrences INTEGER NOT NULL DEFAULT 1,
            worked INTEGER NOT NULL DEFAULT 0, not_worked INTEGER NOT NULL DEFAULT 0,
            text_hash TEXT NOT NULL,
            tsv_problem TSVECTOR NOT NULL, tsv_error_type TSVECTOR NOT NULL,
            tsv_stack_trace TSVECTOR NOT NULL, tsv_solution TSVECTOR NOT NULL,
            tsv_code TSVECTOR NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS records_language ON records(language)",
        "CREATE INDEX IF NOT EXISTS records_framework ON records(framework)",
        "CREATE INDEX IF NOT EXISTS records_error_type ON records(lower(error_type))",
        "CREATE INDEX IF NOT EXISTS records_source ON records(source)",
        "CREATE INDEX IF NOT EXISTS records_last_seen ON records(last_seen)",
        *(
            f"CREATE INDEX IF NOT EXISTS records_tsv_{f} ON records USING gin(tsv_{f})"
            for f in ("problem", "error_type", "stack_trace", "solution", "code")
        ),
        """CREATE TABLE IF NOT EXISTS record_tags (
            record BIGINT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (record, tag))""",
        "CREATE INDEX IF NOT EXISTS record_tags_tag ON record_tags(tag)",
        """CREATE TABLE IF NOT EXISTS record_vectors (
            record BIGINT NOT NULL, space TEXT NOT NULL, model TEXT NOT NULL,
            vec VECTOR NOT NULL, PRIMARY KEY (record, space, model))""",
        """CREATE TABLE IF NOT EXISTS record_links (
            record BIGINT NOT NULL, symbol TEXT NOT NULL, content_hash TEXT NOT NULL,
            PRIMARY KEY (record, symbol))""",
        """CREATE TABLE IF NOT EXISTS feedback_events (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, target TEXT NOT NULL,
            target_kind TEXT NOT NULL, worked INTEGER NOT NULL, note TEXT, agent TEXT,
            session_id TEXT, query TEXT, created_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS feedback_events_target ON feedback_events(target)",
        """CREATE TABLE IF NOT EXISTS knowledge_feedback (
            chunk_id TEXT PRIMARY KEY, useful INTEGER NOT NULL DEFAULT 0,
            not_useful INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE IF NOT EXISTS record_aliases (
            alias TEXT PRIMARY KEY, record_id TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS record_aliases_record ON record_aliases(record_id)",
        "INSERT INTO meta(key, value) VALUES ('memory_generation', '0') ON CONFLICT DO NOTHING",
    ],
    # 2: each row's token count (BM25's length normalisation, as FTS5 keeps it), a stored
    # column generated from the tsvectors, so existing rows get theirs as it is added
    [
        """CREATE OR REPLACE FUNCTION ctxhub_tokens(t tsvector) RETURNS integer
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(SUM(pg_catalog.array_length(u.positions, 1)), 0)::integer
            FROM pg_catalog.unnest(t) AS u $$""",
        "ALTER TABLE chunks ADD COLUMN IF NOT EXISTS dl INTEGER "
        "GENERATED ALWAYS AS (ctxhub_tokens(tsv)) STORED",
        "ALTER TABLE records ADD COLUMN IF NOT EXISTS dl INTEGER GENERATED ALWAYS AS ("
        "ctxhub_tokens(tsv_problem) + ctxhub_tokens(tsv_error_type) + "
        "ctxhub_tokens(tsv_stack_trace) + ctxhub_tokens(tsv_solution) + "
        "ctxhub_tokens(tsv_code)) STORED",
    ],
    # 3: window texts of long chunks (SQLite's migration 6): vectors in `embeddings` by hash
    [
        """CREATE TABLE IF NOT EXISTS chunk_windows (
            chunk BIGINT NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
            seq INTEGER NOT NULL, embed_hash TEXT NOT NULL, embed_text TEXT NOT NULL,
            PRIMARY KEY (chunk, seq))""",
        "CREATE INDEX IF NOT EXISTS chunk_windows_hash ON chunk_windows(embed_hash)",
    ],
    # 4: named bearer tokens for `serve --http` (sha256 digests of their secrets), and
    # who logged a record or made a rating (the token's name)
    [
        """CREATE TABLE IF NOT EXISTS tokens (
            name TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE,
            read_only INTEGER NOT NULL DEFAULT 0, created_at DOUBLE PRECISION NOT NULL,
            revoked_at DOUBLE PRECISION)""",
        "ALTER TABLE records ADD COLUMN IF NOT EXISTS logged_by TEXT",
        "ALTER TABLE feedback_events ADD COLUMN IF NOT EXISTS author TEXT",
    ],
    # 5: BM25 postings (see fts.py): one row per (lexeme, chunk) with its column-weighted
    # term frequency and the chunk's length, kept by triggers in the writer's transaction
    # and backfilled here, so a search reads the postings of its few lexemes (as FTS5
    # does) instead of every matching row's tsvector
    [
        f"""CREATE OR REPLACE FUNCTION ctxhub_postings(t tsvector)
            RETURNS TABLE (lexeme text, tf double precision)
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT u.lexeme, COALESCE(SUM(CASE w.w {_TF_CASE} ELSE 0 END), 0)::float8
            FROM pg_catalog.unnest(t) AS u
            LEFT JOIN LATERAL pg_catalog.unnest(u.weights) AS w(w) ON TRUE
            GROUP BY u.lexeme $$""",
        """CREATE TABLE IF NOT EXISTS chunk_postings (
            lexeme TEXT NOT NULL, chunk BIGINT NOT NULL, tf DOUBLE PRECISION NOT NULL,
            dl INTEGER NOT NULL, PRIMARY KEY (lexeme, chunk) INCLUDE (tf, dl))""",
        "CREATE INDEX IF NOT EXISTS chunk_postings_chunk ON chunk_postings(chunk)",
        """CREATE OR REPLACE FUNCTION ctxhub_postings_added() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            INSERT INTO chunk_postings(lexeme, chunk, tf, dl)
            SELECT p.lexeme, a.rowid, p.tf, a.dl FROM added a,
                LATERAL ctxhub_postings(a.tsv) AS p;
            RETURN NULL; END $$""",
        """CREATE OR REPLACE FUNCTION ctxhub_postings_gone() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            DELETE FROM chunk_postings p USING gone g WHERE p.chunk = g.rowid;
            RETURN NULL; END $$""",
        """CREATE OR REPLACE FUNCTION ctxhub_postings_changed() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            DELETE FROM chunk_postings WHERE chunk = OLD.rowid;
            INSERT INTO chunk_postings(lexeme, chunk, tf, dl)
            SELECT p.lexeme, NEW.rowid, p.tf, NEW.dl FROM ctxhub_postings(NEW.tsv) AS p;
            RETURN NULL; END $$""",
        "DROP TRIGGER IF EXISTS chunk_postings_insert ON chunks",
        "DROP TRIGGER IF EXISTS chunk_postings_delete ON chunks",
        "DROP TRIGGER IF EXISTS chunk_postings_update ON chunks",
        "CREATE TRIGGER chunk_postings_insert AFTER INSERT ON chunks REFERENCING NEW TABLE "
        "AS added FOR EACH STATEMENT EXECUTE FUNCTION ctxhub_postings_added()",
        "CREATE TRIGGER chunk_postings_delete AFTER DELETE ON chunks REFERENCING OLD TABLE "
        "AS gone FOR EACH STATEMENT EXECUTE FUNCTION ctxhub_postings_gone()",
        "CREATE TRIGGER chunk_postings_update AFTER UPDATE OF tsv ON chunks FOR EACH ROW "
        "EXECUTE FUNCTION ctxhub_postings_changed()",
        # the backfill: existing stores (a fresh one has no chunks yet)
        "DELETE FROM chunk_postings",
        "INSERT INTO chunk_postings(lexeme, chunk, tf, dl) SELECT p.lexeme, c.rowid, p.tf, "
        "c.dl FROM chunks c, LATERAL ctxhub_postings(c.tsv) AS p",
    ],
    # 6: BM25 postings of memory records (record_fts.py): one row per (lexeme, text
    # field, record) with the lexeme's frequency in that field and the record's length,
    # kept by triggers and backfilled here; the field's BM25 weight is applied at query
    # time, since a search may restrict the fields
    [
        f"""CREATE OR REPLACE FUNCTION ctxhub_record_postings(
                p tsvector, e tsvector, s tsvector, o tsvector, c tsvector)
            RETURNS TABLE (lexeme text, field smallint, tf integer)
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT u.lexeme, f.field, COALESCE(array_length(u.positions, 1), 0)
            FROM (VALUES {_RECORD_FIELDS}) AS f(field, t),
                LATERAL pg_catalog.unnest(f.t) AS u $$""",
        """CREATE TABLE IF NOT EXISTS record_postings (
            lexeme TEXT NOT NULL, field SMALLINT NOT NULL, record BIGINT NOT NULL,
            tf INTEGER NOT NULL, dl INTEGER NOT NULL,
            PRIMARY KEY (lexeme, field, record) INCLUDE (tf, dl))""",
        "CREATE INDEX IF NOT EXISTS record_postings_record ON record_postings(record)",
        f"""CREATE OR REPLACE FUNCTION ctxhub_record_postings_added() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            INSERT INTO record_postings(lexeme, field, record, tf, dl)
            SELECT p.lexeme, p.field, a.rowid, p.tf, a.dl FROM added a,
                LATERAL ctxhub_record_postings({_RECORD_TSV.format(row="a")}) AS p;
            RETURN NULL; END $$""",
        """CREATE OR REPLACE FUNCTION ctxhub_record_postings_gone() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            DELETE FROM record_postings p USING gone g WHERE p.record = g.rowid;
            RETURN NULL; END $$""",
        f"""CREATE OR REPLACE FUNCTION ctxhub_record_postings_changed() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN
            DELETE FROM record_postings WHERE record = OLD.rowid;
            INSERT INTO record_postings(lexeme, field, record, tf, dl)
            SELECT p.lexeme, p.field, NEW.rowid, p.tf, NEW.dl
            FROM ctxhub_record_postings({_RECORD_TSV.format(row="NEW")}) AS p;
            RETURN NULL; END $$""",
        "DROP TRIGGER IF EXISTS record_postings_insert ON records",
        "DROP TRIGGER IF EXISTS record_postings_delete ON records",
        "DROP TRIGGER IF EXISTS record_postings_update ON records",
        "CREATE TRIGGER record_postings_insert AFTER INSERT ON records REFERENCING NEW TABLE "
        "AS added FOR EACH STATEMENT EXECUTE FUNCTION ctxhub_record_postings_added()",
        "CREATE TRIGGER record_postings_delete AFTER DELETE ON records REFERENCING OLD TABLE "
        "AS gone FOR EACH STATEMENT EXECUTE FUNCTION ctxhub_record_postings_gone()",
        "CREATE TRIGGER record_postings_update AFTER UPDATE OF tsv_problem, tsv_error_type, "
        "tsv_stack_trace, tsv_solution, tsv_code ON records FOR EACH ROW "
        "EXECUTE FUNCTION ctxhub_record_postings_changed()",
        "DELETE FROM record_postings",
        "INSERT INTO record_postings(lexeme, field, record, tf, dl) SELECT p.lexeme, p.field, "
        f"r.rowid, p.tf, r.dl FROM records r, LATERAL ctxhub_record_postings("
        f"{_RECORD_TSV.format(row='r')}) AS p",
    ],
    # 7: lookup-only chunks (SQLite's migration 9): an empty tsvector (no postings, no
    # length in BM25's average) and no vector; the column lets the BM25 statistics and
    # the nearest-chunk queries leave them out
    ["ALTER TABLE chunks ADD COLUMN IF NOT EXISTS lookup_only INTEGER NOT NULL DEFAULT 0"],
    # 8: a module's imports as `imports` terms (SQLite's migration 10), read from the
    # chunks already stored
    [
        "INSERT INTO chunk_terms(chunk, field, value) SELECT DISTINCT c.rowid, 'imports', "
        "i.value FROM chunks c, jsonb_array_elements_text("
        "COALESCE(c.meta::jsonb -> 'imports', '[]'::jsonb)) AS i(value) "
        "WHERE c.chunk_type = 'module'",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: Any) -> int:
    row = conn.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    found = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(found[0]) if found else 0


def ensure_vector_extension(conn: Any) -> None:
    """CREATE EXTENSION vector unless it is there (raises psycopg's error when it fails)."""
    have = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if not have:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, MIGRATE_LOCK))
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


def migrate(conn: Any) -> int:
    """Apply pending migrations; the version is re-read under the advisory lock, so two
    processes opening a new database at once apply each migration once."""
    found = current_version(conn)
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"store schema {found} is newer than this ctxhub ({SCHEMA_VERSION}); upgrade ctxhub"
        )
    if found == SCHEMA_VERSION:
        return found
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, MIGRATE_LOCK))
        version = current_version(conn)
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('schema_version', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(SCHEMA_VERSION),),
        )
    return SCHEMA_VERSION

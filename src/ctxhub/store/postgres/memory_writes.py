"""Memory writes in the PostgreSQL store: records, their vector spaces and symbol links,
and feedback. A mixin of PostgresStore (reads are in `memory_reads.py`).

`memory_transaction` takes the memory advisory lock first, so a read-decide-write
sequence (log-or-merge) is atomic across every process and machine; reads inside it see
every write committed before (READ COMMITTED reads afresh per statement). Counters only
change by SQL arithmetic (`worked = worked + 1`, `GREATEST(worked, %s)`), never by
writing back a value read earlier: concurrent ratings and merges are never lost.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from ctxhub.core.records import HISTORY, Counters, Record
from ctxhub.embed.base import Vectors
from ctxhub.store.postgres.fts import fts_text, tsvector_sql
from ctxhub.store.postgres.memory_reads import FTS_COLUMNS, PgMemoryReads
from ctxhub.store.postgres.schema import LOCK_NAMESPACE, MEMORY_LOCK
from ctxhub.store.postgres.vectors import vector_text
from ctxhub.store.sqlite.memory_rows import RECORD_FIELDS

_TSV_SETS = ", ".join(f"tsv_{f} = {tsvector_sql('D')}" for f in FTS_COLUMNS)


class _Unknown(Exception):
    """Rolls a feedback transaction back when its target does not exist."""


def _texts(record: Record) -> list[str]:
    code = "\n".join(p for p in (record.code_snippet, record.code_diff) if p)
    fields = (record.problem, record.error_type, record.stack_trace, record.solution, code)
    return [fts_text(t or "") for t in fields]


class PgMemoryQueries(PgMemoryReads):
    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        raise NotImplementedError  # provided by PostgresStore

    @contextmanager
    def memory_transaction(self) -> Iterator[Any]:
        with self.transaction("memory_generation") as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, MEMORY_LOCK))
            yield conn

    def put_record(
        self,
        record: Record,
        text_hash: str,
        vectors: Mapping[str, Vectors] | None,
        model: str,
        links: Sequence[tuple[str, str]] | None = None,
        counters: Counters = "keep",
    ) -> None:
        """Insert a record, or rewrite an existing one by id (see SQLite's put_record:
        the same rules for texts, tags, history, vectors and links)."""
        values: dict[str, object] = {k: getattr(record, k) for k in RECORD_FIELDS}
        values["resolved"] = int(record.resolved)
        values["libraries"] = json.dumps(record.libraries)
        values["tags"] = json.dumps(record.tags)
        values["text_hash"] = text_hash
        with self.memory_transaction() as conn:
            old = conn.execute(
                "SELECT rowid, tags FROM records WHERE id = %s FOR UPDATE", (record.id,)
            ).fetchone()
            if old is None:
                columns = list(values)
                rowid = conn.execute(
                    f"INSERT INTO records({', '.join(columns)}, "
                    f"{', '.join('tsv_' + f for f in FTS_COLUMNS)}) "
                    f"VALUES ({', '.join('%s' for _ in columns)}, "
                    f"{', '.join(tsvector_sql('D') for _ in FTS_COLUMNS)}) RETURNING rowid",
                    [*(values[c] for c in columns), *_texts(record)],
                ).fetchone()[0]
                tags = record.tags
            else:
                rowid = int(old[0])
                tags = list(dict.fromkeys([*json.loads(old[1]), *record.tags]))
                values["tags"] = json.dumps(tags)
                self._rewrite(conn, rowid, values, counters, _texts(record))
                conn.execute("DELETE FROM record_tags WHERE record = %s", (rowid,))
            if tags:
                conn.cursor().executemany(
                    "INSERT INTO record_tags(record, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    [(rowid, t) for t in tags],
                )
            if vectors is not None:
                conn.execute("DELETE FROM record_vectors WHERE record = %s", (rowid,))
                if vectors:
                    conn.cursor().executemany(
                        "INSERT INTO record_vectors(record, space, model, vec) "
                        "VALUES (%s, %s, %s, %s::vector)",
                        [(rowid, space, model, vector_text(v)) for space, v in vectors.items()],
                    )
            if links is not None:
                conn.execute("DELETE FROM record_links WHERE record = %s", (rowid,))
                if links:
                    conn.cursor().executemany(
                        "INSERT INTO record_links(record, symbol, content_hash) "
                        "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                        [(rowid, s, h) for s, h in links],
                    )

    def _rewrite(
        self, conn: Any, rowid: int, values: dict[str, object], counters: Counters, texts: list[str]
    ) -> None:
        text = [c for c in values if c not in HISTORY and c != "id"]
        sets = [f"{c} = %s" for c in text]
        params: list[object] = [values[c] for c in text]
        if counters == "max":
            for column in ("worked", "not_worked", "occurrences", "last_seen"):
                sets.append(f"{column} = GREATEST({column}, %s)")
                params.append(values[column])
            sets.append("created_at = LEAST(created_at, %s)")
            params.append(values["created_at"])
        conn.execute(
            f"UPDATE records SET {', '.join(sets)}, {_TSV_SETS} WHERE rowid = %s",
            [*params, *texts, rowid],
        )

    def add_occurrence(self, record_id: str, tags: Sequence[str], seen: float) -> None:
        with self.memory_transaction() as conn:
            row = conn.execute(
                "SELECT rowid, tags FROM records WHERE id = %s FOR UPDATE", (record_id,)
            ).fetchone()
            if row is None:
                raise KeyError(record_id)
            merged = list(dict.fromkeys([*json.loads(row[1]), *tags]))
            conn.execute(
                "UPDATE records SET occurrences = occurrences + 1, "
                "last_seen = GREATEST(last_seen, %s), tags = %s WHERE rowid = %s",
                (seen, json.dumps(merged), row[0]),
            )
            if merged:
                conn.cursor().executemany(
                    "INSERT INTO record_tags(record, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    [(row[0], t) for t in merged],
                )

    def add_alias(self, alias: str, record_id: str) -> None:
        with self.memory_transaction() as conn:
            conn.execute(
                "INSERT INTO record_aliases(alias, record_id) VALUES (%s, %s) "
                "ON CONFLICT (alias) DO UPDATE SET record_id = excluded.record_id",
                (alias, record_id),
            )

    def set_record_tags(self, record_id: str, tags: Sequence[str]) -> bool:
        with self.memory_transaction() as conn:
            row = conn.execute(
                "SELECT rowid FROM records WHERE id = %s FOR UPDATE", (record_id,)
            ).fetchone()
            if row is None:
                return False
            kept = list(dict.fromkeys(tags))
            conn.execute(
                "UPDATE records SET tags = %s WHERE rowid = %s", (json.dumps(kept), row[0])
            )
            conn.execute("DELETE FROM record_tags WHERE record = %s", (row[0],))
            if kept:
                conn.cursor().executemany(
                    "INSERT INTO record_tags(record, tag) VALUES (%s, %s)",
                    [(row[0], t) for t in kept],
                )
        return True

    def delete_record(self, record_id: str) -> bool:
        with self.memory_transaction() as conn:
            row = conn.execute("SELECT rowid FROM records WHERE id = %s", (record_id,)).fetchone()
            if row is None:
                return False
            for table, column in (
                ("record_tags", "record"),
                ("record_vectors", "record"),
                ("record_links", "record"),
                ("records", "rowid"),
            ):
                conn.execute(f"DELETE FROM {table} WHERE {column} = %s", (row[0],))
            conn.execute(
                "DELETE FROM feedback_events WHERE target = %s AND target_kind = 'memory'",
                (record_id,),
            )
            conn.execute("UPDATE records SET variant_of = NULL WHERE variant_of = %s", (record_id,))
            conn.execute("DELETE FROM record_aliases WHERE record_id = %s", (record_id,))
        return True

    def add_feedback(
        self,
        target: str,
        target_kind: str,
        worked: bool,
        *,
        note: str | None = None,
        agent: str | None = None,
        session_id: str | None = None,
        query: str | None = None,
        author: str | None = None,
    ) -> tuple[int, int] | None:
        """Append a rating event and bump the target's counter atomically; None (and
        nothing written) for an unknown target."""
        try:
            with self.transaction(None) as conn:
                counts = self._count_rating(conn, target, target_kind, worked)
                conn.execute(
                    "INSERT INTO feedback_events(target, target_kind, worked, note, agent,"
                    " session_id, query, created_at, author)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        target,
                        target_kind,
                        int(worked),
                        note,
                        agent,
                        session_id,
                        query,
                        time.time(),
                        author,
                    ),
                )
        except _Unknown:
            return None
        return counts

    def _count_rating(
        self, conn: Any, target: str, target_kind: str, worked: bool
    ) -> tuple[int, int]:
        if target_kind == "memory":
            column = "worked" if worked else "not_worked"
            row = conn.execute(
                f"UPDATE records SET {column} = {column} + 1 WHERE id = %s "
                "RETURNING worked, not_worked",
                (target,),
            ).fetchone()
            if row is None:
                raise _Unknown(target)
            return int(row[0]), int(row[1])
        if not conn.execute("SELECT 1 FROM chunks WHERE id = %s", (target,)).fetchone():
            raise _Unknown(target)
        column = "useful" if worked else "not_useful"
        row = conn.execute(
            f"INSERT INTO knowledge_feedback(chunk_id, {column}) VALUES (%s, 1) "
            f"ON CONFLICT (chunk_id) DO UPDATE SET {column} = knowledge_feedback.{column} + 1 "
            "RETURNING useful, not_useful",
            (target,),
        ).fetchone()
        return int(row[0]), int(row[1])

"""Memory writes in the SQLite store: records, their vector spaces and symbol links, and
feedback. A mixin of SQLiteStore (reads are in `memory_reads.py`).

Every write is one `BEGIN IMMEDIATE` transaction (or joins the caller's, so
`log_solution` can look for a duplicate and write in one atomic step). Counters are only
ever changed by SQL arithmetic inside the transaction (`worked = worked + 1`,
`max(worked, ?)`): a rewrite of a record's texts never writes back counter values it read
earlier, so concurrent ratings and merges are never lost. Memory writes bump
`memory_generation` (which the record vector caches key on); ratings change no vectors
and bump nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ctxhub.core.records import HISTORY, Counters, Record
from ctxhub.embed.base import Vectors
from ctxhub.store.sqlite.memory_reads import MemoryReads
from ctxhub.store.sqlite.memory_rows import RECORD_FIELDS
from ctxhub.store.sqlite.vectors import to_blob

#: Columns a rewrite of an existing record leaves to SQL arithmetic (see put_record).


class _Unknown(Exception):
    """Rolls a feedback transaction back when its target does not exist."""


class MemoryQueries(MemoryReads):
    """Record writes and feedback; expects SQLiteStore's `conn` and `transaction`."""

    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        raise NotImplementedError  # provided by SQLiteStore

    def memory_transaction(self) -> AbstractContextManager[Any]:
        """One atomic memory write: reads inside it see every committed write, and no
        other process writes until it ends."""
        return self.transaction("memory_generation")

    # -- records -----------------------------------------------------------------------
    def put_record(
        self,
        record: Record,
        text_hash: str,
        vectors: Mapping[str, Vectors] | None,
        model: str,
        links: Sequence[tuple[str, str]] | None = None,
        counters: Counters = "keep",
    ) -> None:
        """Insert a record, or rewrite an existing one by id.

        A rewrite replaces the texts and labels, unites the tags with the stored ones,
        and leaves the history alone: counters, created_at and last_seen keep their
        stored values (`counters="keep"`), or take the larger of stored and given
        (`"max"`, for an import). `vectors` None keeps the stored vectors; otherwise
        they replace every space (a space left out is dropped: no code, no code
        vector). `links` None keeps the stored links."""
        values: dict[str, object] = {k: getattr(record, k) for k in RECORD_FIELDS}
        values["resolved"] = int(record.resolved)
        values["libraries"] = json.dumps(record.libraries)
        values["tags"] = json.dumps(record.tags)
        values["text_hash"] = text_hash
        with self.memory_transaction():
            old = self.conn.execute(
                "SELECT rowid, tags FROM records WHERE id = ?", (record.id,)
            ).fetchone()
            if old is None:
                columns = list(values)
                cur = self.conn.execute(
                    f"INSERT INTO records({', '.join(columns)}) "
                    f"VALUES ({', '.join('?' for _ in columns)})",
                    [values[c] for c in columns],
                )
                rowid = int(cur.lastrowid or 0)
                tags = record.tags
            else:
                rowid = int(old["rowid"])
                tags = list(dict.fromkeys([*json.loads(old["tags"]), *record.tags]))
                values["tags"] = json.dumps(tags)
                self._rewrite(rowid, values, counters)
                self.conn.execute("DELETE FROM records_fts WHERE rowid = ?", (rowid,))
                self.conn.execute("DELETE FROM record_tags WHERE record = ?", (rowid,))
            self.conn.execute(
                "INSERT INTO records_fts(rowid, problem, error_type, stack_trace, solution, code)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    rowid,
                    record.problem,
                    record.error_type or "",
                    record.stack_trace or "",
                    record.solution,
                    "\n".join(p for p in (record.code_snippet, record.code_diff) if p),
                ),
            )
            self.conn.executemany(
                "INSERT OR IGNORE INTO record_tags(record, tag) VALUES (?, ?)",
                [(rowid, t) for t in tags],
            )
            if vectors is not None:
                self.conn.execute("DELETE FROM record_vectors WHERE record = ?", (rowid,))
                self.conn.executemany(
                    "INSERT INTO record_vectors(record, space, model, vec) VALUES (?, ?, ?, ?)",
                    [(rowid, space, model, to_blob(v)) for space, v in vectors.items()],
                )
            if links is not None:
                self.conn.execute("DELETE FROM record_links WHERE record = ?", (rowid,))
                self.conn.executemany(
                    "INSERT OR IGNORE INTO record_links(record, symbol, content_hash) "
                    "VALUES (?, ?, ?)",
                    [(rowid, s, h) for s, h in links],
                )

    def _rewrite(self, rowid: int, values: dict[str, object], counters: Counters) -> None:
        text = [c for c in values if c not in HISTORY and c != "id"]
        sets = [f"{c} = ?" for c in text]
        params = [values[c] for c in text]
        if counters == "max":
            for column in ("worked", "not_worked", "occurrences", "last_seen"):
                sets.append(f"{column} = max({column}, ?)")
                params.append(values[column])
            sets.append("created_at = min(created_at, ?)")
            params.append(values["created_at"])
        self.conn.execute(f"UPDATE records SET {', '.join(sets)} WHERE rowid = ?", [*params, rowid])

    def add_occurrence(self, record_id: str, tags: Sequence[str], seen: float) -> None:
        """Count one more occurrence of a record (a merged duplicate): tags united."""
        with self.memory_transaction():
            row = self.conn.execute(
                "SELECT rowid, tags FROM records WHERE id = ?", (record_id,)
            ).fetchone()
            if row is None:
                raise KeyError(record_id)
            merged = list(dict.fromkeys([*json.loads(row["tags"]), *tags]))
            self.conn.execute(
                "UPDATE records SET occurrences = occurrences + 1, "
                "last_seen = max(last_seen, ?), tags = ? WHERE rowid = ?",
                (seen, json.dumps(merged), row["rowid"]),
            )
            self.conn.executemany(
                "INSERT OR IGNORE INTO record_tags(record, tag) VALUES (?, ?)",
                [(row["rowid"], t) for t in merged],
            )

    def add_alias(self, alias: str, record_id: str) -> None:
        """`alias` (an importer's id) names `record_id` from now on."""
        with self.memory_transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO record_aliases(alias, record_id) VALUES (?, ?)",
                (alias, record_id),
            )

    def set_record_tags(self, record_id: str, tags: Sequence[str]) -> bool:
        """Make `tags` the record's whole tag list (a person's edit: tags can go, which
        put_record's union never does). False when there is no such record."""
        with self.memory_transaction():
            row = self.conn.execute(
                "SELECT rowid FROM records WHERE id = ?", (record_id,)
            ).fetchone()
            if row is None:
                return False
            kept = list(dict.fromkeys(tags))
            self.conn.execute(
                "UPDATE records SET tags = ? WHERE rowid = ?", (json.dumps(kept), row[0])
            )
            self.conn.execute("DELETE FROM record_tags WHERE record = ?", (row[0],))
            self.conn.executemany(
                "INSERT INTO record_tags(record, tag) VALUES (?, ?)", [(row[0], t) for t in kept]
            )
        return True

    def delete_record(self, record_id: str) -> bool:
        """Remove a record with its vectors, links and ratings; its variants become
        originals. False when there is no such record."""
        with self.memory_transaction():
            row = self.conn.execute(
                "SELECT rowid FROM records WHERE id = ?", (record_id,)
            ).fetchone()
            if row is None:
                return False
            for table, column in (
                ("records_fts", "rowid"),
                ("record_tags", "record"),
                ("record_vectors", "record"),
                ("record_links", "record"),
                ("records", "rowid"),
            ):
                self.conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (row[0],))
            self.conn.execute(
                "DELETE FROM feedback_events WHERE target = ? AND target_kind = 'memory'",
                (record_id,),
            )
            self.conn.execute(
                "UPDATE records SET variant_of = NULL WHERE variant_of = ?", (record_id,)
            )
            self.conn.execute("DELETE FROM record_aliases WHERE record_id = ?", (record_id,))
        return True

    # -- feedback ------------------------------------------------------------------------
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
        """Append a rating event and bump the target's counters atomically.
        Returns the new (positive, negative) counts, or None if the target is unknown
        (and then nothing is written)."""
        try:
            with self.transaction(None):
                counts = self._count_rating(target, target_kind, worked)
                self.conn.execute(
                    "INSERT INTO feedback_events(target, target_kind, worked, note, agent,"
                    " session_id, query, created_at, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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

    def _count_rating(self, target: str, target_kind: str, worked: bool) -> tuple[int, int]:
        if target_kind == "memory":
            column = "worked" if worked else "not_worked"
            cur = self.conn.execute(
                f"UPDATE records SET {column} = {column} + 1 WHERE id = ?", (target,)
            )
            if cur.rowcount == 0:
                raise _Unknown(target)
            row = self.conn.execute(
                "SELECT worked, not_worked FROM records WHERE id = ?", (target,)
            ).fetchone()
            return int(row[0]), int(row[1])
        if not self.conn.execute("SELECT 1 FROM chunks WHERE id = ?", (target,)).fetchone():
            raise _Unknown(target)
        column = "useful" if worked else "not_useful"
        self.conn.execute(
            f"INSERT INTO knowledge_feedback(chunk_id, {column}) VALUES (?, 1) "
            f"ON CONFLICT(chunk_id) DO UPDATE SET {column} = {column} + 1",
            (target,),
        )
        row = self.conn.execute(
            "SELECT useful, not_useful FROM knowledge_feedback WHERE chunk_id = ?", (target,)
        ).fetchone()
        return int(row[0]), int(row[1])

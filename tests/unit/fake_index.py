"""A package index served from memory on 127.0.0.1: PEP 691 JSON or PEP 503 HTML project
pages and archives built in the test, so fetching a release is tested without the
network (and a request log shows what was asked)."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


def sdist(top: str, files: dict[str, str]) -> bytes:
    """A .tar.gz with `files` under the folder `top` (as `python -m build` writes one)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for rel, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{rel}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def wheel(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for rel, text in files.items():
            zf.writestr(rel, text)
    return buf.getvalue()


@dataclass
class FakeIndex:
    base: str = ""
    pages: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # path: (type, body)
    requests: list[str] = field(default_factory=list)
    #: path: headers sent instead of the usual ones (None: the header is not sent)
    headers: dict[str, dict[str, str | None]] = field(default_factory=dict)

    @property
    def simple_url(self) -> str:
        return f"{self.base}/simple/"

    def publish(
        self,
        project: str,
        archives: dict[str, bytes],
        *,
        html: bool = False,
        wrong_sha256: bool = False,
        hashes: bool = True,
    ) -> None:
        """`project`'s page listing `archives` (file name: bytes), each served too; the
        page says each file's sha256 (a wrong one with `wrong_sha256`; none, as an index
        may, without `hashes`: no `#sha256=` fragment, or an empty PEP 691 `hashes`)."""
        entries = []
        for filename, data in archives.items():
            digest = hashlib.sha256(data + (b"x" if wrong_sha256 else b"")).hexdigest()
            self.pages[f"/files/{filename}"] = ("application/octet-stream", data)
            entries.append((filename, f"../../files/{filename}", digest, len(data)))
        if html:
            fragment = "#sha256={}" if hashes else ""
            links = "".join(
                f'<a href="{u}{fragment.format(d)}">{f}</a><br/>' for f, u, d, _ in entries
            )
            body = f"<!DOCTYPE html><html><body>{links}</body></html>".encode()
            self.pages[f"/simple/{project}/"] = ("text/html", body)
            return
        files = [
            {"filename": f, "url": u, "hashes": {"sha256": d} if hashes else {}, "size": n}
            for f, u, d, n in entries
        ]
        page = {"meta": {"api-version": "1.1"}, "name": project, "files": files}
        self.pages[f"/simple/{project}/"] = (
            "application/vnd.pypi.simple.v1+json",
            json.dumps(page).encode(),
        )


@contextmanager
def running_index() -> Iterator[FakeIndex]:
    index = FakeIndex()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            index.requests.append(self.path)
            found = index.pages.get(self.path)
            if found is None:
                self.send_error(404)
                return
            kind, body = found
            self.send_response(200)
            sent: dict[str, str | None] = {"Content-Type": kind, "Content-Length": str(len(body))}
            sent.update(index.headers.get(self.path, {}))
            for header, value in sent.items():
                if value is not None:
                    self.send_header(header, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    index.base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield index
    finally:
        server.shutdown()
        server.server_close()

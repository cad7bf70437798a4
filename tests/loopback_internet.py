"""A loopback internet for tests (127.0.0.1 only): one HTTP server that answers the requests steb-lib's real download
code makes, with real files, so the CLI can be driven end to end without network.

It plays
- GitHub's codeload (`/<owner>/<repo>/tar.gz/<ref>`: a tarball `<repo>-<sha>/...` built from a local folder),
- Zenodo (`/records/<id>/files/<name>`), plain URLs (`/<path>`), Google Drive (`/download?id=<id>&...`),
- the Hugging Face hub, at the endpoints huggingface_hub really calls (`HF_ENDPOINT`): repository info
  (`/api/{models,datasets}/<repo>/revision/<rev>`), the file tree (`/api/.../tree/<rev>`) and file downloads
  (`[/datasets]/<repo>/resolve/<rev>/<path>`, with the `X-Repo-Commit`, `ETag` and `Content-Length` headers it reads).

steb-lib reaches the non-hub sources through `STEB_DOWNLOAD_BASE` (it replaces a URL's scheme and host) and the hub
through `HF_ENDPOINT`. Every request is counted (`requests`), so a test can assert that an offline rerun makes none.
Faults on demand: `cut` (paths whose body is sent half, with the full Content-Length) and `missing` (404s).
"""
from __future__ import annotations
import hashlib, io, json, tarfile, threading, zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


def tarball(folder: Path, top: str) -> bytes:
    "A gzipped tarball of every file under `folder`, inside the folder `top/` (fixed mtimes: reproducible bytes)."
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for p in sorted(Path(folder).rglob("*")):
            if p.is_file():
                data = p.read_bytes(); info = tarfile.TarInfo(f"{top}/{p.relative_to(folder).as_posix()}" if top else p.relative_to(folder).as_posix())
                info.size, info.mtime = len(data), 0; tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zipped(folder: Path, top: str) -> bytes:
    "A zip of every file under `folder`, inside the folder `top/`."
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(Path(folder).rglob("*")):
            if p.is_file(): z.writestr(zipfile.ZipInfo(f"{top}/{p.relative_to(folder).as_posix()}", (2026, 1, 1, 0, 0, 0)), p.read_bytes())
    return buf.getvalue()


class HubRepo:
    """A hub repository served from a local folder: its files, one commit (`commit`, e.g. a registry's pin, else sha1
    of the content), and named revisions."""
    def __init__(self, repo_id: str, folder, kind: str = "model", revisions=("main",), commit: str | None = None):
        self.repo_id, self.kind, self.folder = repo_id, kind, Path(folder)
        self.files = {p.relative_to(self.folder).as_posix(): p for p in sorted(self.folder.rglob("*")) if p.is_file() and not p.name.startswith(".")}
        h = hashlib.sha1(repo_id.encode())
        for rel, p in self.files.items() if commit is None else (): h.update(rel.encode()); h.update(hashlib.sha256(p.read_bytes()).digest())
        self.commit = commit or h.hexdigest()
        self.revisions = {r: self.commit for r in revisions} | {self.commit: self.commit}


class LoopbackInternet:
    "The server and what it serves; use as a context manager, read `.base` (for STEB_DOWNLOAD_BASE and HF_ENDPOINT)."
    def __init__(self):
        self.routes: dict[str, bytes] = {}          # path (no query) -> body, for codeload, Zenodo and URL files
        self.gdrive: dict[str, bytes] = {}          # Google Drive file id -> body
        self.hub: dict[tuple[str, str], HubRepo] = {}
        self.cut: set[str] = set(); self.missing: set[str] = set()
        self.requests: list[str] = []

    # -- what to serve ---------------------------------------------------------------------------------------------
    def add_repo_archive(self, owner: str, repo: str, ref: str, folder) -> None:
        "GitHub's codeload tarball of `folder` at `ref` (also at HEAD), laid out as `<repo>-<ref>/...`."
        data = tarball(Path(folder), f"{repo}-{ref[:7]}")
        for r in {ref, "HEAD"}: self.routes[f"/{owner}/{repo}/tar.gz/{r}"] = data

    def add_file(self, path: str, data: bytes) -> None: self.routes[path] = data

    def add_hub_repo(self, repo: HubRepo) -> HubRepo: self.hub[(repo.kind, repo.repo_id)] = repo; return repo

    # -- serving ---------------------------------------------------------------------------------------------------
    def __enter__(self):
        site = self
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def do_HEAD(self): site._answer(self, head=True)
            def do_GET(self): site._answer(self, head=False)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        return self

    def __exit__(self, *exc): self.server.shutdown(); self.server.server_close()

    def _send(self, h, status: int, body: bytes = b"", headers: dict | None = None, head: bool = False, cut: bool = False) -> None:
        h.send_response(status)
        for k, v in {"Content-Length": str(len(body)), **(headers or {})}.items(): h.send_header(k, v)
        h.end_headers()
        if not head: h.wfile.write(body[: len(body) // 2] if cut else body)
        if cut: h.close_connection = True

    def _json(self, h, obj, head: bool) -> None:
        self._send(h, 200, json.dumps(obj).encode(), {"Content-Type": "application/json"}, head)

    def _answer(self, h, head: bool) -> None:
        url = urlsplit(h.path); path = url.path; self.requests.append(f"{h.command} {h.path}")
        if path in self.missing: return self._send(h, 404, b"not found", head=head)
        if path.startswith("/api/"): return self._hub_api(h, path, head)
        if "/resolve/" in path: return self._hub_file(h, path, head)
        if path == "/download" and (fid := parse_qs(url.query).get("id", [""])[0]) in self.gdrive:
            return self._send(h, 200, self.gdrive[fid], {"Content-Type": "application/octet-stream"}, head)
        if path in self.routes: return self._send(h, 200, self.routes[path], {"Content-Type": "application/octet-stream"}, head, cut=path in self.cut)
        self._send(h, 404, b"not found", head=head)

    def _repo(self, kind: str, rest: str) -> tuple[HubRepo | None, str]:
        "The repository named at the start of `rest` (`org/name/...` or `name/...`) and the remainder."
        parts = rest.split("/")
        for n in (2, 1):
            if (kind, "/".join(parts[:n])) in self.hub: return self.hub[(kind, "/".join(parts[:n]))], "/".join(parts[n:])
        return None, rest

    def _hub_api(self, h, path: str, head: bool) -> None:
        kind_plural, _, rest = path[len("/api/"):].partition("/")
        repo, rest = self._repo(kind_plural.rstrip("s"), rest) if kind_plural in ("models", "datasets") else (None, rest)
        if repo is None: return self._send(h, 404, b'{"error": "Repository not found"}', {"X-Error-Code": "RepoNotFound"}, head)
        what, _, rev = rest.partition("/") if rest else ("revision", "", "main")   # `/api/models/<repo>`: its main
        rev, _, sub = unquote(rev).partition("/") if what == "tree" else (unquote(rev), "", "")
        if rev not in repo.revisions: return self._send(h, 404, b'{"error": "Invalid rev id"}', {"X-Error-Code": "RevisionNotFound"}, head)
        if what == "revision":
            return self._json(h, {"id": repo.repo_id, "sha": repo.revisions[rev], "siblings": [{"rfilename": f} for f in repo.files]}, head)
        files = [f for f in repo.files if f.startswith(sub)]
        return self._json(h, [{"type": "file", "path": f, "size": repo.files[f].stat().st_size,
                               "oid": hashlib.sha1(repo.files[f].read_bytes()).hexdigest()} for f in files], head)

    def _hub_file(self, h, path: str, head: bool) -> None:
        kind, rest = ("dataset", path[len("/datasets/"):]) if path.startswith("/datasets/") else ("model", path[1:])
        repo, rest = self._repo(kind, rest)
        if repo is None: return self._send(h, 404, b"", {"X-Error-Code": "RepoNotFound"}, head)
        _, rev, fname = rest.split("/", 2)
        rev = unquote(rev)
        if rev not in repo.revisions: return self._send(h, 404, b"", {"X-Error-Code": "RevisionNotFound"}, head)
        fname = unquote(fname)
        if fname not in repo.files: return self._send(h, 404, b"", {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": repo.commit}, head)
        data = repo.files[fname].read_bytes()
        headers = {"X-Repo-Commit": repo.revisions[rev], "ETag": f'"{hashlib.sha256(data).hexdigest()}"', "Content-Type": "application/octet-stream"}
        self._send(h, 200, data, headers, head, cut=path in self.cut)

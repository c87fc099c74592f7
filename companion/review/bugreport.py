"""One file for a bug report: a session's export, with what a maintainer needs beside it.

``companion bug-report ID`` writes a JSON document that a maintainer can read as it is and
import as it is: ``companion import`` takes a bug report for the session export it carries
(``exchange.read_export``), so the game the user thinks the robot played wrong can be
replayed step by step. Beside the export (key ``export``) it holds the app's version,
Python's, the platform, the rules version of every game, and the SHA-256 of every data file
the app loads: the shipped TOML files under data/ and, for a session played on its own map
or tables, those files too. Two reports whose checksums differ were played on other tables.
"""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.review.exchange import BUG_REPORT_FORMAT, PATH_KEYS, export_data

if TYPE_CHECKING:
    from companion.store.db import Store

BUG_REPORT_VERSION = 1


def default_name(session_id: int) -> str:
    """The file a bug report is written to when no -o is given, in the current folder."""
    return f"companion-bug-{session_id}.json"


def sha256(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def data_checksums() -> dict[str, str]:
    """The SHA-256 of every data file the app ships and loads (the TOML files of data/), by
    its path under data/."""
    from companion.datafiles import data_dir

    root = data_dir()
    return {p.relative_to(root).as_posix(): sha256(p) for p in sorted(root.rglob("*.toml"))}


def session_files(config: dict[str, Any]) -> list[dict[str, str | None]]:
    """The user's own data files the session was played on, each with its checksum (None
    when it is no longer a readable file there)."""
    found: list[dict[str, str | None]] = []
    for key in PATH_KEYS:  # the config keys that name a data file of the user's (exchange.py)
        value = config.get(key)
        if not isinstance(value, str):
            continue
        path = Path(value).expanduser()
        checksum = None
        try:
            # A regular file only: a pipe would hang the read, a device never end it.
            if path.is_file():
                checksum = sha256(path)
        except OSError:
            pass
        found.append({"key": key, "path": value, "sha256": checksum})
    return found


def rules_versions() -> dict[str, int | str]:
    """The version of the rules this app plays, by game (a game that cannot load says why)."""
    from companion import games

    versions: dict[str, int | str] = {}
    for e in games.GAMES:
        try:
            versions[e.id] = games.load(e.id).rules_version
        except Exception as exc:  # noqa: BLE001 -- a report is written whatever fails; the failure is what it records
            versions[e.id] = f"cannot load: {exc}"
    return versions


def bug_report(store: Store, session_id: int) -> dict[str, Any]:
    """The bug report of a session as a JSON document (the module docstring). StoreError (one
    sentence) if there is no such session."""
    from companion import __version__

    export = export_data(store, session_id)
    return {
        "format": BUG_REPORT_FORMAT,
        "version": BUG_REPORT_VERSION,
        "written": export["exported"],
        "to_replay": "companion import THIS-FILE, then companion replay with the new session's number",
        "app": {"name": "tabletop-companion", "version": __version__},
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation()},
        "platform": platform.platform(),
        "rules_versions": rules_versions(),
        "data_files": data_checksums(),
        "session_files": session_files(export["session"]["config"]),
        "export": export,
    }


def bug_report_text(store: Store, session_id: int) -> str:
    """The bug report of a session as JSON text, indented to be read."""
    return json.dumps(bug_report(store, session_id), indent=2, ensure_ascii=False) + "\n"

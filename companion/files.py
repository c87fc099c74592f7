"""Files the app writes for the user (exports): whole or not at all, and never onto the database.

An output is written to a temporary file beside its target and renamed over it once
complete, so that on any failure (a full disk, a killed process) the file that was there
stays whole and no half file is left. The database in use, and its -wal and -shm files,
are refused as targets: writing an export over them would destroy the games.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from companion.errors import CompanionError


class OutputError(CompanionError):
    """An output file that cannot be written; the message is one sentence (exit 2)."""


def same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` name one file (through links or another spelling)."""
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_database(target: str, database: str) -> None:
    """OutputError when ``target`` is the database file ``database`` or one of its companions,
    or no file name at all (a null character: no system takes one in a path)."""
    if "\x00" in target:
        raise OutputError("A file name cannot hold a null character; give another.")
    if database == ":memory:":
        return
    out = Path(target).expanduser()
    for suffix in ("", "-wal", "-shm", "-journal"):
        db = Path(database + suffix)
        if same_file(out, db) or out.resolve() == db.resolve():
            raise OutputError(
                f"{target} is the database itself ({db.name}); write the export to another file."
            )


def write_atomic(target: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``target``: a temporary file beside it, then a rename."""
    path = Path(target).expanduser()
    if path.is_dir():
        raise OutputError(f"{target} is a folder; give a file name.")
    if path.exists() and not path.is_file():
        raise OutputError(f"{target} is not a regular file (a pipe or a device); give a file name.")
    folder = path.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            # The file is written beside its target first: the folder is what refuses.
            raise OutputError(
                f"Cannot write {target}: its folder {folder.absolute()} is read-only "
                f"({exc.strerror or exc}); choose another folder."
            ) from None
        raise OutputError(f"Cannot write {target}: {exc.strerror or exc}.") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            with contextlib.suppress(OSError):  # keep the old file's permissions
                os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(
            f"Cannot write {target}: {exc.strerror or exc}; the file there is unchanged."
        ) from None

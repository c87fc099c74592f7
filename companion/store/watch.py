"""The database file a store opened, watched: one moved, deleted or copied over while the app
runs (a restore, a sync tool) is noticed before the next write.

SQLite keeps no watch of its own. A file replaced by a rename (how restores and sync tools
write) leaves the app writing to the old file, unlinked, and to its journal (the -wal file
beside the path), which the next open then replays over the file moved in: the games restored
and the games played since are both lost. A file copied over in place mixes the app's journal
with another database. So before each write the store asks ``Watch.check``: the same file
(device and inode), the same database (its id, kept in the header's user_version, set once
per database), and no fewer pages than last seen (SQLite never shrinks the file: fewer pages
is an older copy).

The header is read through the descriptor SQLite itself holds on the file (found among the
process's open files by its device and inode), never by opening the file: closing any
descriptor of a file drops every POSIX lock the process holds on it, SQLite's included, and
another program would then take the app for gone and delete its journal. Where the process's
open files cannot be listed (no /dev/fd), only the stat is checked. A stat, a listing of the
open files and 100 bytes read: some 50 microseconds a write.
"""

from __future__ import annotations

import os
import secrets
import struct
from dataclasses import dataclass

#: The header SQLite writes at the start of every database file.
MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Header:
    """What the first 100 bytes of a database file say: its id (user_version) and its pages."""

    ident: int
    pages: int


def parse_header(head: bytes) -> Header | None:
    """The header in the first 100 bytes of a file, or None when it is not an SQLite file's."""
    if len(head) < 100 or not head.startswith(MAGIC):
        return None
    (pages,) = struct.unpack(">I", head[28:32])
    (ident,) = struct.unpack(">I", head[60:64])
    return Header(ident, pages)


#: Where a process lists its open files (Linux, macOS and the BSDs).
OPEN_FILES = "/dev/fd"


def first_bytes(device: int, inode: int) -> bytes | None:
    """The first 100 bytes of the file (``device``, ``inode``), read through a descriptor this
    process holds on it already (SQLite's); None when none is on that file or the open files
    cannot be listed."""
    try:
        fds = [int(name) for name in os.listdir(OPEN_FILES) if name.isdigit()]
    except OSError:
        return None
    for fd in fds:
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != (device, inode):
                continue
            return os.pread(fd, 100, 0)
        except OSError:
            continue  # closed meanwhile, or not a file that reads
    return None


def new_ident() -> int:
    """A database's id: a random whole number that fits the header's 32 signed bits, never 0."""
    return secrets.randbelow(2**31 - 1) + 1


@dataclass
class Watch:
    """The file opened (device, inode), the database's id and the pages its header counted
    when last seen."""

    path: str
    device: int
    inode: int
    ident: int
    pages: int

    @classmethod
    def start(cls, path: str, ident: int) -> Watch | None:
        """Watch ``path`` as it is now, the database of id ``ident`` (as SQLite reads it: the
        file's header has it once a checkpoint has written it there); None for a database in
        memory or a file not there."""
        if path == ":memory:":
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        raw = first_bytes(st.st_dev, st.st_ino)
        head = parse_header(raw) if raw is not None else None
        return cls(path, st.st_dev, st.st_ino, ident, head.pages if head is not None else 0)

    def check(self) -> str | None:
        """What happened to the file since it was opened ("replaced", "gone", "overwritten"),
        or None while it is the database the store opened."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return "gone"
        except OSError:
            return None  # cannot tell: the write itself will say what is wrong
        if (st.st_dev, st.st_ino) != (self.device, self.inode):
            return "replaced"
        raw = first_bytes(self.device, self.inode)
        if raw is None:
            return None  # no descriptor to read it through: the stat is all that is known
        head = parse_header(raw)
        if head is None:
            return "overwritten"
        if self.ident and head.ident and head.ident != self.ident:
            return "overwritten"  # another database copied over this one
        if head.pages < self.pages:
            return "overwritten"  # an older copy of it: SQLite never gives pages back
        return None

    def seen(self) -> None:
        """After a write of the store's own: the header as it is now (a checkpoint may have
        grown the file; another app of ours on the same file may have too)."""
        raw = first_bytes(self.device, self.inode)
        head = parse_header(raw) if raw is not None else None
        if head is not None:
            self.pages = max(self.pages, head.pages)

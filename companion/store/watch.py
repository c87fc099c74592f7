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
open files cannot be listed (no /dev/fd), only the stat is checked. A stat, an fstat and 100
bytes read a write (the open files are listed again only when SQLite has opened the file anew).
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


def descriptor_of(device: int, inode: int, known: int | None = None) -> int | None:
    """A descriptor this process holds on the file (``device``, ``inode``) already (SQLite's):
    ``known`` while it still is one (a write asks once, and the listing is done only when
    SQLite has opened the file anew), else one found among the open files; None when none is
    on that file or the open files cannot be listed."""

    def on_file(fd: int) -> bool:
        try:
            st = os.fstat(fd)
        except OSError:
            return False  # closed meanwhile
        return (st.st_dev, st.st_ino) == (device, inode)

    if known is not None and on_file(known):
        return known
    try:
        fds = [int(name) for name in os.listdir(OPEN_FILES) if name.isdigit()]
    except OSError:
        return None
    for fd in fds:
        if on_file(fd):
            return fd
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
    #: The descriptor the header was last read through.
    fd: int | None = None

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
        watch = cls(path, st.st_dev, st.st_ino, ident, 0)
        head = watch.header()
        watch.pages = head.pages if head is not None else 0
        return watch

    def header(self) -> Header | None:
        """The file's header as read through SQLite's descriptor; None when there is none to read
        it through, or it is no SQLite header (``check`` tells the two apart)."""
        raw = self.first_bytes()
        return parse_header(raw) if raw is not None else None

    def first_bytes(self) -> bytes | None:
        """The file's first 100 bytes, through SQLite's descriptor (``descriptor_of``)."""
        self.fd = descriptor_of(self.device, self.inode, self.fd)
        if self.fd is None:
            return None
        try:
            return os.pread(self.fd, 100, 0)
        except OSError:
            return None

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
        raw = self.first_bytes()
        if raw is None:
            return None  # no descriptor to read it through: the stat is all that is known
        head = parse_header(raw)
        if head is None:
            return "overwritten"
        if self.ident and head.ident and head.ident != self.ident:
            return "overwritten"  # another database copied over this one
        if head.pages < self.pages:
            return "overwritten"  # an older copy of it: SQLite never gives pages back
        # Grown since (a checkpoint of the app's, or of another app of ours on the file): the
        # pages a copy put there later must not fall below.
        self.pages = head.pages
        return None

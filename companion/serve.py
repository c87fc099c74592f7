"""``companion serve``: the same app in a web browser, through textual-serve.

textual-serve starts one ``companion`` process per browser tab (a shell command
with the web driver in its environment) and relays its screen over a websocket.
The database is checked here first, and its resolved path is handed to every
served process with ``--db``, so the browser plays on the file the shell named
(``--db`` or ``COMPANION_DB``). Loopback is the default: bound anywhere else,
anyone who reaches the port can play and read the history, so the command says so.
"""

from __future__ import annotations

import ipaddress
import shlex
import socket
import sys
from typing import Any

from companion.errors import CompanionError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class ServeError(CompanionError):
    """The server cannot start (a port in use, a host that is not this machine's)."""


def is_loopback(host: str) -> bool:
    """True when ``host`` is reachable from this machine only."""
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(db_path: str, seed: int | None) -> str:
    """The shell command textual-serve runs for each browser tab: this Python's ``companion``."""
    argv = [sys.executable, "-m", "companion", "--db", db_path]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return shlex.join(argv)


def check_bind(host: str, port: int) -> None:
    """Bind and release ``host``:``port`` once, so a port in use is one sentence before the banner."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise ServeError(f"'{host}' is not an address or host name of this machine.") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            raise ServeError(_bind_sentence(host, port, exc)) from None


def _bind_sentence(host: str, port: int, exc: OSError) -> str:
    reason = (exc.strerror or str(exc)).rstrip(".").lower()
    if "in use" in reason:
        return f"Port {port} on {host} is already in use; choose another with --port."
    if "permission" in reason:
        return f"Port {port} needs special rights on this machine; choose one from 1024 with --port."
    return f"Cannot serve on {host} port {port}: {reason}."


def serve(host: str, port: int, db_path: str, seed: int | None) -> None:
    """Serve the app until Ctrl+C; ServeError (one sentence) if it cannot start.
    Call ``check_bind`` first to report a busy port before anything else is printed."""
    from textual_serve.server import Server

    class _Server(Server):
        async def handle_index(self, request: Any) -> Any:
            # The page's websocket must point where the browser found the page, not at the
            # bound address (0.0.0.0 means nothing to a browser on another machine).
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    server = _Server(app_command(db_path, seed), host=host, port=port, title="Tabletop Companion")
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port between the check and the bind
        raise ServeError(_bind_sentence(host, port, exc)) from None

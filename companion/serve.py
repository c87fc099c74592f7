"""``companion serve``: the same app in a web browser, through textual-serve.

textual-serve starts one ``companion`` process per browser tab (a shell command
with the web driver in its environment) and relays its screen over a websocket.
The database is checked here first, and its resolved path is handed to every
served process with ``--db``, so the browser plays on the file the shell named
(``--db`` or ``COMPANION_DB``).

The server is locked to its user, as Jupyter's is (``Guard``): a random token by
default, printed in the URL to open; the page with the token sets a cookie the
websocket must carry (compared in constant time, never logged); a websocket from
another web page (its Origin not this server's) is refused; bound to loopback,
only the loopback host names are served (DNS rebinding). Sizes a browser asks
for are clamped to what a screen can be, the tabs served at once are capped,
messages are bounded, a malformed one is dropped without a traceback, and a
tab's process ends when its socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError
from companion.qr import qr_lines
from companion.text import visible

DEFAULT_HOST = "127.0.0.1"
DEFAULT_MAX_SESSIONS = 8

#: What a browser may ask for: a terminal of at most 500 x 200 cells (a 4K screen at a small
#: font is about 480 x 135), at least 20 x 5.
COLUMNS = (20, 500)
ROWS = (5, 200)
#: The largest websocket message taken: keys typed or pasted, a resize (aiohttp's own default
#: is 4 MiB).
MAX_MESSAGE = 64 * 1024
#: How long a tab's process has to quit once its socket closes, before it is killed.
QUIT_GRACE = 5.0
#: The cookie's name: with the server's port after it (``cookie_name``).
COOKIE = "companion_token"
#: How long a connection has to send its whole first request, and how long an idle one is kept:
#: a request half sent (a slow or hostile client) is closed, and never holds a file for ever.
REQUEST_TIMEOUT = 10.0
KEEPALIVE_TIMEOUT = 15.0
#: The connections held at once, far below the 1,024 files a process may have open: past it a
#: new connection is closed at once, and the tabs already open go on.
MAX_CONNECTIONS = 256
#: What a token may hold: printable ASCII, no space (it travels in an address and a cookie).
TOKEN_CHARACTERS = frozenset(chr(c) for c in range(33, 127))
TOKEN_LENGTH = (16, 256)

log = logging.getLogger("companion.serve")


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


def clamp(value: Any, bounds: tuple[int, int], default: int) -> int:
    """A terminal dimension asked for by a browser, within ``bounds`` (``default`` if not a number)."""
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(bounds[0], min(bounds[1], n))


def url_host(host: str) -> str:
    """``host`` as it goes in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def shown_host(host: str) -> str:
    """The host the printed address names: the one given (a loopback address, a LAN address),
    or for every interface at once (0.0.0.0, ::) this machine's name."""
    return socket.gethostname() if host in ("", "0.0.0.0", "::") else host


def loopback_hosts(port: int, bound: str = DEFAULT_HOST) -> frozenset[str]:
    """The Host headers a server bound to loopback answers: this machine's own names for itself,
    and the address it is bound to."""
    names = ("127.0.0.1", "localhost", "[::1]", url_host(bound))
    return frozenset(f"{name.casefold()}:{port}" for name in names)


@dataclass
class Guard:
    """Who may use the server. ``token`` None: no token asked (loopback only); ``hosts`` None:
    any Host header (a server bound beyond loopback, reached by names this machine cannot
    know; the token is required there)."""

    token: str | None = field(repr=False)  # never in a log, a traceback or a repr
    hosts: frozenset[str] | None
    max_sessions: int = DEFAULT_MAX_SESSIONS
    sessions: int = field(default=0)
    #: The port served: the cookie is named for it and its value made for it (``cookie``).
    port: int = 0

    def host_refusal(self, host: str | None) -> str | None:
        if self.hosts is None or (host or "").casefold() in self.hosts:
            return None
        return "This server answers only to this machine's own addresses (127.0.0.1, localhost)."

    def token_ok(self, given: str | None) -> bool:
        if self.token is None:
            return True
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    @property
    def cookie_name(self) -> str:
        """Named for the port: logging in to a second server leaves the first's cookie alone."""
        return f"{COOKIE}_{self.port}"

    def cookie(self) -> str:
        """The cookie's value: made from the token for this port, never the token itself. A
        browser sends a host's cookies to every port of it, so another local web server sees
        it: it learns nothing of the token, and nothing another server of ours would take."""
        key = (self.token or "").encode()
        return hmac.new(key, f"companion serve cookie, port {self.port}".encode(), "sha256").hexdigest()

    def cookie_ok(self, given: str | None) -> bool:
        if self.token is None:
            return True
        return given is not None and hmac.compare_digest(given.encode(), self.cookie().encode())

    def origin_refusal(self, origin: str | None, scheme: str, host: str | None) -> str | None:
        """A websocket must come from a page of this server (its Origin is this scheme and Host)."""
        if origin is None or origin.casefold() != f"{scheme}://{host}".casefold():
            return "A page of another site cannot connect to this server."
        return None


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_refusal(token: str) -> str | None:
    """Why ``token`` cannot be a server's token (one sentence), or None. It is never quoted:
    the sentence may be printed where others see it."""
    low, high = TOKEN_LENGTH
    if not low <= len(token) <= high:
        return f"A token must be {low} to {high} characters long (or give none for a random one)."
    if not set(token) <= TOKEN_CHARACTERS:
        return (
            "A token may hold letters, digits and printable signs only: no space, no control "
            "character and no letter outside ASCII."
        )
    return None


def token_url(base: str, token: str | None) -> str:
    """``base`` with the token as its query, every sign of it escaped (``+``, ``#``, ``&``, ``%``
    would otherwise end or change it)."""
    from urllib.parse import quote

    return base if token is None else f"{base}?token={quote(token, safe='')}"


def app_command(db_path: str, seed: int | None) -> str:
    """The shell command textual-serve runs for each browser tab: this Python's ``companion``.

    textual-serve starts it with ``/bin/sh -c`` and, when the tab closes or the server stops,
    ends the process it started: without ``exec`` that is the shell, and the app lived on with
    the database open (found alive minutes later, one at 1.6 GB). ``exec`` makes the shell
    become the app, so the process ended is the app itself."""
    argv = [sys.executable, "-m", "companion", "--db", db_path]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return "exec " + shlex.join(argv)


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


#: Added to the page: the keys work as soon as it has loaded, with no click first. The terminal
#: (xterm.js) is made by textual.js on load and takes the keys through its hidden textarea,
#: which is given the focus once it exists, and again while the app has not drawn yet.
FOCUS_SCRIPT = """<script>
(function () {
  var tries = 0;
  function focusTerminal() {
    var keys = document.querySelector(".xterm-helper-textarea");
    if (keys && document.activeElement !== keys) { keys.focus(); }
    var drawn = document.body.classList.contains("-first-byte");
    if ((!keys || !drawn) && tries++ < 100) { setTimeout(focusTerminal, 100); }
  }
  window.addEventListener("load", function () { setTimeout(focusTerminal, 0); });
})();
</script>
"""

NO_TOKEN_PAGE = """<!doctype html><meta charset="utf-8"><title>Tabletop Companion</title>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Tabletop Companion</h1>
<p>This server needs its token. Open the address that <code>companion serve</code> printed
when it started: it ends with <code>?token=</code> and a long code.</p>
</body>"""


def serve(
    host: str,
    port: int,
    db_path: str,
    seed: int | None,
    guard: Guard | None = None,
) -> None:
    """Serve the app until Ctrl+C; ServeError (one sentence) if it cannot start.
    Call ``check_bind`` first to report a busy port before anything else is printed."""
    lock = guard or Guard(new_token(), loopback_hosts(port, host) if is_loopback(host) else None)
    server = build_server(app_command(db_path, seed), host, port, lock)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port between the check and the bind
        raise ServeError(_bind_sentence(host, port, exc)) from None


def build_server(command: str, host: str, port: int, lock: Guard) -> Any:
    """The textual-serve Server for ``command``, held by ``lock`` (tests build its aiohttp app
    with ``_make_app()``)."""
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    lock.port = port  # the cookie is named for it, and made for it
    tabs: set[web.WebSocketResponse] = set()  # the sockets of the tabs open

    class _Server(Server):
        async def on_shutdown(self, app: web.Application) -> None:
            # Each tab's socket closed, so its handler ends its app's process (``end``) before
            # the server stops waiting for it.
            for websocket in list(tabs):
                with contextlib.suppress(Exception):
                    await websocket.close(code=1001, message=b"The server stopped.")

        async def on_startup(self, app: web.Application) -> None:
            url = token_url(f"http://{url_host(shown_host(host))}:{port}/", lock.token)
            for line in (
                "Tabletop Companion is served at:",
                f"    {url}",
                "Open that address in a browser (it carries the token), or scan the code with a tablet:",
                *qr_lines(url),
                "Press Ctrl+C to stop.",
            ):
                # soft_wrap: the address whole, on one line, whatever the terminal's width
                self.console.print(line, highlight=False, markup=False, soft_wrap=True)

        async def handle_index(self, request: web.Request) -> Any:
            refusal = lock.host_refusal(request.host)
            if refusal:
                return web.Response(status=403, text=refusal)
            given = request.query.get("token")
            if given is not None and lock.token_ok(given):
                # The token goes into a cookie and out of the address bar (and the history).
                response = web.HTTPFound("/")
                response.set_cookie(
                    lock.cookie_name, lock.cookie(), httponly=True, samesite="Strict", path="/"
                )
                raise response
            if not lock.cookie_ok(request.cookies.get(lock.cookie_name)):
                return web.Response(status=403, text=NO_TOKEN_PAGE, content_type="text/html")
            # The page's websocket must point where the browser found the page, not at the
            # bound address (0.0.0.0 means nothing to a browser on another machine).
            self.public_url = f"{request.scheme}://{request.host}"
            page = await super().handle_index(request)
            if isinstance(page, web.Response) and page.body is not None:
                html = page.body if isinstance(page.body, bytes) else b""
                page.body = html.replace(b"</body>", FOCUS_SCRIPT.encode() + b"</body>", 1)
            return page

        async def handle_download(self, request: web.Request) -> web.StreamResponse:
            if lock.host_refusal(request.host) or not lock.cookie_ok(request.cookies.get(lock.cookie_name)):
                return web.Response(status=403, text="Not allowed.")
            return await super().handle_download(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            refusal = (
                lock.host_refusal(request.host)
                or lock.origin_refusal(request.headers.get("Origin"), request.scheme, request.host)
                or (
                    None
                    if lock.cookie_ok(request.cookies.get(lock.cookie_name))
                    else "This server needs its token."
                )
            )
            if refusal:
                log.warning("websocket refused: %s", refusal)
                raise web.HTTPForbidden(text=refusal)
            if lock.sessions >= lock.max_sessions:
                raise web.HTTPServiceUnavailable(
                    text=f"{lock.max_sessions} tabs are open already: close one (--max-sessions)."
                )
            width = clamp(request.query.get("width"), COLUMNS, 80)
            height = clamp(request.query.get("height"), ROWS, 24)
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
            if not websocket.can_prepare(request).ok:
                raise web.HTTPBadRequest(text="This address is the app's websocket: open the page instead.")
            lock.sessions += 1
            service: AppService | None = None
            try:
                await websocket.prepare(request)
                tabs.add(websocket)
                service = AppService(
                    self.command,
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,  # type: ignore[arg-type]
                    download_manager=self.download_manager,
                    debug=self.debug,
                )
                await service.start(width, height)

                async def keys() -> None:
                    async for message in websocket:
                        if message.type == WSMsgType.TEXT:
                            await relay(message.data, service, websocket)

                # The tab lasts while both do: its page (the keys it sends) and its app. An app
                # that died (killed, out of memory) closes the page's socket, and the page says
                # "Session ended" with a button to start again, instead of taking keys for nobody.
                await until_either(keys(), ended(service))
            except (asyncio.CancelledError, ConnectionError):
                pass
            except Exception as exc:  # noqa: BLE001 - a tab's failure ends that tab, without a traceback
                log.warning("a browser tab ended: %s", exc)
            finally:
                lock.sessions -= 1
                tabs.discard(websocket)
                if service is not None:
                    await end(service)
                if websocket.prepared:
                    await websocket.close()
            return websocket

        def initialize_logging(self) -> None:
            # textual-serve logs with Rich tracebacks and their local variables: a malformed
            # request would print a traceback, and the locals could hold the token.
            handler = logging.StreamHandler()
            handler.setFormatter(OneLine())
            logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)

        def serve(self, debug: bool = False) -> None:
            # As Server.serve, with no access log (the page's address carries the token), and
            # through ``run``: every connection held to a deadline and their number capped.
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(run(self._make_app(), self.host, self.port))
            finally:
                # What the server left (a tab's relay, a process ending) is cancelled and
                # awaited, as run_app does.
                rest = asyncio.all_tasks(loop)
                for task in rest:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
                loop.close()

    return _Server(command, host=host, port=port, title="Tabletop Companion")


class _Refused(asyncio.Protocol):
    """A connection past MAX_CONNECTIONS: closed as soon as it is made."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


def guarded(factory: Any, answered: set[int]) -> Callable[[], asyncio.BaseProtocol]:
    """aiohttp's protocol ``factory`` (its web.Server), with every connection held to deadlines:
    one that has not sent a whole request within REQUEST_TIMEOUT is closed (aiohttp itself
    waits for ever on a request half sent: 1,100 of them took every file the server may open),
    and past MAX_CONNECTIONS a new one is closed at once. ``answered``: the ids of the
    connections a whole request came on (``run`` marks them)."""
    loop = asyncio.get_running_loop()

    def late(handler: Any) -> None:
        if id(handler) not in answered:
            handler.force_close()
        answered.discard(id(handler))

    def make() -> asyncio.BaseProtocol:
        if len(factory.connections) >= MAX_CONNECTIONS:
            return _Refused()
        handler = factory()
        loop.call_later(REQUEST_TIMEOUT, late, handler)
        return handler  # type: ignore[no-any-return]

    return make


async def run(make_app: Awaitable[Any], host: str, port: int, stop: asyncio.Event | None = None) -> None:
    """Serve the app ``make_app`` gives on ``host``:``port`` until SIGINT or SIGTERM (or until
    ``stop`` is set, when given), as aiohttp's ``run_app`` does, through ``guarded``
    connections; then close every tab (each ends its app's process: ``end``)."""
    from aiohttp import web

    app = await make_app
    answered: set[int] = set()

    @web.middleware
    async def mark(request: web.Request, handler: Callable[[web.Request], Awaitable[Any]]) -> Any:
        answered.add(id(request.protocol))
        return await handler(request)

    app.middlewares.append(mark)
    # The tabs' sockets are closed first (on_shutdown); then each has twice QUIT_GRACE to end its
    # process (``end``: asked to quit, then killed) before its handler is cancelled.
    runner = web.AppRunner(
        app, access_log=None, keepalive_timeout=KEEPALIVE_TIMEOUT, shutdown_timeout=2 * QUIT_GRACE + 1
    )
    await runner.setup()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM) if stop is None else ()
    stop = stop or asyncio.Event()
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    server = await loop.create_server(guarded(runner.server, answered), host, port, reuse_address=True)
    try:
        await stop.wait()
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
        server.close()
        await runner.cleanup()


class OneLine(logging.Formatter):
    """A log record as one line: its message and the kind of error, never a traceback (nor
    the error's own text, which may quote a request: a token in an address)."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[0] is not None:
            text = f"{text} ({record.exc_info[0].__name__})"
        return "companion serve: " + visible(text)[:200]


async def relay(data: str, service: Any, websocket: Any) -> None:
    """One message of the page: ["stdin", text], ["resize", {"width", "height"}], ["ping", x],
    ["blur"] or ["focus"]. Anything else, or malformed, is dropped."""
    try:
        envelope = json.loads(data)
    except ValueError:
        return
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return
    kind, args = envelope[0], envelope[1:]
    if kind == "stdin" and args and isinstance(args[0], str):
        await service.send_bytes(args[0].encode("utf-8", "replace"))
    elif kind == "resize" and args and isinstance(args[0], dict):
        size = args[0]
        await service.set_terminal_size(
            clamp(size.get("width"), COLUMNS, 80), clamp(size.get("height"), ROWS, 24)
        )
    elif kind == "ping" and args and isinstance(args[0], str) and len(args[0]) <= 64:
        await websocket.send_json(["pong", args[0]])
    elif kind == "blur":
        await service.blur()
    elif kind == "focus":
        await service.focus()


async def until_either(*jobs: Awaitable[Any]) -> None:
    """Run ``jobs`` until the first of them ends; the others are cancelled (and awaited)."""
    tasks = [asyncio.ensure_future(job) for job in jobs]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def ended(service: Any) -> None:
    """Until the tab's app process has ended, however it ended."""
    process = getattr(service, "_process", None)  # textual-serve keeps it there
    if process is None:
        return
    await process.wait()
    if process.returncode:  # not a quit of its own: say so on the server's console
        log.warning("a tab's app ended (exit status %s); its page is told so", process.returncode)


async def end(service: Any) -> None:
    """End a tab's process: ask it to quit, and kill it if it has not within QUIT_GRACE."""
    # A process that will not quit (or a stop that fails) is killed just below.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(service.stop(), QUIT_GRACE)
    process = getattr(service, "_process", None)  # textual-serve keeps it there
    if process is not None and process.returncode is None:
        try:
            process.kill()
            await asyncio.wait_for(process.wait(), QUIT_GRACE)
        except (ProcessLookupError, TimeoutError):
            pass
    # Its pipes closed too: the reader of its screen was cancelled with the stop, and a pipe
    # left open would keep its transport alive past the server's loop.
    transport = getattr(process, "_transport", None)  # asyncio's subprocess keeps it there
    if transport is not None and process is not None and process.returncode is not None:
        transport.close()

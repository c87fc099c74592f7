"""`companion serve` against hostile browsers: other sites' pages, no token, forged Host names,
absurd sizes, floods of tabs and malformed messages (issue "Nothing lost, nobody let in", 1-3).

The real aiohttp application of companion/serve.py is served on a free port as ``companion
serve`` serves it (``serve.run``: its connections held to deadlines); each tab's process is a small stand-in command (a Python that writes the terminal size
it was given, then waits), so the tests see what a real tab would be started with, and whether
it ends when its socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from companion import serve

TOKEN = "a-long-enough-token-for-tests-0123"


def stand_in(size_file: Path) -> str:
    """A tab's process: writes COLUMNS x ROWS of its environment, then waits (it never quits
    by itself, as a hung app would not)."""
    code = (
        "import os, sys, time; "
        f"open({str(size_file) + '.pids'!r}, 'a').write(str(os.getpid()) + '\\n'); "
        f"open({str(size_file)!r}, 'a').write(os.environ['COLUMNS'] + 'x' + os.environ['ROWS'] + '\\n'); "
        "time.sleep(120)"
    )
    return shlex.join([sys.executable, "-c", code])


class Served:
    """A running server: its base URL, its guard, the file its tabs write their sizes to."""

    def __init__(self, port: int, guard: serve.Guard, sizes: Path) -> None:
        self.port, self.guard, self.sizes = port, guard, sizes

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cookie(self) -> dict[str, str]:
        """The cookie the page with the token sets."""
        return {self.guard.cookie_name: self.guard.cookie()}

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}{path}"

    def started(self) -> list[str]:
        return self.sizes.read_text().split() if self.sizes.exists() else []


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Served]:
    monkeypatch.setattr(serve, "QUIT_GRACE", 0.5)
    sizes = tmp_path / "sizes.txt"
    server = TestServer(aiohttp.web.Application(), host="127.0.0.1")
    await server.start_server()  # to learn the port; the real app is served on the next one
    port = server.port
    await server.close()
    guard = serve.Guard(TOKEN, serve.loopback_hosts(port), max_sessions=2)
    stop = asyncio.Event()
    app = serve.build_server(stand_in(sizes), "127.0.0.1", port, guard)._make_app()
    running = asyncio.create_task(serve.run(app, "127.0.0.1", port, stop))
    for _ in range(200):  # until it listens
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.02)
            continue
        writer.close()
        break
    try:
        yield Served(port, guard, sizes)
    finally:
        stop.set()
        await asyncio.wait_for(running, 15)


async def ws_status(served: Served, **kwargs: Any) -> int:
    """The HTTP status a websocket handshake gets (101 once it is accepted)."""
    async with aiohttp.ClientSession(cookies=kwargs.pop("cookies", None)) as http:
        try:
            async with http.ws_connect(served.url("/ws"), **kwargs) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


async def test_the_page_needs_the_token_and_keeps_it_in_a_cookie(
    served: Served, figures: Counter[str]
) -> None:
    # A browser keeps cookies of 127.0.0.1; aiohttp's client only when told to.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(served.url("/")) as r:
            assert r.status == 403 and "needs its token" in await r.text()
        async with http.get(
            served.url("/?token=wrong-token-of-the-same-length--"), allow_redirects=False
        ) as r:
            assert r.status == 403
        async with http.get(served.url(f"/?token={TOKEN}"), allow_redirects=False) as r:
            assert r.status == 302 and r.headers["Location"] == "/"
            set_cookie = r.headers["Set-Cookie"]
            # Named for the port, and made for it from the token: never the token itself (a
            # browser sends it to every port of the host, another local server's too).
            assert set_cookie.startswith(f"companion_token_{served.port}=") and TOKEN not in set_cookie
            assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
        async with http.get(served.url("/")) as r:  # the session now carries the cookie
            page = await r.text()
            assert r.status == 200 and f"ws://{served.host}/ws" in page
            assert TOKEN not in page
    figures["origins_refused"] += 2


@pytest.mark.parametrize("host", ["evil.example:8000", "attacker.test", "127.0.0.1.nip.io"])
async def test_a_forged_host_is_refused(served: Served, host: str, figures: Counter[str]) -> None:
    """DNS rebinding: a name of another site resolving to this machine. Served on loopback, only
    this machine's own names are answered, and the page never copies another Host into its URLs."""
    async with (
        aiohttp.ClientSession(cookies=served.cookie()) as http,
        http.get(served.url("/"), headers={"Host": host}) as r,
    ):
        assert r.status == 403 and host not in await r.text()
    status = await ws_status(
        served, cookies=served.cookie(), headers={"Host": host, "Origin": f"http://{host}"}
    )
    assert status == 403
    assert served.started() == []
    figures["origins_refused"] += 2


@pytest.mark.parametrize(
    ("origin", "with_cookie"),
    [("http://evil.example", True), (None, True), ("http://localhost:1", True), ("same", False)],
)
async def test_a_websocket_from_another_page_or_without_the_token_is_refused(
    served: Served, origin: str | None, with_cookie: bool, figures: Counter[str]
) -> None:
    headers = {} if origin is None else {"Origin": served.url("").rstrip("/") if origin == "same" else origin}
    status = await ws_status(served, cookies=served.cookie() if with_cookie else None, headers=headers)
    assert status == 403
    await asyncio.sleep(0.2)
    assert served.started() == []  # no process was started for it
    figures["origins_refused"] += 1


async def test_sizes_are_clamped_and_a_closed_tab_ends_its_process(
    served: Served, figures: Counter[str]
) -> None:
    origin = served.url("").rstrip("/")
    async with (
        aiohttp.ClientSession(cookies=served.cookie()) as http,
        http.ws_connect(served.url("/ws?width=100000&height=99999999"), headers={"Origin": origin}) as ws,
    ):
        for _ in range(50):
            if served.started():
                break
            await asyncio.sleep(0.1)
        assert served.started() == ["500x200"]
        assert served.guard.sessions == 1
        await ws.close()
    for _ in range(40):  # QUIT_GRACE (0.5 s here) to quit, then killed
        if served.guard.sessions == 0:
            break
        await asyncio.sleep(0.1)
    assert served.guard.sessions == 0
    figures["sizes_clamped"] += 2


async def test_a_plain_request_for_the_websocket_is_one_answer_and_no_traceback(
    served: Served,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    figures: Counter[str],
) -> None:
    origin = served.url("").rstrip("/")
    async with (
        aiohttp.ClientSession(cookies=served.cookie()) as http,
        http.get(served.url("/ws"), headers={"Origin": origin}) as r,
    ):
        assert r.status == 400 and "open the page instead" in await r.text()
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert not any(record.exc_info for record in caplog.records)
    assert served.guard.sessions == 0 and served.started() == []
    assert TOKEN not in repr(served.guard)  # nor in any traceback that shows the guard
    figures["origins_refused"] += 1


async def test_tabs_are_capped(served: Served, figures: Counter[str]) -> None:
    origin = served.url("").rstrip("/")
    async with aiohttp.ClientSession(cookies=served.cookie()) as http:
        first = await http.ws_connect(served.url("/ws"), headers={"Origin": origin})
        second = await http.ws_connect(served.url("/ws"), headers={"Origin": origin})
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(served.url("/ws"), headers={"Origin": origin})
        assert refused.value.status == 503
        await first.close()
        await second.close()
    figures["sizes_clamped"] += 1


async def test_malformed_and_oversized_messages_are_dropped_without_a_traceback(
    served: Served,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    figures: Counter[str],
) -> None:
    origin = served.url("").rstrip("/")
    hostile = [
        "not json",
        "{}",
        "[]",
        "[5]",
        '["stdin", 5]',
        '["resize", "big"]',
        '["resize", {"width": "x", "height": null}]',
        '["ping", ' + json.dumps("x" * 1000) + "]",
        '["nothing-we-know"]',
    ]
    async with (
        aiohttp.ClientSession(cookies=served.cookie()) as http,
        http.ws_connect(served.url("/ws"), headers={"Origin": origin}) as ws,
    ):
        for text in hostile:
            await ws.send_str(text)
        await ws.send_str('["ping", "still-there"]')
        reply = await ws.receive(timeout=10)
        assert reply.type == aiohttp.WSMsgType.TEXT and json.loads(reply.data) == ["pong", "still-there"]
        await ws.send_str('["stdin", "' + "a" * (serve.MAX_MESSAGE + 10) + '"]')
        closed = await ws.receive(timeout=10)
        assert closed.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.CLOSING,
        )
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert not any(record.exc_info for record in caplog.records)
    figures["inputs"] += len(hostile) + 1


class Recorder:
    """A stand-in AppService that records what relay asks of it."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def send_bytes(self, data: bytes) -> None:
        self.calls.append(("stdin", data))

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.calls.append(("resize", width, height))

    async def blur(self) -> None:
        self.calls.append(("blur",))

    async def focus(self) -> None:
        self.calls.append(("focus",))


@pytest.mark.parametrize(
    ("message", "calls"),
    [
        ('["resize", {"width": 100000, "height": 100000}]', [("resize", 500, 200)]),
        ('["resize", {"width": -3, "height": 1e300}]', [("resize", 20, 200)]),
        ('["resize", {"width": NaN, "height": "40"}]', [("resize", 80, 40)]),
        ('["resize", {"width": 120, "height": 40}]', [("resize", 120, 40)]),
        ('["stdin", "q"]', [("stdin", b"q")]),
        ('["focus"]', [("focus",)]),
        ('["stdin"]', []),
        ("[[1, 2]]", []),
        ("nul\x00l", []),
    ],
)
async def test_relay_clamps_and_drops(
    message: str, calls: list[tuple[Any, ...]], figures: Counter[str]
) -> None:
    service = Recorder()
    await serve.relay(message, service, None)
    assert service.calls == calls
    figures["sizes_clamped"] += 1


def test_the_server_log_is_one_line_with_no_traceback_and_no_token() -> None:
    """aiohttp logs a malformed request with its exception (whose text quotes the request
    line, the token in it); textual-serve printed that as a Rich traceback with its locals."""
    import logging

    try:
        raise ValueError(f"Got more than 8190 bytes when reading: /?token={TOKEN}xxxx")
    except ValueError:
        record = logging.LogRecord(
            "aiohttp.server", logging.ERROR, __file__, 1, "Error handling request", None, sys.exc_info()
        )
    line = serve.OneLine().format(record)
    assert line == "companion serve: Error handling request (ValueError)"


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc, which only Linux has")
async def test_the_process_a_tab_starts_is_the_app_and_ending_it_ends_the_app(tmp_path: Path) -> None:
    """Issue #33 item 6: "Every app process a tab starts ends when its tab closes and when the
    server stops ... (today the server ends the `/bin/sh` wrapper, and the app lives on)".
    textual-serve starts the command with a shell and kills the process it started: that
    process must be the app itself, so that killing it leaves nothing running."""
    from companion.serve import app_command

    command = app_command(str(tmp_path / "c.db"), None)
    process = await asyncio.create_subprocess_shell(
        command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        argv: list[bytes] = []
        for _ in range(50):  # the shell execs at once; wait for /proc to show it
            argv = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
            if argv and argv[0] == sys.executable.encode():
                break
            await asyncio.sleep(0.02)
        assert argv[:3] == [sys.executable.encode(), b"-m", b"companion"], argv
    finally:
        process.kill()
        await process.wait()
    children = Path(f"/proc/{process.pid}")
    assert not children.exists()  # no process of that number is left: the app itself was ended


async def test_the_cookie_is_the_ports_own_and_never_the_token(served: Served, figures: Counter[str]) -> None:
    """Issue #33 item 7: "The token's cookie is named for the server's port (today logging in to a
    second server logs out of the first, and another local web server on any port receives the
    token)". A browser sends a host's cookies to every port: what another server receives is
    made for this port, and is neither the token nor a key to any other server of ours."""
    other = serve.Guard(TOKEN, serve.loopback_hosts(served.port + 1), port=served.port + 1)
    assert other.cookie_name != served.guard.cookie_name
    assert other.cookie() != served.guard.cookie() and TOKEN not in served.guard.cookie()
    for jar in (
        {served.guard.cookie_name: TOKEN},  # the token itself, as the cookie once held it
        {served.guard.cookie_name: other.cookie()},  # another port's cookie under this name
        {other.cookie_name: other.cookie()},  # another server's cookie
        {serve.COOKIE: TOKEN},  # the name every server once shared
    ):
        async with aiohttp.ClientSession(cookies=jar) as http, http.get(served.url("/")) as r:
            assert r.status == 403, jar
        assert await ws_status(served, cookies=jar, headers={"Origin": served.url("").rstrip("/")}) == 403
    figures["origins_refused"] += 4


async def half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that starts a request and never finishes it (a slow or hostile client)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    await writer.drain()
    return reader, writer


async def test_half_sent_requests_time_out_and_connections_are_capped(
    served: Served, monkeypatch: pytest.MonkeyPatch, figures: Counter[str]
) -> None:
    """Item 8: "Half-sent requests time out: 1,100 unfinished requests without a token today
    exhaust the server's files and are never closed; a real request then gets nothing." Each is
    closed once REQUEST_TIMEOUT passes; past MAX_CONNECTIONS a new one is closed at once; and a
    real request is answered all along."""
    monkeypatch.setattr(serve, "REQUEST_TIMEOUT", 0.5)
    monkeypatch.setattr(serve, "MAX_CONNECTIONS", 20)
    # The guard reads the module's values when a connection is made: these hold from now on.
    slow = [await half_sent(served.port) for _ in range(15)]
    async with aiohttp.ClientSession() as http, http.get(served.url("/")) as r:
        assert r.status == 403  # answered (no token), while 15 requests hang
    more = [await half_sent(served.port) for _ in range(10)]
    # Past the cap: closed at once (an end of file, not a wait).
    capped = 0
    for reader, _writer in more:
        with contextlib.suppress(TimeoutError):
            if await asyncio.wait_for(reader.read(), 0.3) == b"":
                capped += 1
    assert capped >= 4, capped
    # The others are closed by the deadline, without an answer.
    for reader, _writer in slow:
        assert await asyncio.wait_for(reader.read(), 5) == b""
    for _reader, writer in slow + more:
        writer.close()
    async with aiohttp.ClientSession() as http, http.get(served.url("/")) as r:
        assert r.status == 403
    figures["sizes_clamped"] += 25


async def test_a_tab_whose_app_died_is_told_so_and_takes_no_more_keys(
    served: Served, figures: Counter[str]
) -> None:
    """Item 6: "A tab whose app died says so and offers to reload, instead of swallowing keys."
    The server closes the page's socket when the app's process ends; textual-serve's page then
    shows "Session ended." and a button to start again."""
    origin = served.url("").rstrip("/")
    pids = Path(str(served.sizes) + ".pids")
    async with aiohttp.ClientSession(cookies=served.cookie()) as http:
        ws = await http.ws_connect(served.url("/ws"), headers={"Origin": origin})
        for _ in range(200):
            if pids.exists() and pids.read_text().strip():
                break
            await asyncio.sleep(0.05)
        pid = int(pids.read_text().split()[0])
        os.kill(pid, signal.SIGKILL)  # the app dies (out of memory, a crash)
        message = await asyncio.wait_for(ws.receive(), 10)
        while message.type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            message = await asyncio.wait_for(ws.receive(), 10)
        assert ws.closed or message.type == aiohttp.WSMsgType.CLOSE
    for _ in range(100):
        if served.guard.sessions == 0:
            break
        await asyncio.sleep(0.05)
    assert served.guard.sessions == 0  # the tab is gone: its place is free for a reload
    figures["sizes_clamped"] += 1

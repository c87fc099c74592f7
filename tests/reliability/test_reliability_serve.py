"""`companion serve` against hostile browsers: other sites' pages, no token, forged Host names,
absurd sizes, floods of tabs and malformed messages (issue "Nothing lost, nobody let in", 1-3).

The real aiohttp application of companion/serve.py is served on a free port by aiohttp's test
server; each tab's process is a small stand-in command (a Python that writes the terminal size
it was given, then waits), so the tests see what a real tab would be started with, and whether
it ends when its socket closes.
"""

from __future__ import annotations

import asyncio
import json
import shlex
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
        f"open({str(size_file)!r}, 'a').write(os.environ['COLUMNS'] + 'x' + os.environ['ROWS'] + '\\n'); "
        "time.sleep(120)"
    )
    return shlex.join([sys.executable, "-c", code])


class Served:
    """A running server: its base URL, its guard, the file its tabs write their sizes to."""

    def __init__(self, server: TestServer, guard: serve.Guard, sizes: Path) -> None:
        self.server, self.guard, self.sizes = server, guard, sizes

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.server.port}"

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
    app = await serve.build_server(stand_in(sizes), "127.0.0.1", port, guard)._make_app()
    test_server = TestServer(app, host="127.0.0.1", port=port)
    await test_server.start_server()
    try:
        yield Served(test_server, guard, sizes)
    finally:
        await test_server.close()


def cookie() -> dict[str, str]:
    return {serve.COOKIE: TOKEN}


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
            assert f"{serve.COOKIE}={TOKEN}" in set_cookie
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
        aiohttp.ClientSession(cookies=cookie()) as http,
        http.get(served.url("/"), headers={"Host": host}) as r,
    ):
        assert r.status == 403 and host not in await r.text()
    status = await ws_status(served, cookies=cookie(), headers={"Host": host, "Origin": f"http://{host}"})
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
    status = await ws_status(served, cookies=cookie() if with_cookie else None, headers=headers)
    assert status == 403
    await asyncio.sleep(0.2)
    assert served.started() == []  # no process was started for it
    figures["origins_refused"] += 1


async def test_sizes_are_clamped_and_a_closed_tab_ends_its_process(
    served: Served, figures: Counter[str]
) -> None:
    origin = served.url("").rstrip("/")
    async with (
        aiohttp.ClientSession(cookies=cookie()) as http,
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
        aiohttp.ClientSession(cookies=cookie()) as http,
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
    async with aiohttp.ClientSession(cookies=cookie()) as http:
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
        aiohttp.ClientSession(cookies=cookie()) as http,
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

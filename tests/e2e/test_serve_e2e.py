"""End to end: `companion serve` in a real headless Chromium, driven by Playwright.

The server runs as a shell would start it, on a free loopback port with a temporary
database; the browser opens the page, the home screen arrives, keys typed into the
page open the Dice tray and roll, and the rolls are read back from the database.
Chromium is Debian's (/usr/bin/chromium, installed by .ci/run); without it the test
skips and says why.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.dice import app_roll
from companion.store.db import Store

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium"))
#: As the machine's notes ask: no background traffic, no first-run work, a headless browser.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEED = 41

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="starts a server and a browser as Linux processes"),
    # Skipped where there is no browser (.ci/run installs it, and says so when it cannot);
    # COMPANION_REQUIRE_BROWSER=1 makes a missing browser a failure instead.
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("COMPANION_REQUIRE_BROWSER"),
        reason=f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(
    cond: Callable[[], bool], what: str, timeout: float = 40.0, pause: Callable[[], None] | None = None
) -> None:
    """Poll ``cond``; ``pause`` waits between polls (Playwright's own wait lets its events arrive)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        (pause or (lambda: time.sleep(0.1)))()


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


TOKEN = "e2e-token-long-enough-0123456789"


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Path, Path]]:
    """`companion --seed 41 serve --db DB --port P` with the token T in COMPANION_TOKEN (``--host`` from an indirect
    parameter, else loopback); yields (the URL to open, with its token; db; the decoy
    COMPANION_DB)."""
    host = getattr(request, "param", "127.0.0.1")
    db = tmp_path / "served.db"
    decoy = tmp_path / "decoy.db"  # --db must win over the environment in the served processes too
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_DB=str(decoy), COMPANION_TOKEN=TOKEN)
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "--seed",
            str(SEED),
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
            "--host",
            host,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
        start_new_session=True,  # the served app processes share its group: one signal ends all
    )
    try:
        wait_for(lambda: accepts(port) or proc.poll() is not None, "the server to listen")
        assert proc.poll() is None, (tmp_path / "server.log").read_text()
        yield f"http://127.0.0.1:{port}/?token={TOKEN}", db, decoy
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):  # any served app left behind
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def committed_rolls(db: Path) -> list[tuple[list[int], str]]:
    if not db.exists():
        return []
    store = Store(str(db))
    try:
        return [
            (ev.answer, ev.source or "")
            for s in store.sessions(game="dice")
            for ev in store.events(s.id)
            if ev.kind == "answer" and ev.source in ("app", "physical")
        ]
    finally:
        store.close()


def test_the_keys_work_as_soon_as_the_page_has_loaded(server: tuple[str, Path, Path]) -> None:
    """Issue #32: "In the browser the keys work as soon as the page has loaded (no click
    first), with a highlighted item." d, pressed with nothing clicked, opens the Dice tray."""
    assert CHROMIUM.exists(), f"No Chromium at {CHROMIUM}, and COMPANION_REQUIRE_BROWSER asks for one"
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    url, _db, _decoy = server
    screen = bytearray()

    def on_frame(payload: str | bytes) -> None:
        screen.extend(payload.encode() if isinstance(payload, str) else payload)

    def seen(text: str) -> bool:
        return text.encode() in screen

    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
            page.goto(url, wait_until="domcontentloaded")
            wait_for(
                lambda: seen("No unfinished sessions"),
                "the home screen",
                pause=lambda: page.wait_for_timeout(100),
            )
            active = page.evaluate("document.activeElement && document.activeElement.className")
            assert "xterm-helper-textarea" in str(active)  # the terminal has the keys
            page.keyboard.press("d")
            wait_for(
                lambda: seen("Quick picks"),
                "the Dice tray, opened by d",
                pause=lambda: page.wait_for_timeout(100),
            )
        finally:
            browser.close()


def test_browser_home_screen_then_dice_tray_rolls_land_in_the_database(
    server: tuple[str, Path, Path], tmp_path: Path
) -> None:
    assert CHROMIUM.exists(), f"No Chromium at {CHROMIUM}, and COMPANION_REQUIRE_BROWSER asks for one"
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    url, db, decoy = server
    screen = bytearray()  # everything the app sent to the page over its websocket

    def on_frame(payload: str | bytes) -> None:
        screen.extend(payload.encode() if isinstance(payload, str) else payload)

    def seen(text: str) -> bool:
        return text.encode() in screen

    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
            page.goto(url, wait_until="domcontentloaded")

            def until(cond: Callable[[], bool], what: str) -> None:
                wait_for(cond, what, pause=lambda: page.wait_for_timeout(100))

            until(lambda: seen("Unfinished sessions") and seen("Dice tray"), "the home screen in the page")
            until(lambda: seen("No unfinished sessions"), "the database opened by the served app")

            page.keyboard.press("d")
            until(lambda: seen("Quick picks"), "the Dice tray")
            page.wait_for_timeout(300)
            page.keyboard.press("r")
            until(lambda: len(committed_rolls(db)) == 1, "the app's roll in the database")
            page.keyboard.type("3 4")
            page.keyboard.press("Enter")
            until(lambda: len(committed_rolls(db)) == 2, "the typed roll in the database")
            until(lambda: seen("typed from the table"), "the typed roll on the page")
            # Text typed in the browser arrives as typed: in the label field every letter is a
            # letter (r too, not "let the app roll"), and the roll it labels is typed after it.
            # (A key that moves the focus is given a moment: Textual hands each key to the field
            # that has the focus when it arrives, so keys sent in the same instant as a Tab
            # would still go to the field it leaves.)
            page.keyboard.press("Shift+Tab")  # from the values field to the label
            page.wait_for_timeout(2000)
            page.keyboard.press("End")
            for _ in "2d6":  # the label the tray proposed
                page.keyboard.press("Backspace", delay=40)
            # As a quick typist types (25 keys a second); Pilot's tests type at full speed.
            page.keyboard.type("Bernat rerolls", delay=40)
            until(lambda: seen("Bernat rerolls"), "the label typed, on the page")
            page.wait_for_timeout(500)
            page.keyboard.press("Tab")
            page.wait_for_timeout(2000)
            page.keyboard.type("5 6")
            page.keyboard.press("Enter")
            until(lambda: len(committed_rolls(db)) == 3, "the labelled roll in the database")
            page.wait_for_timeout(500)
            shot = Path(os.environ.get("COMPANION_SCREENSHOT", tmp_path / "browser.png"))
            page.screenshot(path=str(shot))
        finally:
            browser.close()

    rolls = committed_rolls(db)
    # The first roll is the app's: two d6 drawn from the seed given to `serve` and the step it answered.
    store = Store(str(db))
    (session,) = store.sessions(game="dice")
    events = [e for e in store.events(session.id) if e.kind == "answer"]
    labels = [s.prompt.why for s in store.log(session.id).steps if s.prompt.kind == "roll"]
    store.close()
    app_event = next(e for e in events if e.source == "app")
    assert session.seed == SEED
    assert rolls[0] == (app_roll(SEED, app_event.step, 2, 6), "app")
    assert rolls[1] == ([3, 4], "physical")
    assert rolls[2] == ([5, 6], "physical")  # no r of the label rolled the app's dice
    assert labels[-1] == "Bernat rerolls"
    assert not decoy.exists(), "the served app used COMPANION_DB instead of --db"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def cookie_header(url: str) -> str:
    """The cookie the page with the token sets, for the server at ``url``: named for its port."""
    from urllib.parse import urlsplit

    from companion.serve import Guard

    guard = Guard(TOKEN, None, port=urlsplit(url).port or 0)
    return f"{guard.cookie_name}={guard.cookie()}"


@pytest.mark.parametrize("server", ["0.0.0.0"], indirect=True)
def test_the_page_points_its_websocket_where_the_browser_found_it(server: tuple[str, Path, Path]) -> None:
    """Bound to 0.0.0.0, a tablet reaches the machine by its own name: the page must not send it to 0.0.0.0."""
    import urllib.request

    url, _db, _decoy = server
    page_url = url.split("?", 1)[0]
    request = urllib.request.Request(
        page_url, headers={"Host": "boardgames.example:8123", "Cookie": cookie_header(url)}
    )
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    with direct.open(request, timeout=10) as response:
        page = response.read().decode()
    assert 'data-session-websocket-url="ws://boardgames.example:8123/ws"' in page
    assert "http://boardgames.example:8123/static/" in page


def test_served_on_loopback_another_host_name_or_no_token_is_refused(server: tuple[str, Path, Path]) -> None:
    """DNS rebinding: on loopback the page answers this machine's own names only; and without
    its token, nothing but a page saying how to get in."""
    import urllib.error
    import urllib.request

    url, _db, _decoy = server
    page_url = url.split("?", 1)[0]
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for headers in ({"Host": "boardgames.example:8123", "Cookie": cookie_header(url)}, {}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            direct.open(urllib.request.Request(page_url, headers=headers), timeout=10)
        assert refused.value.code == 403

"""The QR code of the served address (#38, item 5): the lines ``companion serve`` prints decode,
as a phone's camera reads them, to the very address printed above them (zxing-cpp, a decoder of
its own, reads the half blocks turned back into pixels); with --host a LAN address, the address
and the code carry it; the token is in them and nowhere else."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.qr import qr_lines
from companion.serve import shown_host

zxingcpp = pytest.importorskip("zxingcpp")

ROOT = Path(__file__).resolve().parents[2]
#: What each half block of the terminal drawing shows: (top module light, bottom module light).
HALVES = {"█": (True, True), " ": (False, False), "▀": (True, False), "▄": (False, True)}


def decoded(lines: list[str], scale: int = 4) -> list[str]:
    """The texts a QR decoder reads in the terminal drawing ``lines``."""
    rows: list[list[bool]] = []
    for line in lines:
        top, bottom = zip(*(HALVES[c] for c in line), strict=True)
        rows += [list(top), list(bottom)]
    width = max(len(r) for r in rows)
    pixels = bytearray()
    for row in rows:
        row = row + [True] * (width - len(row))
        line = bytearray(255 if light else 0 for light in row for _ in range(scale))
        pixels += bytes(line) * scale
    image = memoryview(bytes(pixels)).cast("B", shape=[len(rows) * scale, width * scale])
    return [r.text for r in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/?token=abcdefghijklmnopqrstuvwxyz012345",
        "http://192.168.1.20:8765/?token=" + "%2B-_.~" * 8,
        "http://[fe80::1]:9000/",
    ],
)
def test_the_code_decodes_to_the_address(url: str) -> None:
    lines = qr_lines(url)
    assert set("".join(lines)) <= set(HALVES) and len({len(line) for line in lines}) == 1
    assert decoded(lines) == [url]


def test_the_address_names_the_host_given_or_this_machine() -> None:
    assert shown_host("192.168.1.20") == "192.168.1.20" and shown_host("127.0.0.1") == "127.0.0.1"
    assert shown_host("0.0.0.0") == shown_host("::") != "0.0.0.0"


@pytest.mark.slow
def test_companion_serve_prints_a_code_of_its_address(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = "qr-test-token-long-enough-0123456789"
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_TOKEN=token)
    out = tmp_path / "server.log"
    with out.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "c.db"), "--port", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        import time

        for _ in range(300):
            if "Ctrl+C" in out.read_text() or proc.poll() is not None:
                break
            time.sleep(0.05)
        text = out.read_text()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    lines = text.splitlines()
    url = next(line.strip() for line in lines if line.strip().startswith("http://"))
    assert url == f"http://127.0.0.1:{port}/?token={token}"
    code = [line for line in lines if line and set(line) <= set(HALVES) and line.strip()]
    assert decoded(code) == [url]
    assert text.count(token) == 1  # the token only in the address (the code carries it as modules)

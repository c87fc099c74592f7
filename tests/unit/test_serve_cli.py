"""`companion serve` on the command line: its options, its warning, its refusals (one sentence, exit 2).

The server itself is replaced by a recorder here; tests/e2e/test_serve_e2e.py runs the real one in a browser.
"""

from __future__ import annotations

import shlex
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import serve
from companion.cli import main
from companion.errors import EXIT_OK, EXIT_USAGE


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Record what `serve` would serve instead of serving it."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(serve, "serve", lambda *a: calls.append(a))
    return calls


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_defaults_serve_loopback_port_8000_without_a_warning(
    served: list[tuple[Any, ...]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(serve, "check_bind", lambda host, port: None)  # 8000 may be taken on this machine
    db = tmp_path / "c.db"
    assert main(["serve", "--db", str(db)]) == EXIT_OK
    [(host, port, path, seed, guard)] = served
    assert (host, port, path, seed) == ("127.0.0.1", 8000, str(db), None)
    assert "warning" not in capsys.readouterr().err
    # A token by default, random, long enough; loopback names only; 8 tabs at most.
    assert guard.token is not None and len(guard.token) >= 32
    assert guard.hosts == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert guard.max_sessions == 8
    assert serve.loopback_hosts(8000, "::1") == guard.hosts  # the bound address, in brackets
    assert "127.0.0.2:8000" in serve.loopback_hosts(8000, "127.0.0.2")
    served.clear()
    assert main(["serve", "--db", str(db)]) == EXIT_OK
    assert served[0][4].token != guard.token  # a new one each time


def test_a_token_can_be_given_or_left_out_on_loopback_only(
    served: list[tuple[Any, ...]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #33 item 7: "a `--token` given on the command line is read from a file or the
    environment instead, so other local users cannot read it in the process list"."""
    port, db = str(free_port()), str(tmp_path / "c.db")
    monkeypatch.setenv("COMPANION_TOKEN", "a-token-of-my-own-choosing")
    assert main(["serve", "--port", port, "--db", db]) == EXIT_OK
    assert served[-1][4].token == "a-token-of-my-own-choosing"
    assert served[-1][4].port == int(port)
    monkeypatch.delenv("COMPANION_TOKEN")
    token_file = tmp_path / "token"
    token_file.write_text("from-a-file+#&%-0123456789\nignored\n")
    assert main(["serve", "--port", port, "--db", db, "--token-file", str(token_file)]) == EXIT_OK
    assert served[-1][4].token == "from-a-file+#&%-0123456789"
    assert main(["serve", "--port", port, "--db", db, "--no-token", "--max-sessions", "2"]) == EXIT_OK
    assert (served[-1][4].token, served[-1][4].max_sessions) == (None, 2)
    capsys.readouterr()
    (tmp_path / "empty").write_text("\n")
    (tmp_path / "huge").write_text("x" * 10_000)
    (tmp_path / "short").write_text("short")
    (tmp_path / "control").write_text("a-token-with-a-bell-\x07-in-it")
    (tmp_path / "spaces").write_text("a token with spaces in it, long enough")
    (tmp_path / "accents").write_text("un-jeton-à-accents-assez-long")
    for argv, words in (
        (["--host", "0.0.0.0", "--no-token"], "--no-token serves this machine only"),
        (["--token", "a-token-of-my-own-choosing"], "can be read by every user of this machine"),
        (["--token-file", str(token_file), "--no-token"], "not both"),
        (["--token-file", str(tmp_path / "short")], "16 to 256 characters"),
        (["--token-file", str(tmp_path / "empty")], "is empty"),
        (["--token-file", str(tmp_path / "huge")], "more than one token"),
        (["--token-file", str(tmp_path / "control")], "no control character"),
        (["--token-file", str(tmp_path / "spaces")], "no space"),
        (["--token-file", str(tmp_path / "accents")], "outside ASCII"),
        (["--token-file", str(tmp_path)], "is not a file"),
        (["--token-file", str(tmp_path / "missing")], "is not a file"),
        (["--max-sessions", "0"], "max-sessions"),
    ):
        served.clear()
        assert main(["serve", "--port", port, "--db", db, *argv]) == EXIT_USAGE, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("companion: ") and "Traceback" not in err, err
        assert words in err, (argv, err)
        assert "\x07" not in err and "a-token-of-my-own" not in err  # a token is never printed
        assert served == []


def test_the_address_printed_carries_any_token_whole() -> None:
    """ "a token with `+ # & %` or control characters works or is refused at start, and is never
    printed raw": those signs would end the address (#), split its query (&) or change it (+, %)."""
    from urllib.parse import parse_qs, urlsplit

    token = "plus+hash#amp&pct%20-0123456789"
    url = serve.token_url("http://127.0.0.1:8000/", token)
    assert "#" not in url and "&" not in url and "+" not in url
    parts = urlsplit(url)
    assert parts.fragment == "" and parse_qs(parts.query) == {"token": [token]}
    assert serve.token_url("http://127.0.0.1:8000/", None) == "http://127.0.0.1:8000/"


def test_another_host_warns_that_anyone_on_the_network_can_play_and_read_the_history(
    served: list[tuple[Any, ...]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    assert (
        main(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "c.db")]) == EXIT_OK
    )
    err = capsys.readouterr().err
    assert "warning" in err and "anyone on the network" in err and "history" in err and "token" in err
    assert served[0][:2] == ("0.0.0.0", port)
    guard = served[0][4]
    assert guard.token is not None and guard.hosts is None  # any name the network knows it by


def test_db_from_the_environment_and_the_seed_reach_the_served_command(
    served: list[tuple[Any, ...]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPANION_DB", "rel/env.db")
    port = free_port()
    assert main(["--seed", "12", "serve", "--port", str(port)]) == EXIT_OK
    host, got_port, path, seed, _guard = served[0]
    assert (host, got_port, seed) == ("127.0.0.1", port, 12)
    # Made absolute: the served processes get the very file, whatever their folder.
    assert path == str(tmp_path / "rel" / "env.db")
    argv = shlex.split(serve.app_command(path, seed))
    assert argv[:2] == ["exec", sys.executable]
    assert argv[2:] == ["-m", "companion", "--db", path, "--seed", "12"]
    assert "--seed" not in shlex.split(serve.app_command(path, None))


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1", "80.5", "８０"])
def test_a_bad_port_is_one_sentence_and_exit_2(
    port: str, served: list[tuple[Any, ...]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", port, "--db", ":memory:"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "port number from 1 to 65535" in err and "Traceback" not in err
    assert served == []


def test_a_port_in_use_is_one_sentence_and_exit_2(
    served: list[tuple[Any, ...]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "c.db")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == f"companion: Port {port} on 127.0.0.1 is already in use; choose another with --port.\n"
    assert served == []


def test_an_unknown_host_is_refused_before_any_warning(
    served: list[tuple[Any, ...]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", "no-such-host.invalid", "--db", str(tmp_path / "c.db")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == "companion: 'no-such-host.invalid' is not an address or host name of this machine.\n"
    assert served == []


def test_a_bad_database_is_refused_before_serving(
    served: list[tuple[Any, ...]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("my shopping list\n")
    assert main(["serve", "--db", str(bad), "--port", str(free_port())]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "is not a Tabletop Companion database" in err and err.count("\n") == 1
    assert served == []


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.5.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert serve.is_loopback(host) is loopback

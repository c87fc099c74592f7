"""The ``companion`` command: starts the TUI, or reads the history from the shell.

JSON goes to stdout, messages to stderr. Exit codes: 0 done, 1 a replay that
diverged, 2 bad usage or bad input (always one sentence, never a traceback).
Heavy imports (Textual, SQLAlchemy) happen inside the command that needs them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from companion import __version__, games
from companion.dice import SEED_MAX, SEED_MIN
from companion.errors import EXIT_DIVERGED, EXIT_OK, EXIT_USAGE, CompanionError, UsageError
from companion.text import visible


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one sentence and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sentence = message[0].upper() + message[1:]
        raise UsageError(f"{sentence.rstrip('.')}; see '{self.prog} --help'.")


def _db_option(parser: argparse.ArgumentParser, *, top: bool) -> None:
    # Accepted before or after the command; the sub-command's copy only overrides when given.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=default,
        help="the database file (default: COMPANION_DB, else the user data folder); ':memory:' for a throw-away one",
    )


def _session_id(text: str) -> int:
    # The digits are counted before int() reads them, and a long text is not echoed whole.
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or not 0 < int(text) < 2**63:
        shown = text if len(text) <= 24 else text[:20] + "…"
        raise argparse.ArgumentTypeError(f"'{shown}' is not a session number (a whole number from 1)")
    return int(text)


def _step_number(text: str) -> int:
    """A step of a log, as the log numbers them (1 first)."""
    try:
        return _session_id(text)
    except argparse.ArgumentTypeError:
        shown = text if len(text) <= 24 else text[:20] + "…"
        raise argparse.ArgumentTypeError(f"'{shown}' is not a step number (a whole number from 1)") from None


def _seed(text: str) -> int:
    # Bounded here, before anything is made: a seed past the store's 64 bits crashed the app when
    # its first session was stored. The digits are counted before int() reads them, so a pasted
    # page of digits costs nothing either.
    digits = text.removeprefix("-")
    if (
        not (digits.isascii() and digits.isdigit())
        or len(digits) > len(str(SEED_MAX))
        or not SEED_MIN <= int(text) <= SEED_MAX
    ):
        raise argparse.ArgumentTypeError(
            f"'{visible(text)}' is not a seed: a seed is a whole number from {SEED_MIN} to {SEED_MAX}"
        )
    return int(text)


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= 1_000_000:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of games from 1 to 1000000")
    return int(text)


#: ``companion serve``'s port when none is given (the one definition: serve takes it as given).
DEFAULT_PORT = 8000


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number from 1 to 65535")
    return int(text)


#: The largest file `import` reads: a session of the most steps an import takes (10,000:
#: exchange.MAX_IMPORT_STEPS) exports to 8 to 40 MB (a Simancas step holds its cards).
MAX_IMPORT = 48 * 1024 * 1024


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number from 1 to 1000")
    return int(text)


def _top_parser(*, add_help: bool = True) -> _Parser:
    """The options given before any command: the app's own (``companion`` alone starts it)."""
    parser = _Parser(
        prog="companion",
        description="Tabletop Companion: the robot's side, the sums and the log of your board games.",
        add_help=add_help,
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    _db_option(parser, top=True)
    parser.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="seed of the first new session's dice; each later one gets a seed drawn from it (default: random)",
    )
    return parser


def _app_args(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """The arguments of ``companion`` starting the app (no command), read by the top options
    alone; None when ``argv`` holds anything else (a command, --help, a mistake), which the
    whole parser reads and judges. Building the whole parser costs 17 ms (every command and
    each game's calculators, imported): a sixth of what the first paint had over a bare app."""
    try:
        args, rest = _top_parser(add_help=False).parse_known_args(argv)
    except UsageError:
        return None
    if rest:
        return None
    args.command = None
    return args


def build_parser() -> argparse.ArgumentParser:
    parser = _top_parser()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("history", help="list the sessions, most recent first")
    _db_option(p, top=False)
    p.add_argument("--game", metavar="G", help=f"only sessions of game G ({games.ids()})")
    p.add_argument(
        "--status",
        choices=["active", "finished", "abandoned"],
        help="only active (unfinished), finished or abandoned sessions",
    )
    p.add_argument("--json", action="store_true", help="print JSON on stdout")

    p = sub.add_parser("show", help="print the ordered log of one session")
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")

    p = sub.add_parser("replay", help="re-run a session's log and check it reproduces the stored state")
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")

    p = sub.add_parser("note", help="write a note on a step of a session (the last by default): a bookmark")
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument("text", metavar="TEXT", nargs="?", default=None, help="the note (a word or a few lines)")
    p.add_argument(
        "--step", type=_session_id, metavar="K", help="the step noted, 1 first (default: the last)"
    )
    p.add_argument("--remove", action="store_true", help="take the step's note off instead")
    p.set_defaults(handler=_note)

    p = sub.add_parser(
        "play", help="play a new game as plain lines on the terminal (--plain): read aloud, piped, scripted"
    )
    _db_option(p, top=False)
    p.add_argument("game", metavar="GAME", help=f"the game ({games.ids()})")
    p.add_argument("--plain", action="store_true", help="plain lines on stdout, answers from stdin")
    p.add_argument("--dice", choices=DICE_CHOICES, help="how the dice are rolled: mixed, physical or app")
    p.add_argument(
        "--seed", type=_seed, metavar="N", help="the seed of the app's dice (default: a random one)"
    )
    p.set_defaults(handler=_play)

    p = sub.add_parser("resume", help="go on with a session as plain lines on the terminal (--plain)")
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument("--plain", action="store_true", help="plain lines on stdout, answers from stdin")
    p.set_defaults(handler=_resume_plain)

    p = sub.add_parser(
        "branch", help="start a new session from a session's log up to step K: another line of play"
    )
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument(
        "--step", type=_step_number, metavar="K", help="the last step it takes (default: all of them)"
    )
    p.set_defaults(handler=_branch)

    p = sub.add_parser(
        "abandon",
        help="put an unfinished session away: it leaves Home's list and stays in History, to resume or delete",
    )
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument("--yes", action="store_true", help="do not ask first")
    p.set_defaults(handler=_abandon)

    p = sub.add_parser("simulate", help="play whole games headless with app dice and a simple bot")
    p.add_argument("game", choices=["reconquista"], help="the game to simulate")
    p.add_argument("--games", type=_count, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument(
        "--seed",
        type=_seed,
        default=argparse.SUPPRESS,
        metavar="S",
        help="seed of the first game (default 1)",
    )
    p.add_argument("--check", action="store_true", help="check every state invariant after every phase")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_simulate)

    p = sub.add_parser("serve", help="serve the app to a web browser (textual-serve)")
    _db_option(p, top=False)
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    p.add_argument("--token", help=argparse.SUPPRESS)  # refused: other users read the process list
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help=(
            "read the token a browser must bring from FILE (its first line), or give it in "
            "COMPANION_TOKEN (default: a new random one, printed in the address to open)"
        ),
    )
    p.add_argument(
        "--no-token",
        action="store_true",
        help="ask no token (only with a loopback --host: this machine only)",
    )
    p.add_argument(
        "--max-sessions",
        type=_positive,
        default=8,
        help="how many browser tabs may be served at once (default 8)",
    )
    p.set_defaults(handler=_serve)

    p = sub.add_parser(
        "export", help="write one session as JSON (to re-import), CSV, a Markdown or a BoardGameGeek report"
    )
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument(
        "--format",
        choices=["json", "csv", "md", "bbcode"],
        default="json",
        help="json (default), csv, md (Markdown) or bbcode (a BoardGameGeek session report)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout ('-': stdout)")
    p.set_defaults(handler=_export)

    p = sub.add_parser(
        "bug-report",
        help="write one file to attach to a bug report: the session's export, the versions and the data files' checksums",
    )
    _db_option(p, top=False)
    p.add_argument("id", type=_session_id, metavar="ID", help="the session number")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE ('-' for stdout; default: companion-bug-ID.json in the current folder)",
    )
    p.set_defaults(handler=_bug_report)

    p = sub.add_parser("import", help="add a session from a JSON export, once it replays to the same game")
    _db_option(p, top=False)
    p.add_argument("file", metavar="FILE", help="the JSON file written by 'companion export' ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.add_argument(
        "--again", action="store_true", help="import a file this database holds already, as a copy"
    )
    p.set_defaults(handler=_import)

    p = sub.add_parser(
        "verify",
        help="check that an exported session's app dice come from its seed, as committed at its start",
    )
    p.add_argument("file", metavar="FILE", help="the JSON file written by 'companion export' ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_verify)

    p = sub.add_parser("stats", help="statistics of the games played: results, tables rolled, hands won")
    _db_option(p, top=False)
    p.add_argument(
        "--game",
        metavar="G",
        help=f"only game G ({', '.join(e.id for e in games.GAMES if e.stats)})",
    )
    p.add_argument("--session", type=_session_id, metavar="ID", help="only session ID")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_stats)

    p = sub.add_parser("luck", help="the luck ledger: are your dice (and the app's) fair?")
    _db_option(p, top=False)
    p.add_argument("--game", metavar="G", help=f"only sessions of game G ({games.ids()})")
    p.add_argument("--session", type=_session_id, metavar="ID", help="only session ID")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_luck)

    p = sub.add_parser("config", help="where the settings file is, and the settings and keys in force")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_config)

    # Each game's calculators, as its registry entry names them (pure engines and argparse: cheap).
    for e in games.GAMES:
        if e.calculators is not None:
            games.named(e.calculators).register(sub)
    return parser


def _tolerant_streams() -> None:
    """A terminal that cannot show a character (a non-UTF-8 encoding: 'León' in ASCII) gets
    an escape for it (\\xf3), never a UnicodeEncodeError half-way through the output."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_streams()
    try:
        args = _app_args(argv) or build_parser().parse_args(argv)
        if args.command is None:
            return _run_tui(args)
        if hasattr(args, "handler"):  # the calculators bring their own handlers
            return int(args.handler(args))
        return {"history": _history, "show": _show, "replay": _replay}[args.command](args)
    except CompanionError as exc:
        # A refusal may quote what it refuses (a name in an import file, a stored answer): as text.
        print(f"companion: {visible(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error worth a message.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _open_store(args: argparse.Namespace) -> Any:
    from companion.store.db import Store

    return Store(args.db)


def _history(args: argparse.Namespace) -> int:
    from companion.games import entry

    if args.game:
        entry(args.game)  # an unknown game is one sentence before any database is touched
    store = _open_store(args)
    sessions = store.sessions(game=args.game, status=args.status, check_logs=True)
    if args.json:
        print(json.dumps([s.to_json() for s in sessions], indent=2, ensure_ascii=False))
        return EXIT_OK
    if not sessions:
        print("No sessions yet.", file=sys.stderr)
        return EXIT_OK
    print(
        f"{'ID':>5}  {'GAME':<12} {'STARTED':<20} {'LAST ACTIVITY':<20} {'STATUS':<9} {'STEPS':>5}  SUMMARY"
    )
    for s in sessions:
        print(
            f"{s.id:>5}  {s.game:<12} {_local(s.started):<20} {_local(s.last_activity):<20} "
            f"{s.status:<9} {s.steps:>5}  {visible(s.summary)}"
        )
    return EXIT_OK


def _show(args: argparse.Namespace) -> int:
    from companion.games import rolls_dice
    from companion.prompts import answer_text
    from companion.review.board_checks import checks_text, tally

    store = _open_store(args)
    info = store.session(args.id)
    log = store.log(args.id)
    notes = store.notes(args.id)
    if args.json:
        out = {
            "session": info.to_json(),
            "log": [e.to_json() for e in log.events],
            "notes": [n.to_json() for n in notes],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return EXIT_OK
    noted = {n.step: n.text for n in notes}
    # Stored text (labels, names, an imported log's questions and phases) is printed through
    # visible(): a control character in it is shown as an escape, never obeyed by the terminal.
    print(
        f"Session {info.id}: {info.game}, {info.status}, {info.steps} steps, seed {info.seed}. "
        + visible(info.summary)
    )
    if info.branch_of:
        print(f"A branch of {visible(info.branch_of)}: its log starts as that session's did.")
    checked = checks_text(*tally((ev.turn, ev.prompt, ev.answer) for ev in log.events))
    if checked:
        print(visible(checked[0].upper() + checked[1:]) + ".")
    if info.commitment and rolls_dice(info.game):
        print(
            f"Commitment to its seed, made when it started: {info.commitment} ('companion verify' checks an export)."
        )
    for i, (ev, step) in enumerate(zip(log.events, log.steps, strict=True), start=1):
        where = f"T{ev.turn} {ev.phase} " if ev.turn is not None else ""
        line = f"{where}{_described(step.prompt)} -> {answer_text(step.answer, none='done')} ({step.source})"
        print(f"{i:>5}  {visible(line)}")
        for said in noted.get(i - 1, "").splitlines():
            print(f"       ✎ {visible(said)}")
    return EXIT_OK


#: The dice modes ``--dice`` takes (companion.dice.DICE_MODES, written out: the parser is built
#: before anything else is imported).
DICE_CHOICES = ("mixed", "physical", "app")


def _plain_only(args: argparse.Namespace, what: str) -> int | None:
    if args.plain:
        return None
    print(
        f"companion: {what} plays in plain lines only: add --plain (or start the app: companion).",
        file=sys.stderr,
    )
    return EXIT_USAGE


def _play(args: argparse.Namespace) -> int:
    """A new session of GAME, played in plain lines (companion/plain.py)."""
    if (refused := _plain_only(args, "play")) is not None:
        return refused
    from companion import games
    from companion.dice import random_seed, session_seed

    entry = games.entry(args.game)  # an unknown game is one sentence before anything is made
    game = games.load(args.game)
    settings = _settings()
    config: dict[str, Any] = {**dict(entry.settings), **settings.session_settings(args.game)}
    if entry.setup is not None:  # asked by a dialog in the app: the dice, with the set-up told
        config |= {"dice": args.dice or settings.dice_mode, "setup": True}
    elif args.dice is not None and entry.dice:
        config["dice"] = args.dice
    seed = random_seed() if args.seed is None else session_seed(args.seed, 0)
    try:
        game.new_state(seed, dict(config))
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_USAGE
    store = _open_store(args)
    session_id = store.create_session(args.game, seed, config, game.rules_version)
    return _plain(store, session_id, game)


def _resume_plain(args: argparse.Namespace) -> int:
    """Go on with session ID in plain lines, where it stands."""
    if (refused := _plain_only(args, "resume")) is not None:
        return refused
    from companion import games

    store = _open_store(args)
    info = store.session(args.id)
    if info.status == "finished":
        print(
            f"companion: session {args.id} has ended; 'companion show {args.id}' prints it.", file=sys.stderr
        )
        return EXIT_USAGE
    if info.status == "abandoned":
        store.reopen(args.id)  # taken up again, as History's resume does
    return _plain(store, args.id, games.load(info.game))


def _plain(store: Any, session_id: int, game: Any) -> int:
    from companion.plain import PlainSession
    from companion.sessions import resume_session

    resumed = resume_session(store, session_id, game)
    if resumed.notice:
        print(resumed.notice)
    checks = _settings().board_checks
    return PlainSession(resumed.driver, session_id, sys.stdin, sys.stdout, checks).run()


def _settings() -> Any:
    """The user's settings; a settings file that cannot be read gives the defaults (the app
    says why when it starts)."""
    from companion.settings_model import load

    try:
        return load()[0]
    except CompanionError:
        from companion import settings

        return settings.DEFAULTS


def _branch(args: argparse.Namespace) -> int:
    """Branch a session at a step; print the new session's number (alone: a script reads it)."""
    from companion.sessions import branch_session

    store = _open_store(args)
    steps = args.step if args.step is not None else store.session(args.id).steps
    print(branch_session(store, args.id, steps))
    return EXIT_OK


def _note(args: argparse.Namespace) -> int:
    """Write (or with --remove take off) the note on a step: the last step by default."""
    store = _open_store(args)
    info = store.session(args.id)
    index = (args.step if args.step is not None else info.steps) - 1
    if args.remove:
        store.remove_note(args.id, index)
        print(f"Took the note off step {index + 1} of session {args.id}.")
        return EXIT_OK
    if args.text is None:
        print("companion: a note needs its text: companion note ID TEXT [--step K].", file=sys.stderr)
        return EXIT_USAGE
    try:
        note = store.set_note(args.id, index, args.text)
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Noted step {note.step + 1} of session {args.id}.")
    return EXIT_OK


#: A choice with more options than this is shown by its question and the number of options:
#: a Simancas menu lists some 130 legal actions, which would bury the step on every line.
LISTED_OPTIONS = 12


def _abandon(args: argparse.Namespace) -> int:
    """Abandon one session, after a question naming it (``--yes``: none). Anything but y or
    yes, or no answer at all (stdin closed), leaves it as it was."""
    from companion.games import session_name

    store = _open_store(args)
    info = store.session(args.id)
    name = visible(session_name(info.id, info.game, info.summary))
    named = name[0].upper() + name[1:]
    if info.status == "abandoned":
        print(f"{named} is abandoned already; History resumes or deletes it.", file=sys.stderr)
        return EXIT_OK
    if info.status == "finished":
        raise UsageError(f"{named} is finished: there is nothing left to abandon.")
    if not args.yes:
        print(f"Abandon {name}? It stays in History, to resume or delete. [y/N] ", end="", file=sys.stderr)
        sys.stderr.flush()
        try:
            line = sys.stdin.readline(80)  # one short line: a pasted page is not read
        except (OSError, ValueError, UnicodeDecodeError):
            line = ""  # no terminal to read from (stdin closed or not text): no answer
        if not line.endswith("\n"):
            print(file=sys.stderr)  # no answer typed (stdin closed): the next sentence on its own line
        reply = line.strip().lower()
        if reply not in ("y", "yes"):
            print(f"Nothing changed: {name} is still unfinished.", file=sys.stderr)
            return EXIT_OK
    store.abandon(info.id)
    print(f"Abandoned {name}: History lists it ('companion history --status abandoned').", file=sys.stderr)
    return EXIT_OK


def _described(prompt: Any) -> str:
    """The step's prompt as one line of ``show``: a long choice names how many options it had."""
    options = getattr(prompt, "options", None)
    if prompt.kind == "choose" and options is not None and len(options) > LISTED_OPTIONS:
        return f"{prompt.why or 'Choose'} (one of {len(options)} options)"
    return str(prompt.describe())


def _replay(args: argparse.Namespace) -> int:
    from companion import games
    from companion.driver import departure, verify
    from companion.errors import ReplayDivergence

    store = _open_store(args)
    info = store.session(args.id)
    game = games.playing(info.game, info.rules_version)  # a version it still plays, as recorded
    log = store.log(args.id)
    try:
        # A session never answered has no stored state yet ({}): nothing to compare but the steps.
        verify(game, info.seed, info.config, log.steps, log.digests, store.state(args.id) or None)
    except ReplayDivergence as exc:
        if info.rules_version == game.rules_version:
            print(f"companion: session {info.id} diverges. {visible(str(exc))}", file=sys.stderr)
        else:
            # Not damage: the log was recorded under other rules than the ones this app plays.
            where = f"from step {exc.step + 1}" if exc.step < len(log.steps) else "at its end"
            print(
                f"companion: session {info.id} was recorded under rules version {info.rules_version} "
                f"and does not replay under the current ones (version {game.rules_version}) {where}: "
                f"{visible(departure(exc))}.",
                file=sys.stderr,
            )
        return EXIT_DIVERGED
    print(f"Session {info.id}: replayed {len(log.steps)} steps; the state is the stored one.")
    return EXIT_OK


def _simulate(args: argparse.Namespace) -> int:
    from companion.reconquista.board import default_board
    from companion.reconquista.simulate import simulate

    default_board()  # a broken data file is one sentence here, not an error in every game
    seed = 1 if args.seed is None else args.seed
    report = simulate(args.games, seed, check=args.check)
    data = report.to_json()
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(
            f"{data['games']} games from seed {seed} in {data['seconds']} s "
            f"({data['games'] / max(data['seconds'], 1e-9):.0f} games/s); mean {data['mean_vp']} VP."
        )
        for name, n in data["results"].items():
            print(f"  {n:>6}  {name}")
        print(
            f"errors: {data['errors']}" + (f" (first: {data['first_error']})" if data["first_error"] else "")
        )
    return EXIT_OK if report.errors == 0 else EXIT_DIVERGED


def _serve(args: argparse.Namespace) -> int:
    from companion import serve
    from companion.store import preflight

    path = preflight.resolve(args.db)
    if path != ":memory:":
        path = os.path.abspath(path)  # the served processes may not share our idea of '~' or '.'
    preflight.check(path)  # a bad database is one sentence now, not in every browser tab
    loopback = serve.is_loopback(args.host)
    if args.token is not None:
        raise UsageError(
            "A token on the command line can be read by every user of this machine (the process "
            "list); give it in COMPANION_TOKEN or in a file with --token-file."
        )
    given = _served_token(args.token_file)
    if args.no_token and given is not None:
        raise UsageError("Give either a token or --no-token, not both.")
    if args.no_token and not loopback:
        raise UsageError(
            f"--no-token serves this machine only: with --host {args.host} anyone on the network could play; "
            "drop --no-token (a token is made for you)."
        )
    if given is not None and (refusal := serve.token_refusal(given)) is not None:
        raise UsageError(refusal)
    serve.check_bind(args.host, args.port)
    if not loopback:
        print(
            f"companion: warning: serving on {args.host}: anyone on the network who reaches port "
            f"{args.port} and has the address printed below (its token) can play and read the history "
            "of every session.",
            file=sys.stderr,
        )
    token = None if args.no_token else (given or serve.new_token())
    hosts = serve.loopback_hosts(args.port, args.host) if loopback else None
    serve.serve(
        args.host, args.port, path, args.seed, serve.Guard(token, hosts, args.max_sessions, port=args.port)
    )
    return EXIT_OK


#: A token file holds one line: more than this is not one.
TOKEN_FILE_MAX = 4096


def _served_token(token_file: str | None) -> str | None:
    """The token ``companion serve`` was given: the first line of ``token_file``, else the
    COMPANION_TOKEN variable, else None. A file that cannot be one is one sentence."""
    if token_file is None:
        return os.environ.get("COMPANION_TOKEN") or None
    shown = visible(token_file)
    if not os.path.isfile(token_file):
        # a pipe would hang the read, a device (/dev/zero) would fill the memory
        raise UsageError(f"The token file {shown} is not a file that can be read.")
    try:
        with open(token_file, encoding="utf-8") as fh:
            text = fh.read(TOKEN_FILE_MAX + 1)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not UTF-8 text"
        raise UsageError(f"The token file {shown} cannot be read ({why}).") from None
    if len(text) > TOKEN_FILE_MAX:
        raise UsageError(f"The token file {shown} holds more than one token.")
    lines = text.splitlines()
    token = lines[0].strip() if lines else ""
    if not token:
        raise UsageError(f"The token file {shown} is empty.")
    return token


def _export(args: argparse.Namespace) -> int:
    from companion.files import refuse_database, write_atomic
    from companion.review.exchange import export_session

    store = _open_store(args)
    output = None if args.output == "-" else args.output  # "-": standard output, as with no -o
    if output is not None:
        refuse_database(output, store.path)
    text = export_session(store, args.id, args.format)
    if output is None:
        sys.stdout.write(text)
        return EXIT_OK
    write_atomic(output, text)
    print(f"Session {args.id} written to {output} ({args.format}).", file=sys.stderr)
    return EXIT_OK


def _bug_report(args: argparse.Namespace) -> int:
    from companion.files import refuse_database, write_atomic
    from companion.review.bugreport import bug_report_text, default_name

    store = _open_store(args)
    store.session(args.id)  # no such session: one sentence, and no file written
    target = default_name(args.id) if args.output is None else args.output
    if target != "-":
        refuse_database(target, store.path)
    text = bug_report_text(store, args.id)
    if target == "-":
        sys.stdout.write(text)
        return EXIT_OK
    write_atomic(target, text)
    print(
        f"Bug report of session {args.id} written to {target}: attach this file to your report.",
        file=sys.stderr,
    )
    return EXIT_OK


def _read_export(args: argparse.Namespace) -> tuple[str, str]:
    """(the name to say, the text) of the export ``args.file`` names ('-': standard input), read
    with the bounds of an export; UsageError, one sentence, where it cannot be."""
    name = "stdin" if args.file == "-" else args.file
    try:
        if args.file == "-":
            # Read no more than a file may hold, and one character more to know it holds more
            # (`yes | companion import -` must not fill the memory).
            text = sys.stdin.read(MAX_IMPORT + 1)
            if len(text) > MAX_IMPORT:
                raise UsageError(
                    f"{name} holds more than {MAX_IMPORT:,} characters; a session export is at most that."
                )
        else:
            if os.path.exists(args.file) and not os.path.isfile(args.file):
                # a pipe would hang the read, a device (/dev/zero) would fill the memory
                raise UsageError(f"{name} is not a regular file (a pipe, a device or a folder).")
            if os.path.getsize(args.file) > MAX_IMPORT:
                raise UsageError(
                    f"{name} is {os.path.getsize(args.file):,} bytes; a session export is at most {MAX_IMPORT:,}."
                )
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not a text file, so it is not a session export.") from None
    except OSError as exc:
        raise UsageError(f"Cannot read {name}: {exc.strerror or exc}.") from None
    return name, text


def _import(args: argparse.Namespace) -> int:
    from companion.review.exchange import import_session

    name, text = _read_export(args)
    done = import_session(_open_store(args), text, name, again=args.again)
    if args.json:
        print(json.dumps(done.to_json(), indent=2, ensure_ascii=False))
    else:
        print(
            visible(
                f"Imported {name} as session {done.session_id} ({done.game}, {done.steps} steps, "
                f"{done.status})." + (f" {done.note}" if done.note else "")
            )
        )
    return EXIT_OK


def _verify(args: argparse.Namespace) -> int:
    from companion.review.verify import verify

    name, text = _read_export(args)
    found = verify(text, name)
    if args.json:
        print(json.dumps({"ok": found.ok, "rolls": found.rolls, "said": found.sentence}))
    else:
        print(visible(found.sentence), file=sys.stdout if found.ok else sys.stderr)
    return EXIT_OK if found.ok else EXIT_DIVERGED


def _stats(args: argparse.Namespace) -> int:
    from companion.games import entry
    from companion.review.report import stats_lines
    from companion.review.stats import statistics

    if args.game:
        entry(args.game)  # an unknown game is one sentence before any database is touched
    store = _open_store(args)
    if args.session is not None:
        store.session(args.session)  # no such session: one sentence
    stats = statistics(store, game=args.game, session_id=args.session)
    if args.json:
        print(json.dumps(stats.to_json(), indent=2, ensure_ascii=False))
    else:
        print("\n".join(stats_lines(stats)))
    return EXIT_OK


def _luck(args: argparse.Namespace) -> int:
    from companion.games import entry
    from companion.review.luck import luck
    from companion.review.report import luck_lines

    if args.game:
        entry(args.game)
    store = _open_store(args)
    if args.session is not None:
        store.session(args.session)  # no such session: one sentence
    ledger = luck(store, game=args.game, session_id=args.session)
    if args.json:
        print(json.dumps(ledger.to_json(), indent=2, ensure_ascii=False))
    else:
        print("\n".join(luck_lines(ledger)))
    return EXIT_OK


def _config(args: argparse.Namespace) -> int:
    from companion import settings, settings_model

    found, file = settings_model.load()  # a mistake in the file: one sentence, exit 2
    data = settings.report(file, found)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(visible("\n".join(settings.report_lines(data, settings.origin()))))
    return EXIT_OK


def _run_tui(args: argparse.Namespace) -> int:
    from companion import settings
    from companion.store import preflight

    path = preflight.resolve(args.db)
    preflight.check(path)  # a bad database is one sentence here, before the screen takes over
    try:
        settings_path = settings.default_path()
    except settings.SettingsError as exc:  # COMPANION_SETTINGS names no file: the defaults, and why
        print(f"companion: {visible(str(exc))} The app runs on the default settings.", file=sys.stderr)
        settings_path = None
    from screens.app import CompanionApp

    # The settings file is read by the app and checked once its first screen is up: a mistake
    # in it is shown there, on the defaults (`companion config` names it too, and exits 2).
    CompanionApp(db_path=path, seed=args.seed, settings_path=settings_path).run()
    return EXIT_OK


def _local(dt: Any) -> str:
    return str(dt.astimezone().strftime("%Y-%m-%d %H:%M"))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

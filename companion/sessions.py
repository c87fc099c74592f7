"""Sessions opened for play: the application's rule for resuming a session from its log, the
one place that joins the store (its rows), the driver (the replay) and a game's rules versions.
The store keeps to persistence (docs/design.md, "Layers")."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.branches import branch_words
from companion.driver import Driver, canonical, departure, replay_fitting, verify
from companion.errors import ReplayDivergence, StoreError
from companion.interface import Game, under_rules
from companion.store.db import Store, answer_row


@dataclass(frozen=True)
class Resumed:
    """A session opened for play by ``resume_session``: its driver, and, when its log was
    recorded under earlier rules of the game and the current ones changed it, one sentence
    for the player saying from which step and why it goes on (None otherwise)."""

    driver: Driver
    notice: str | None = None
    #: The player's notes on its steps (step, 0 first -> text): the bookmarks.
    notes: dict[int, str] = field(default_factory=dict)


def resume_session(store: Store, session_id: int, game: Game) -> Resumed:
    """The session as it stands after its logged steps, its next answers committed here.

    A session recorded under the game's current rules must replay as logged: a log that
    does not is damaged: StoreError (one sentence naming the step) leaves it as it is. One recorded
    under earlier rules replays as far as its log fits the current ones: the steps from the
    first that does not are withdrawn (a rewind event: nothing is deleted), the session is
    marked with the current rules version, and ``Resumed.notice`` tells the player in one
    sentence where and why it goes on from there. Steps that are still asked as logged but
    lead to another state under the current rules are recorded again with the state they
    lead to now (same answer, same source, same time), so that the log the session keeps
    replays under its rules version as every session's does. A session recorded under
    newer rules than the game's is not resumed (StoreError): this app cannot play it on.

    Where the game still plays the earlier version (``Game.earlier_rules``), the session
    replays whole under it, keeps its version, and goes on under the current rules from
    the point its settings name; the first resume sets that point and ``Resumed.notice``
    says so. A log that does not replay under them is taken as above.

    The driver logs the dice typed from the table with the name the player gave them last
    in this session (``Store.set_die``); ``Resumed.notes`` holds the notes on its steps.
    """
    resumed = _resumed(store, session_id, game)
    resumed.driver.die = store.session(session_id).die
    resumed.notes.update((n.step, n.text) for n in store.notes(session_id))
    return resumed


def _resumed(store: Store, session_id: int, game: Game) -> Resumed:
    """``resume_session`` but the dice's name."""
    info = store.session(session_id)
    log = store.log(session_id)
    current = game.rules_version
    if info.rules_version > current:
        raise StoreError(
            f"Session {session_id} was recorded under newer rules of {game.title} (version "
            f"{info.rules_version}) than this Tabletop Companion plays (version {current}); "
            "update the app to resume it."
        )
    recorder = store.recorder(session_id)
    if info.rules_version == current:
        try:
            driver = Driver.resume(game, info.seed, info.config, log.steps, recorder)
            driver.redo_groups = log.redo
            driver.keep_ahead(log.ahead)
            return Resumed(driver)
        except ReplayDivergence as exc:
            raise StoreError(
                f"Session {session_id}'s log is damaged at step {exc.step + 1} ({departure(exc)}); "
                "it is left as it is."
            ) from None
    still = under_rules(game, info.rules_version)
    if still is not None:
        try:
            config, notice = info.config, None
            driver = Driver.resume(still.game, info.seed, config, log.steps, recorder)
            points = (None if driver.finished else still.going_on(driver.state, config)) or []
            for k, (wanted, said) in enumerate(points):
                if k < len(points) - 1:
                    # An earlier point only where every logged step is asked and leads as
                    # recorded; the last point is always safe.
                    fit = replay_fitting(still.game, info.seed, wanted, log.steps)
                    if fit.divergence is not None or fit.digests != log.digests:
                        continue
                    driver = fit.driver
                    driver.recorder = recorder
                else:
                    driver = Driver.resume(still.game, info.seed, wanted, log.steps, recorder)
                config, notice = wanted, said
                break
        except ReplayDivergence:
            pass  # not as those rules asked it either: as far as it fits the current ones
        else:
            if config is not info.config:
                store.set_config(session_id, config)
            driver.redo_groups = log.redo
            driver.keep_ahead(log.ahead)
            return Resumed(driver, notice)
    fit = replay_fitting(game, info.seed, info.config, log.steps)
    driver = fit.driver
    kept = len(driver.steps)
    # From the first step whose state differs, the kept steps are recorded again.
    again = next((j for j in range(kept) if fit.digests[j] != log.digests[j]), kept)
    if again == len(log.steps):  # every step fits and leads where it did: only the version is new
        recorder.refit(current)
        driver.recorder = recorder
        return Resumed(driver)
    summary = game.summary(driver.state)
    recorder.refit(
        current,
        again,
        [(log.events[j], fit.digests[j]) for j in range(again, kept)],
        canonical(driver.snapshot()),
        driver.finished,
        summary,
    )
    driver.recorder = recorder
    earlier = f"This game was recorded under earlier rules (version {info.rules_version})"
    divergence = fit.divergence
    if divergence is None:
        notice = (
            f"{earlier}: every step still fits the current rules (version {current}), which from "
            f"step {again + 1} lead to a different state of the game; it goes on under them."
        )
    elif driver.finished:
        notice = (
            f"{earlier}: at step {kept + 1} {departure(divergence)}, so under them it ended "
            f"after step {kept}."
        )
    else:
        notice = f"{earlier}: from step {kept + 1} {departure(divergence)}; it goes on from step {kept + 1}."
    return Resumed(driver, notice)


def branch_session(store: Store, session_id: int, steps: int) -> int:
    """A new session whose log is the first ``steps`` steps of session ``session_id``'s (its
    seed, settings and rules version, each step's answer, source, time, dice name and test
    mark, and the notes on them), marked as a branch of it at that step; its number. It goes
    on from there as a session of its own. StoreError (one sentence, nothing made) for a step
    the log does not have, or a log that does not replay to the states it recorded."""
    import json

    from companion.games import GameNotAvailable, playing

    info = store.session(session_id)
    log = store.log(session_id)
    if not 1 <= steps <= len(log.steps):
        have = f"its log has {len(log.steps)}" if log.steps else "its log has none yet"
        raise StoreError(f"Session {session_id} has no step {steps} to branch at; {have}.")
    try:
        game = playing(info.game, info.rules_version)
    except GameNotAvailable as exc:
        raise StoreError(f"Session {session_id} cannot be branched: {str(exc).rstrip('.')}.") from None
    try:
        # Every step replayed and its state checked against the one recorded: a branch starts
        # from the very table its parent had at that step.
        driver = verify(game, info.seed, info.config, log.steps[:steps], log.digests[:steps], None)
    except ReplayDivergence as exc:
        raise StoreError(
            f"Session {session_id} cannot be branched: its log is damaged at step {exc.step + 1} "
            f"({departure(exc)})."
        ) from None
    state = canonical(driver.snapshot())
    finished = driver.finished
    now = store.now()
    said = branch_words(session_id, steps)
    row = {
        "game": info.game,
        "seed": info.seed,
        "dice_mode": info.dice_mode,
        "status": "finished" if finished else "active",
        "started": now,
        "last_activity": now,
        "ended": now if finished else None,
        "steps": steps,
        "summary": game.summary(driver.state),
        "config": json.dumps(info.config),
        "state": state,
        "rules_version": info.rules_version,
        "dice_nonce": info.dice_nonce,
        "die": info.die,
        "parent_id": session_id,
        "branch_step": steps,
        "branch_of": said,
    }
    events = [{"seq": i, **answer_row(ev, i, ev.digest)} for i, ev in enumerate(log.events[:steps])]
    tests = [i for i, ev in enumerate(log.events[:steps]) if ev.test]
    notes = [(n.step, n.text) for n in store.notes(session_id) if n.step < steps]
    return store.insert_session(row, events, tests, notes)

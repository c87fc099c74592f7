"""Every topic the prompts of the Battle of Simancas carry (companion/prompts.py), for ``Asks``
(companion/interface.py): a log kept as recorded, an import of earlier rules that no longer
replays, is held to what the game can ask.

Every topic an engine module names and every topic whole games ask is here
(tests/unit/test_game_asks.py checks both). The topics the store gives steps logged before
prompts carried one (``<game>.legacy.<kind>``) are the store's: companion/store/legacy.py.
"""

from __future__ import annotations

TOPICS = frozenset(
    {
        "simancas.guide.battle",
        "simancas.guide.fate",
        "simancas.guide.reserve",
        "simancas.guide.retreat",
        "simancas.guide.strategy",
        "simancas.hand.result",
        "simancas.placement.draw",
        "simancas.placement.enemy_troop",
        "simancas.placement.no_troop",
        "simancas.placement.random_discard",
        "simancas.placement.rout_target",
        "simancas.placement.table_discard",
        "simancas.strategy.search",
        "simancas.turn.action",
    }
)

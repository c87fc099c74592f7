"""Every topic the prompts of Terra de Castells carry (companion/prompts.py), for ``Asks``
(companion/interface.py): a log kept as recorded, an import of earlier rules that no longer
replays, is held to what the game can ask.

Every topic an engine module names and every topic whole games ask is here
(tests/unit/test_game_asks.py checks both). The topics the store gives steps logged before
prompts carried one (``<game>.legacy.<kind>``) are the store's: companion/store/legacy.py.
"""

from __future__ import annotations

TOPICS = frozenset(
    {
        "castells.actions.attributes",
        "castells.actions.buy",
        "castells.actions.control",
        "castells.actions.control_target",
        "castells.actions.estate",
        "castells.actions.faith",
        "castells.actions.favour",
        "castells.check",
        "castells.actions.next",
        "castells.actions.refused",
        "castells.actions.target",
        "castells.battle.army",
        "castells.battle.favour",
        "castells.battle.favour_change",
        "castells.battle.paid_roll",
        "castells.battle.reroll",
        "castells.battle.result",
        "castells.battle.roll",
        "castells.battle.superiority",
        "castells.resources.bag_empty",
        "castells.resources.collect",
        "castells.resources.draw",
        "castells.saracens.action",
        "castells.saracens.destination",
        "castells.saracens.destination_taken",
        "castells.saracens.idle",
        "castells.saracens.move",
        "castells.saracens.no_target",
        "castells.saracens.reroll",
        "castells.saracens.roll",
        "castells.saracens.stay",
        "castells.saracens.target",
        "castells.setup.army",
        "castells.setup.castles",
        "castells.setup.name",
        "castells.setup.name_taken",
        "castells.setup.order",
        "castells.setup.players",
        "castells.setup.saracen",
        "castells.time.century",
        "castells.time.end",
    }
)

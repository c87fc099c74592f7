"""The unit tests: the engines, the driver, the store, review and the command line, each in process.

The Reconquista rule tests share two fixtures: ``board``, the shipped map and tables, and
``state``, the board as "Setting Up the Board" leaves it. A module that needs another start
(a worked example's forces, a later phase) defines its own ``state``.
"""

from __future__ import annotations

import pytest

from companion.reconquista.board import Board, default_board
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState


@pytest.fixture(scope="module")
def board() -> Board:
    return default_board()


@pytest.fixture
def state(board: Board) -> GameState:
    return initial_state(board)

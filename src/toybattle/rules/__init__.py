"""The rules of Toy Battle: a pure core (no I/O beyond reading its own data files, no third-party imports).

    >>> from toybattle.rules import State, actions
    >>> s = State.new("castle", seed=1)
    >>> a = s.legal_actions()[0]
    >>> s.apply(a)
"""
from . import actions
from .actions import describe as describe_action
from .actions import parse as parse_action
from .actions import to_text as action_text
from .notation import NotationError, Record, parse_position, parse_record, position_text, setup_record
from .observation import determinize, determinizer, observation, unseen
from .perft import perft
from .state import CONCEDED, HQ, MEDALS, STUCK, TIME, IllegalAction, State
from .terrain import TERRAIN_IDS, Board, Terrain, TerrainError, load_terrain, parse_terrain
from .troops import BLUE, RED, SEATS, UNKNOWN

__all__ = [
    "BLUE",
    "CONCEDED",
    "HQ",
    "MEDALS",
    "RED",
    "SEATS",
    "STUCK",
    "TERRAIN_IDS",
    "TIME",
    "UNKNOWN",
    "Board",
    "IllegalAction",
    "NotationError",
    "Record",
    "State",
    "Terrain",
    "TerrainError",
    "action_text",
    "actions",
    "describe_action",
    "determinize",
    "determinizer",
    "load_terrain",
    "observation",
    "parse_action",
    "parse_position",
    "parse_record",
    "parse_terrain",
    "perft",
    "position_text",
    "setup_record",
    "unseen",
]

"""Get better at Toy Battle: a review of every finished game, and puzzles drawn from games (docs/review.md)::

    from toybattle.review import analyse, find_puzzles, check_puzzle, builtin_puzzles
    review = analyse(record, progress=report)   # every decision weighed; report(done, total)
    review.chart[seat], review.costly(seat)     # the chart, the costliest turns (with the better move and why)
    review.to_json()                            # what the app keeps with the game (Review.from_json reads it)
    puzzles = find_puzzles(review)              # positions with one clear answer, checked by the engine
    check_puzzle(puzzles[0])                    # None, or what is wrong

Pure computation over toybattle.rules and toybattle.bots: the engine is given a seat's observation only.
Its words are messages (toybattle.said's ``Said``: an id and its arguments), said by said's catalogues.
"""
from __future__ import annotations

from .game import COSTLIEST, REVIEW_EFFORT, THRESHOLD, Decision, Review, analyse, steps
from .puzzles import MARGIN, Puzzle, builtin_puzzles, check_puzzle, find_puzzles, puzzle_from_position

__all__ = ["COSTLIEST", "MARGIN", "REVIEW_EFFORT", "THRESHOLD", "Decision", "Puzzle", "Review",
           "analyse", "builtin_puzzles", "check_puzzle", "find_puzzles", "puzzle_from_position", "steps"]

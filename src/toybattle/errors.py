"""Errors shared by every part of the product's command line."""
from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (bad file, bad option): printed as one line, exit code 2."""

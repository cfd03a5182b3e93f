"""toybattle: the board game Toy Battle, with bots, a browser app, online rooms and lessons."""
__version__ = "0.1.0"

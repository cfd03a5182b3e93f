"""The magic-wormhole client (mailbox protocol, SPAKE2 transcript, secretbox records) on asyncio over any
websocket: the desktop app, the command line and the static site (Pyodide) all meet by room code through
it, and it reconnects by itself after a drop. See client.py; the primitives come from audited libraries
(primitives.py)."""

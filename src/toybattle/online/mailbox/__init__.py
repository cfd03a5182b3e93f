"""A pure-Python magic-wormhole client (mailbox protocol, SPAKE2, secretbox) over any websocket, so a
browser running Python (Pyodide) meets `toybattle host/join` by room code. See client.py."""

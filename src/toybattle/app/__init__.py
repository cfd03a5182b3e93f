"""The app: play Toy Battle in the browser (server, sessions, websocket protocol).

    toybattle            # starts the server on 127.0.0.1 and opens the browser
    toybattle serve --host 0.0.0.0 --port 8765 --db games.sqlite3 --no-browser

See docs/protocol.md for the browser <-> server protocol.
"""

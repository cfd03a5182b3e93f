"""Online play by room code over a magic-wormhole mailbox, with no trusted side (docs/fair-play.md).

``protocol`` is the pure fair-play logic (commitments, joint randomness, the chained history);
``mailbox`` connects two peers through the mailbox on asyncio and keeps them connected (``transport``
holds what every link shares: app id, codes, errors, the bound on a message); ``wire`` checks the shape of
every message before it is used; ``session`` runs a game between them, with a limit on every wait,
and stores it under a local id after every agreed message; ``cli`` adds ``toybattle host`` / ``join``.
"""

"""Online play by room code over a magic-wormhole mailbox, with no trusted side (docs/fair-play.md).

``protocol`` is the pure fair-play logic (commitments, joint randomness, the chained history);
``transport`` connects two peers through the mailbox under asyncio; ``wire`` checks the shape of
every message before it is used; ``session`` runs a game between them, with a limit on every wait,
and stores it under a local id after every agreed message; ``cli`` adds ``toybattle host`` / ``join``.
"""

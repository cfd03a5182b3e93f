"""Online play by room code over a magic-wormhole mailbox, with no trusted side (docs/fair-play.md).

``protocol`` is the pure fair-play logic (commitments, joint randomness, the chained history);
``transport`` connects two peers through the mailbox under asyncio; ``session`` runs a game
between them and stores it after every agreed message; ``cli`` adds ``toybattle host`` / ``join``.
"""

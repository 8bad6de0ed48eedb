"""What lets anyone trust a move, a game or a link without trusting the
server's word: Ed25519 keys and signed move envelopes (``signing``), game
records verifiable offline (``record``), and the short HMAC credentials a
URL carries (``tickets`` for a seat's event stream, ``play_links`` for a
turn mail's link to the game's page)."""

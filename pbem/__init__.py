"""pbem: an asynchronous, play-by-email turn server for board games."""
__version__ = "0.1.0"

"""The live event stream: ``GET /games/{id}/events/stream`` as server-sent
events, served by a process of its own (``python -m pbem.stream``) so that
thousands of idle connections hold no API thread.

    sse.py     the wire format: one frame per log event, the end, keep-alives
    hub.py     one multiplexed XREAD BLOCK over every watched game's :log, fanned out
    server.py  the aiohttp app: who is asking, catch-up then live, CORS
"""

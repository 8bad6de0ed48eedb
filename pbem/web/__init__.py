"""The web pages (issue 13): the lobby, each game's page with its replay
slider, playing from the page (a key in the browser, or a turn mail's play
link), and the self-contained replay file of ``pbem replay --html``.

    register(app)      # the API's create_app does it
"""
from __future__ import annotations


def register(app) -> None:
    from .favicon import register as register_icons
    from . import unsubscribe  # noqa: F401  (its route joins the pages' blueprint before it is registered)
    from .views import register as register_views
    from . import chat_pages  # noqa: F401  (its routes join views' blueprint before it is registered)
    from . import rematch_pages  # noqa: F401  (likewise)
    register_views(app)
    register_icons(app)  # /favicon.svg and /favicon.ico

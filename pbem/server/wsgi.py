"""WSGI entry point for gunicorn: ``gunicorn pbem.server.wsgi:app``."""
from ..telemetry import logs
from ..settings.config import check_environment

check_environment("pbem-api")  # a bad setting: one line, and no worker boots
logs.setup("api")

from ..api import create_app  # noqa: E402

app = create_app()

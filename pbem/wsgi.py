"""WSGI entry point for gunicorn: ``gunicorn pbem.wsgi:app``."""
from .api import create_app

app = create_app()

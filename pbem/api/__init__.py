"""The REST API: ``create_app()`` builds the Flask app."""
from .app import create_app

__all__ = ["create_app"]

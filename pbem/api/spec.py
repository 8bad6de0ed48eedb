"""Print the OpenAPI document the code generates: ``python -m pbem.api.spec``.
``api_spec/openapi.json`` is this output; a test fails when they differ."""
from __future__ import annotations

import json
import sys

import redis

from ..settings.config import Settings
from .app import create_app


def generate() -> str:
    # The client connects lazily: generating the spec needs no server.
    app = create_app(Settings(redis_url="redis://127.0.0.1:1/0"), redis.Redis(port=1))
    with app.app_context():
        spec = app.extensions["pbem_api"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate())

"""The one error format at the edge, for the API and the web pages alike:

    {"error": {"code": "stale_version", "message": "...", "status": 409, "details": {...}}}

Here, not in ``app``, so that the web pages answer their scripts' fetches in
it without importing the application that assembles them."""
from __future__ import annotations


def error_response(status: int, code: str, message: str, details: dict | None = None, headers=None):
    body = {"error": {"code": code, "message": message, "status": status}}
    if details:
        body["error"]["details"] = details
    return body, status, headers or {}

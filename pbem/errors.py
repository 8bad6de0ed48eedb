"""Typed errors of the service layer. The API turns each into one JSON error
format (``{"error": {"code", "message", "status", "details"}}``); the codes
are stable and documented."""
from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, code: str | None = None, message: str = "", **details):
        self.code = code or self.code
        self.message = message or self.code.replace("_", " ")
        self.details = details
        super().__init__(f"{self.code}: {self.message}")


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Unprocessable(ServiceError):
    status, code = 422, "unprocessable"


class Unavailable(ServiceError):
    status, code = 503, "unavailable"

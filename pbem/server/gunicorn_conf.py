"""gunicorn settings that need code (``--config python:pbem.server.gunicorn_conf``)."""
from gunicorn.glogging import Logger as _Logger

from pbem.telemetry import logs, metrics
from pbem.settings.registry import env


class Logger(_Logger):
    """gunicorn's own lines (a worker that died, a bind that failed) in the
    format of every other line (``PBEM_LOG_FORMAT``)."""

    def setup(self, cfg):
        super().setup(cfg)
        if env("PBEM_LOG_FORMAT") == "json":
            for handler in self.error_log.handlers:
                handler.setFormatter(logs.JsonFormatter("gunicorn"))

    def atoms(self, resp, req, environ, request_time):
        """An access line's fields (when ``--access-logfile`` turns it on)
        without the credentials a request carries: a play link's or an
        invitation's token in the path, a stream ticket in the query, the
        Authorization header."""
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if key in _SECRET_ATOMS:
                atoms[key] = logs.REDACTED
            elif isinstance(value, str):
                atoms[key] = logs.redact(value)
        return atoms


#: Request headers and environ entries that are credentials whole.
_SECRET_ATOMS = {"{authorization}i", "{cookie}i", "{http_authorization}e", "{http_cookie}e",
                 "{proxy-authorization}i", "{http_proxy_authorization}e"}


logger_class = Logger


def child_exit(server, worker):
    # prometheus-client's multiprocess mode: a dead worker's live gauges go.
    metrics.process_exited(worker.pid)

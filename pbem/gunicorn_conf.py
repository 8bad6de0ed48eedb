"""gunicorn settings that need code (``--config python:pbem.gunicorn_conf``)."""
from gunicorn.glogging import Logger as _Logger

from pbem import logs, metrics
from pbem.settings_registry import env


class Logger(_Logger):
    """gunicorn's own lines (a worker that died, a bind that failed) in the
    format of every other line (``PBEM_LOG_FORMAT``)."""

    def setup(self, cfg):
        super().setup(cfg)
        if env("PBEM_LOG_FORMAT") == "json":
            for handler in self.error_log.handlers:
                handler.setFormatter(logs.JsonFormatter("gunicorn"))


logger_class = Logger


def child_exit(server, worker):
    # prometheus-client's multiprocess mode: a dead worker's live gauges go.
    metrics.process_exited(worker.pid)

"""gunicorn settings that need code (``--config python:pbem.gunicorn_conf``)."""
from pbem import metrics


def child_exit(server, worker):
    # prometheus-client's multiprocess mode: a dead worker's live gauges go.
    metrics.process_exited(worker.pid)

"""Running a server: the processes and how they start.

``run`` (``make run``: embedded Redis, gunicorn, workers, the SMTP listener,
the event stream, kept running by ``supervisor``; its ``banner``), the WSGI
entry point (``wsgi``) and gunicorn's worker class and settings
(``http_worker``, ``gunicorn_conf``), the embedded Redis and Redis Cluster
(``embedded_redis``, ``embedded_cluster``) and ``backup``. Nothing below
this package imports it: it assembles the others."""

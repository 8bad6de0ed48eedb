"""What every process reports about itself: log lines (``logs``: text or
JSON, activity lines, request ids) and Prometheus metrics (``metrics``)."""

"""RQ entry points. Jobs take ids and reload what they need from Redis."""

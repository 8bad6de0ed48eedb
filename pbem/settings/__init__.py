"""The settings: every environment variable pbem reads, in one list
(``registry``: name, default, type, meaning; ``env(NAME)``), and the
server's settings object built from it (``config``). The notification and
mail settings are their packages' own (pbem/notify/config.py,
pbem/mail_in/config.py), read through the same registry."""

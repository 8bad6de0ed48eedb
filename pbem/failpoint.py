"""Fault points for the fault tests: ``PBEM_FAILPOINT=NAME`` makes a process
exit at once, with no clean-up and no answer, when it reaches the point
``NAME``, as a kill -9 there would. Unset (always, outside the tests) a
point costs one look at the environment.

Points: ``join_after_claim`` (``Service.join``: the claim of a game's last
seat is stored, its deal is not yet; tests/test_seat_start_faults.py);
``takeback_appended`` (a worker applying a takeback move: its events are
appended, the cache, hooks and the stream's acknowledgement are not done;
tests/test_takebacks_faults.py); ``deadline_chosen`` and
``deadline_submitted`` (``Notifier.deadline_due``: the default move chosen;
queued, the deadline's record not yet cleared), ``vacation_released``
(``Vacations.end``: the games let go, the record not yet deleted) and
``resume_scheduled`` (``Notifier.resume``: the deadlines scheduled, the
pause not yet lifted; tests/test_clock_faults.py); ``deferred_taken``
(``Notifier.deferred_turn_mail``: a gathered turn mail taken, not yet sent;
tests/test_mail_gathered_faults.py).
"""
from __future__ import annotations

import os

from .settings.registry import env

#: The exit status of a process stopped at a fault point.
EXIT_STATUS = 86


def hit(name: str) -> None:
    if env("PBEM_FAILPOINT") == name:
        os._exit(EXIT_STATUS)

"""Turn notifications: email and webhooks, deadlines and reminders.

Nothing here runs in the move path. ``install(service)`` adds two hooks to the
Service (after an applied move, after a worker rejection); each hook only
enqueues one job on the ``pbem-notify`` RQ queue with ids and small facts,
and the job (``workers.notify_jobs``) reloads what it needs and sends.

Modules: ``config`` (settings, server secret), ``tokens`` (reply tokens),
``store`` (channels, deadline records, delivery log in Redis), ``kinds`` (who
is told what), ``wording`` (players' names, the games' texts), ``picture``
(the reader's PNG), ``links``, ``mail`` (composition), ``html_mail`` (the HTML
part's inline-styled blocks), ``transport`` (SMTP or maildir),
``webhooks`` (signing, SSRF checks, delivery with retries), ``deadlines``
(scheduling and the default action), ``notifier`` (ties them together),
``hooks`` (what ``install`` registers) and ``sweeps`` (what the maintenance
sweeps do for it: deadlines and vacations whose job did not run).
"""
from __future__ import annotations

from .hooks import QUEUE, install  # noqa: F401  (what callers name from here)

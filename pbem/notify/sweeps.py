"""What the notifications add to the maintenance sweeps
(pbem.service.maintenance, ``Service.also_sweep``): the deadlines whose job
did not play them, the vacations whose end job did not end them, and the
gathered turn mails whose job did not send them (the job lost, or its
worker killed in it). Each is safe to run beside its job:
``Notifier.deadline_due`` and ``Vacations.end`` may run twice, and a
gathered mail is taken by one (``NotifyStore.take_deferred``)."""
from __future__ import annotations

from .notifier import Notifier
from .vacations import Vacations


def sweep(service, now: float | None = None) -> dict[str, list[str]]:
    notifier = Notifier(service)
    return {"deadlines": notifier.deadlines_late(now), "vacations": Vacations(notifier).due(now),
            "turn_mails": notifier.deferred_late(now)}


def install(service) -> None:
    """By the worker's and the API's set-up, beside ``pbem.notify.install``."""
    if sweep not in service.also_sweep:
        service.also_sweep.append(sweep)

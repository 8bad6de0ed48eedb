"""What the notifications add to the maintenance sweeps
(pbem.service.maintenance, ``Service.also_sweep``): the deadlines whose job
did not play them, and the vacations whose end job did not end them (the
job lost, or its worker killed in it). Each is safe to run beside its job:
``Notifier.deadline_due`` and ``Vacations.end`` may run twice."""
from __future__ import annotations

from .notifier import Notifier
from .vacations import Vacations


def sweep(service, now: float | None = None) -> dict[str, list[str]]:
    notifier = Notifier(service)
    return {"deadlines": notifier.deadlines_late(now), "vacations": Vacations(notifier).due(now)}


def install(service) -> None:
    """By the worker's and the API's set-up, beside ``pbem.notify.install``."""
    if sweep not in service.also_sweep:
        service.also_sweep.append(sweep)

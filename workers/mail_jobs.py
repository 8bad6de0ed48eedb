"""RQ jobs of the ``pbem-mail`` queue: thin (see pbem.mail_in)."""
from __future__ import annotations

from pbem.mail_in import invites, subscriptions
from pbem.mail_in.outbox import send_answer as send_kept_answer
from pbem.mail_in.process import MailProcessor

from .context import context


def process(raw_id: str, recipients: list[str]) -> list[dict]:
    """Process one stored inbound message for each of its token recipients."""
    service, queue = context()
    return MailProcessor(service, queue).process_stored(raw_id, recipients)


def send_invitation(game_id: str, seat: int, attempt: int = 1, nonce: str | None = None) -> bool:
    """``nonce``: the invitation it was queued for (jobs queued before it was
    passed have none, and send whichever invitation the seat has)."""
    service, _ = context()
    return invites.send_invitation(service, game_id, seat, attempt=attempt, nonce=nonce)


def send_answer(out_id: str, attempt: int) -> str:
    """Send again an answer the relay refused (pbem.mail_in.outbox.retry_answer)."""
    service, _ = context()
    return send_kept_answer(service.store.redis, out_id, attempt)


def announce(game_id: str) -> int:
    """Announce a game opened to anyone to its type's subscribers (pbem.mail_in.subscriptions)."""
    service, _ = context()
    return subscriptions.announce(service, game_id)

"""The outbox of the mail reader's own mails (answers to replies, and the
open games' announcements, pbem/mail_in/subscriptions.py): a mail the
relay refused is kept (``MailStore.put_outgoing``) and sent again by the
``pbem-mail`` job ``send_answer`` after each of ``RETRIES``; once they are
used up it is kept a week more and recorded for the operator
(pbem.store.failures)."""
from __future__ import annotations

import logging
from email import message_from_bytes
from email.policy import SMTP

from ..notify import transport
from ..notify.config import NotifySettings
from ..store.failures import Failures
from . import QUEUE, RETRIES, try_later
from .store import MailStore

log = logging.getLogger(__name__)


def retry_answer(client, msg, attempt: int = 1) -> bool:
    """Keep an answer the relay refused and schedule another try; False
    once the tries are used up."""
    if attempt > len(RETRIES):
        return False
    out_id = MailStore(client).put_outgoing(msg.as_bytes(policy=SMTP), sum(RETRIES) + 3600)
    return try_later(client, attempt, "workers.mail_jobs.send_answer", out_id)


def send_answer(client, out_id: str, attempt: int, conf: NotifySettings | None = None) -> str:
    """Try a kept answer again: "sent", "retrying", "given_up" or "gone"."""
    conf = conf or NotifySettings()
    raw = MailStore(client).take_outgoing(out_id)
    if raw is None:
        return "gone"
    msg = message_from_bytes(raw, policy=SMTP)
    try:
        transport.send(msg, conf.smtp_url, conf.data_dir)
        return "sent"
    except Exception as err:
        log.warning("answer %s failed again (try %s): %s", out_id, attempt, err)
        if retry_answer(client, msg, attempt):
            return "retrying"
        # Given up: kept a week more for the operator to retry (pbem.store.failures).
        kept = MailStore(client).put_outgoing(raw, 7 * 86400)
        Failures(client).record("answer", None, None, f"{type(err).__name__}: {err}", attempt,
                                "workers.mail_jobs.send_answer", [kept, 1], QUEUE, to=msg.get("To"))
        return "given_up"

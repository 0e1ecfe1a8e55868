"""The keys staff sign-in depends on, kept outside the database: the one that signs cookies and
session tokens, and the one TOTP secrets are sealed with. Whoever can read or write the database
alone can neither read a second factor nor make a session row that signs anyone in."""
from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken

from ..config import Settings

log = logging.getLogger(__name__)

# A Fernet token is base64 of a version byte 0x80 and a timestamp: every sealed secret starts so,
# and no base32 TOTP secret does (base32 has no lower-case letters).
SEALED_PREFIX = "gAAAAA"


class UnreadableSecret(Exception):
    """A stored TOTP secret this service's key did not seal (plaintext, or another key's)."""


@dataclass(frozen=True, slots=True)
class StaffKeys:
    signing_key: str        # Flask's cookie key, and the HMAC key of session tokens
    totp_key: str           # a Fernet key (32 bytes, url-safe base64)

    @classmethod
    def generate(cls) -> StaffKeys:
        return cls(secrets.token_urlsafe(48), Fernet.generate_key().decode())

    @classmethod
    def from_settings(cls, settings: Settings) -> StaffKeys:
        """The configured keys. Where none are configured (a developer's in-process app), keys
        made for this process alone: its sessions end with it and a second factor enrolled under
        them cannot be read after a restart, which the log says."""
        if settings.secret_key and settings.totp_key:
            Fernet(settings.totp_key.encode())   # a malformed key fails at start, not at a sign-in
            return cls(settings.secret_key, settings.totp_key)
        log.warning("PONTOON_SECRET_KEY and PONTOON_TOTP_KEY (or PONTOON_SECRETS_FILE) are not set: "
                    "console sessions and TOTP enrolments last only as long as this process")
        made = cls.generate()
        return cls(settings.secret_key or made.signing_key, settings.totp_key or made.totp_key)

    def session_hash(self, token: str) -> str:
        """What a session row keeps of its token: an HMAC under the signing key, so a row written
        by hand names a token nobody without the key can make."""
        return hmac.new(self.signing_key.encode(), token.encode(), hashlib.sha256).hexdigest()

    def seal(self, totp_secret: str) -> str:
        return Fernet(self.totp_key.encode()).encrypt(totp_secret.encode()).decode()

    def unseal(self, sealed: str) -> str:
        try:
            return Fernet(self.totp_key.encode()).decrypt(sealed.encode()).decode()
        except (InvalidToken, ValueError) as exc:
            raise UnreadableSecret("a stored TOTP secret was not sealed with this service's key") from exc


def is_sealed(stored: str) -> bool:
    return stored.startswith(SEALED_PREFIX)

"""Passwords and dealers' PINs: argon2id hashes (argon2-cffi), the rules each must meet, generated
ones, TOTP codes."""
from __future__ import annotations

import hmac
import secrets
from datetime import datetime

import pyotp
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 12
MAX_LENGTH = 256            # hashing is deliberately slow: a megabyte "password" is refused unhashed
PIN_MIN_LENGTH = 6          # a dealer's PIN: digits only, typed on a screen that is itself the second factor
PIN_MAX_LENGTH = 12
# Runs of digits either way: a PIN inside one is the first a stranger at the table would try.
_RUNS = ("0123456789" * 2, "9876543210" * 2)
TOTP_ISSUER = "Pontoon back office"


class PasswordHashing:
    """How passwords are hashed and checked: argon2id at the hasher's cost (by default argon2-cffi's,
    RFC 9106's low-memory profile). A hash made at another cost still verifies, and is due a rehash."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self.stand_in_hash: str | None = None   # made on first need: see spend_verification

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)

    def spend_verification(self, password: str) -> None:
        """A verification's cost when there is no account to verify against, so that how long a
        refusal takes does not tell whether the username exists."""
        if self.stand_in_hash is None:
            self.stand_in_hash = self.hash(secrets.token_urlsafe(16))
        self.verify(self.stand_in_hash, password)


def password_problems(password: str, username: str) -> list[str]:
    """Why this password may not be used (nothing: it may)."""
    problems = []
    if len(password) < MIN_LENGTH:
        problems.append(f"at least {MIN_LENGTH} characters")
    elif len(password) > MAX_LENGTH:
        problems.append(f"at most {MAX_LENGTH} characters")
    if password.strip().lower() == username.lower():
        problems.append("must not be the username")
    return problems


def pin_problems(pin: str) -> list[str]:
    """Why this dealer's PIN may not be used (nothing: it may)."""
    if not (pin.isascii() and pin.isdigit()):
        return ["digits only"]
    if len(pin) < PIN_MIN_LENGTH:
        return [f"at least {PIN_MIN_LENGTH} digits"]
    if len(pin) > PIN_MAX_LENGTH:
        return [f"at most {PIN_MAX_LENGTH} digits"]
    if len(set(pin)) == 1 or any(pin in run for run in _RUNS):
        return ["not one digit repeated, nor a run such as 123456"]
    return []


def generate_pin() -> str:
    """PIN_MIN_LENGTH random digits that pin_problems accepts."""
    while True:
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_MIN_LENGTH))
        if not pin_problems(pin):
            return pin


def generate_password() -> str:
    """20 characters from 120 random bits, in letters, digits, '-' and '_'."""
    return secrets.token_urlsafe(15)


def new_totp_secret() -> str:
    return pyotp.random_base32()


def is_totp_secret(secret: str) -> bool:
    """Base32 of 16 to 64 characters, as new_totp_secret makes them."""
    return 16 <= len(secret) <= 64 and all(c in BASE32 for c in secret)


def is_totp_code(code: str) -> bool:
    code = "".join(code.split())
    return len(code) == 6 and code.isascii() and code.isdigit()


def totp_uri(secret: str, username: str) -> str:
    """The otpauth:// URI an authenticator app reads (as a QR code, or typed in)."""
    return pyotp.TOTP(secret).provisioning_uri(name=username, issuer_name=TOTP_ISSUER)


BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def totp_step(secret: str, code: str, now: datetime) -> int | None:
    """The 30-second step whose code `code` is: now's, or the one either side (for clocks a little
    apart); None when it is none of them."""
    if not is_totp_secret(secret) or not is_totp_code(code):
        return None
    code = "".join(code.split())
    totp = pyotp.TOTP(secret)
    current = totp.timecode(now)
    return next((step for step in (current - 1, current, current + 1)
                 if hmac.compare_digest(code, totp.generate_otp(step))), None)

"""Secrets outside the database: TOTP secrets stored sealed, session rows useless without the key,
the enrolment's secret made by the server and checked field by field."""
from __future__ import annotations

import dataclasses
import os
from datetime import UTC, datetime

import pyotp
import pytest

from service.config import Settings, read_secrets_file
from service.refusals import Invalid
from service.staff.accounts import create_staff
from service.staff.commands import CreateStaff, EnrolTotp, SignIn, TouchSession
from service.staff.credentials import enrol_totp, seal_totp_secrets
from service.staff.keys import StaffKeys, is_sealed
from service.staff.sessions import SignInOutcome, sign_in, touch_session

from .fake_staff import CHEAP

PASSWORD = "correct horse battery"


@pytest.fixture
def alice(uow):
    create_staff(CreateStaff("alice", "supervisor", "cli", password=PASSWORD), uow, CHEAP)
    return uow.staff.get("alice")


def test_a_totp_secret_is_stored_sealed_and_signs_in_only_under_its_key(uow, alice):
    secret = pyotp.random_base32()
    enrol_totp(EnrolTotp(alice.user_id, secret, pyotp.TOTP(secret).now(), PASSWORD), uow, CHEAP)
    stored = uow.staff.get("alice").totp_secret
    assert is_sealed(stored) and secret not in stored
    code = pyotp.TOTP(secret).at(datetime.now(UTC), counter_offset=1)   # the enrolment spent now's
    other_keys = dataclasses.replace(CHEAP, keys=StaffKeys.generate())
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, other_keys).outcome is SignInOutcome.FAILED
    assert uow.audit.records["system"][-1].payload["reason"] == "totp_unreadable"
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, CHEAP).outcome is SignInOutcome.SIGNED_IN


def test_a_secret_stored_in_clear_signs_no_one_in_until_the_owner_seals_it(uow, alice):
    secret = pyotp.random_base32()
    uow.staff.set_totp_secret(alice.user_id, secret)          # as stored before secrets were sealed
    code = pyotp.TOTP(secret).now()
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, CHEAP).outcome is SignInOutcome.FAILED
    assert seal_totp_secrets(uow, CHEAP.keys) == 1
    assert is_sealed(uow.staff.get("alice").totp_secret)
    assert seal_totp_secrets(uow, CHEAP.keys) == 0
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, CHEAP).outcome is SignInOutcome.SIGNED_IN


def test_a_session_row_written_without_the_key_signs_no_one_in(uow, alice):
    forged_token = "a token the forger chose"
    uow.staff.open_session(alice.user_id, StaffKeys.generate().session_hash(forged_token))
    assert touch_session(TouchSession(forged_token), uow, CHEAP) is None
    genuine = sign_in(SignIn("alice", PASSWORD), uow, CHEAP)
    stored = {session.token_hash for session in uow.staff.sessions.values()}
    assert genuine.token not in stored
    assert touch_session(TouchSession(genuine.token), uow, CHEAP) is not None


@pytest.mark.parametrize("secret, code, field", [
    ("not base32 at all!!", "123456", "secret"),
    ("JBSWY3DP", "123456", "secret"),                 # too short to be one the service made
    (pyotp.random_base32(), "12345", "code"),
    (pyotp.random_base32(), "12345\x00", "code"),
    (pyotp.random_base32(), "١٢٣٤٥٦", "code"),        # digits, but not ASCII ones
])
def test_a_malformed_secret_or_code_is_refused_naming_the_field(uow, alice, secret, code, field):
    with pytest.raises(Invalid) as refused:
        enrol_totp(EnrolTotp(alice.user_id, secret, code, PASSWORD), uow, CHEAP)
    assert field in refused.value.errors
    assert uow.staff.get("alice").totp_secret is None


def test_enrolling_asks_for_the_password(uow, alice):
    secret = pyotp.random_base32()
    with pytest.raises(Invalid) as refused:
        enrol_totp(EnrolTotp(alice.user_id, secret, pyotp.TOTP(secret).now(), "not the password"), uow, CHEAP)
    assert set(refused.value.errors) == {"password"}
    assert uow.staff.get("alice").totp_secret is None


def test_the_keys_come_from_a_file_only_its_owner_may_read(tmp_path):
    keys = StaffKeys.generate()
    path = tmp_path / "secrets.env"
    path.write_text(f"# made at first start\nPONTOON_SECRET_KEY={keys.signing_key}\nPONTOON_TOTP_KEY={keys.totp_key}\n")
    os.chmod(path, 0o644)
    with pytest.raises(PermissionError):
        read_secrets_file(str(path))
    os.chmod(path, 0o600)
    settings = Settings.from_env({"PONTOON_SECRETS_FILE": str(path)})
    assert StaffKeys.from_settings(settings) == keys
    assert Settings.from_env({"PONTOON_SECRETS_FILE": str(path), "PONTOON_SECRET_KEY": "env wins"}).secret_key \
        == "env wins"

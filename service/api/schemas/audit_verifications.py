"""A verification of the whole audit log, as the API answers it: where it is, and its verdict."""
from __future__ import annotations

import marshmallow as ma

from ...store.repositories.verifications import VerificationStatus


class VerificationSchema(ma.Schema):
    verification_id = ma.fields.UUID(required=True)
    requested_by = ma.fields.String(required=True, metadata={"description": "the actor who asked"})
    requested_at = ma.fields.DateTime(required=True)
    status = ma.fields.Enum(VerificationStatus, by_value=True, required=True,
                            metadata={"description": "queued, running, then intact, broken, or failed (the "
                                                     "check could not finish; `error` says why)"})
    attempts = ma.fields.Integer(required=True, metadata={"description": "times a worker took it up"})
    started_at = ma.fields.DateTime(allow_none=True, required=True)
    heartbeat_at = ma.fields.DateTime(allow_none=True, required=True,
                                      metadata={"description": "when its worker last showed progress"})
    finished_at = ma.fields.DateTime(allow_none=True, required=True)
    records = ma.fields.Integer(required=True, metadata={"description": "records checked (so far, while running)"})
    chains = ma.fields.Integer(required=True)
    shoes = ma.fields.Integer(required=True, metadata={"description": "shoe commitments re-opened"})
    rounds = ma.fields.Integer(required=True, metadata={"description": "settled rounds replayed against the ledger"})
    problem_count = ma.fields.Integer(required=True)
    problems = ma.fields.List(ma.fields.String(), required=True,
                              metadata={"description": "the first 200 problems, each naming where to look"})
    notes = ma.fields.List(ma.fields.String(), required=True)
    error = ma.fields.String(allow_none=True, required=True)

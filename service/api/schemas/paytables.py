"""Paytable versions as the API answers them: each version, its trail, and a table's assignments."""
from __future__ import annotations

import marshmallow as ma

from ...store.repositories.evaluations import EvaluationStatus
from ...store.repositories.paytables import VersionStatus
from ...web.schemas import paytables as forms
from .variants import component


def version_status(**kwargs) -> ma.fields.String:
    return ma.fields.String(validate=ma.validate.OneOf([status.value for status in VersionStatus]),
                            metadata=component("VersionStatus", "draft, approved or rejected"), **kwargs)


def evaluation_status(description: str, **kwargs) -> ma.fields.String:
    return ma.fields.String(validate=ma.validate.OneOf([status.value for status in EvaluationStatus]),
                            metadata=component("EvaluationStatus", description), **kwargs)


def odds_by_name(description: str | None = None, **kwargs) -> ma.fields.Dict:
    return ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(),
                          metadata=component("Odds", description), **kwargs)


def evaluation_detail(**kwargs) -> ma.fields.Dict:
    return ma.fields.Dict(keys=ma.fields.String(), metadata=component("EvaluationDetail", "how it was measured"),
                          **kwargs)


class VersionSummarySchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    status = version_status(required=True)
    author = ma.fields.String(required=True)
    created_at = ma.fields.DateTime(required=True)
    reason = ma.fields.String(required=True)
    decided_by = ma.fields.String(allow_none=True, required=True)
    decided_at = ma.fields.DateTime(allow_none=True, required=True)
    house_edge_percent = ma.fields.Float(allow_none=True, required=True)
    rtp_percent = ma.fields.Float(allow_none=True, required=True)


class PaytableVersionsSchema(ma.Schema):
    name = ma.fields.String(required=True)
    versions = ma.fields.List(ma.fields.Nested(VersionSummarySchema), required=True)


class PrizeSchema(ma.Schema):
    wager_below = ma.fields.Integer(allow_none=True, required=True)
    prize = ma.fields.Integer(required=True)


class SuperBonusSchema(ma.Schema):
    ranks = ma.fields.List(ma.fields.String(), required=True)
    upcard = ma.fields.String(required=True)
    one_suit = ma.fields.Boolean(required=True)
    envy = ma.fields.Integer(required=True)
    prizes = ma.fields.List(ma.fields.Nested(PrizeSchema), required=True)


# A leaf of a paytable document, as a change names it: a value, or a list or mapping left empty.
PAYTABLE_VALUE = component("PaytableValue", anyOf=[
    {"type": "string"}, {"type": "number"}, {"type": "boolean"},
    {"type": "array", "maxItems": 0, "items": {}},
    {"type": "object", "title": "EmptyMapping", "maxProperties": 0}])


class PaytableChangeSchema(ma.Schema):
    path = ma.fields.String(required=True, metadata={"description": "e.g. odds.pontoon, super_bonus.prizes[0].prize"})
    change = ma.fields.String(required=True, validate=ma.validate.OneOf(["added", "removed", "changed"]))
    before = ma.fields.Raw(allow_none=True, required=True,
                           metadata={**PAYTABLE_VALUE, "description": "the value at `path` before; null when added"})
    after = ma.fields.Raw(allow_none=True, required=True,
                          metadata={**PAYTABLE_VALUE, "description": "the value at `path` after; null when removed"})


class TrailStepSchema(ma.Schema):
    step = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ["seeded", "submitted", "approved", "rejected", "assigned", "applied", "superseded"]))
    by = ma.fields.String(allow_none=True, required=True, metadata={"description": "an API key id, or system"})
    at = ma.fields.DateTime(required=True)
    reason = ma.fields.String(allow_none=True, required=True)
    table_id = ma.fields.String()
    round_id = ma.fields.UUID(allow_none=True, metadata={"description": "the first round under it"})


class SideBetLimitsSchema(ma.Schema):
    min = ma.fields.Integer(required=True)
    max = ma.fields.Integer(required=True)


class SideBetSchema(ma.Schema):
    kind = ma.fields.String(required=True, metadata={"description": "the engine's evaluator, e.g. pair"})
    pays = odds_by_name("what each hand of its kind pays", required=True)
    limits = ma.fields.Nested(SideBetLimitsSchema, required=True, metadata={"description": "cents"})


class SubmitVersionSchema(forms.SubmitVersionSchema):
    """The console's form, as the API's body: its document written as the paytable document
    every answer names."""

    content = ma.fields.Dict(keys=ma.fields.String(), metadata=component(
        "PaytableDocument", "the paytable as a JSON object (the same fields as the YAML)"))


class VersionSchema(ma.Schema):
    name = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    status = version_status(required=True)
    odds = odds_by_name("pontoon, win and doubled_win, as the engine reads them", required=True)
    bonuses = odds_by_name("the bonus lines by hand name", required=True)
    side_bets = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(SideBetSchema), required=True,
                               metadata=component("SideBets", "the side bets it offers, by the name wagers give "
                                                              "them"))
    super_bonus = ma.fields.Nested(SuperBonusSchema, allow_none=True, required=True)
    content = ma.fields.Dict(keys=ma.fields.String(), required=True,
                             metadata=component("PaytableDocument", "the whole document"))
    source_format = ma.fields.String(required=True, validate=ma.validate.OneOf(["yaml", "json", "file"]))
    based_on_version = ma.fields.Integer(allow_none=True, required=True)
    changes = ma.fields.List(ma.fields.Nested(PaytableChangeSchema), required=True,
                             metadata={"description": "what differs from based_on_version"})
    house_edge_percent = ma.fields.Float(allow_none=True, required=True,
                                         metadata={"description": "measured at approval"})
    rtp_percent = ma.fields.Float(allow_none=True, required=True)
    evaluation = evaluation_detail(allow_none=True, required=True)
    evaluation_status = evaluation_status("where its evaluation stands (GET .../evaluation); null: never asked for",
                                          allow_none=True, required=True)
    trail = ma.fields.List(ma.fields.Nested(TrailStepSchema), required=True,
                           metadata={"description": "submission, decision, assignments, in time order"})
    tables = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "tables running it now"})


class EvaluationSchema(ma.Schema):
    paytable = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    status = evaluation_status("queued for a worker, running, done (its figures are in) or failed (error says why); "
                               "null when never asked for", allow_none=True, required=True)
    requested_by = ma.fields.String(allow_none=True, required=True)
    requested_at = ma.fields.DateTime(allow_none=True, required=True)
    attempts = ma.fields.Integer(required=True, metadata={"description": "times a worker took it up"})
    started_at = ma.fields.DateTime(allow_none=True, required=True)
    finished_at = ma.fields.DateTime(allow_none=True, required=True)
    house_edge_percent = ma.fields.Float(allow_none=True, required=True,
                                         metadata={"description": "once done: what approval keeps"})
    rtp_percent = ma.fields.Float(allow_none=True, required=True)
    method = ma.fields.String(allow_none=True, required=True, validate=ma.validate.OneOf(["exact", "simulation"]),
                              metadata=component("EvaluationMethod", "exact (a calculation) or simulation"))
    detail = evaluation_detail(allow_none=True, required=True)
    error = ma.fields.String(allow_none=True, required=True)


class AssignmentSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    version = ma.fields.Integer(required=True)
    previous_version = ma.fields.Integer(allow_none=True, required=True)
    assigned_by = ma.fields.String(required=True)
    assigned_at = ma.fields.DateTime(required=True)
    reason = ma.fields.String(required=True)
    applied_round_id = ma.fields.UUID(allow_none=True, required=True)
    applied_at = ma.fields.DateTime(allow_none=True, required=True)
    superseded_at = ma.fields.DateTime(allow_none=True, required=True)


class TablePaytableSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    paytable = ma.fields.String(allow_none=True, required=True)
    version = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "in force now"})
    pending_version = ma.fields.Integer(allow_none=True, required=True,
                                        metadata={"description": "assigned, waiting for the table's next round"})
    next_round_version = ma.fields.Integer(allow_none=True, required=True)
    round_open = ma.fields.Boolean(required=True)
    assignments = ma.fields.List(ma.fields.Nested(AssignmentSchema), required=True)

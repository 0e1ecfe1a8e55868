"""A table's rules under change control: the rules in force, the change waiting, every change."""
from __future__ import annotations

import marshmallow as ma

from ...store.repositories.table_rules import RulesChangeStatus


class KnobChangeSchema(ma.Schema):
    path = ma.fields.String(required=True, metadata={"description": "the knob, as the rules file writes it"})
    change = ma.fields.String(required=True, validate=ma.validate.OneOf(["added", "removed", "changed"]))
    before = ma.fields.Raw(allow_none=True, required=True)
    after = ma.fields.Raw(allow_none=True, required=True)


class RulesChangeSchema(ma.Schema):
    change_id = ma.fields.Integer(required=True)
    from_rules = ma.fields.String(required=True)
    to_rules = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf([s.value for s in RulesChangeStatus]),
                              metadata={"description": "proposed; approved (waits for the next shoe); rejected; "
                                                       "applied"})
    proposed_by = ma.fields.String(required=True)
    proposed_at = ma.fields.DateTime(required=True)
    reason = ma.fields.String(required=True)
    decided_by = ma.fields.String(allow_none=True, required=True)
    decided_at = ma.fields.DateTime(allow_none=True, required=True)
    decision_reason = ma.fields.String(allow_none=True, required=True)
    changes = ma.fields.List(ma.fields.Nested(KnobChangeSchema), allow_none=True, required=True,
                             metadata={"description": "the knobs that change, before and after"})
    applied_at = ma.fields.DateTime(allow_none=True, required=True)
    applied_shoe_id = ma.fields.UUID(allow_none=True, required=True, metadata={"description": "the shoe it took "
                                                                                             "effect with"})


class TableRulesSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    rules = ma.fields.String(required=True, metadata={"description": "name@version in force"})
    next_shoe_rules = ma.fields.String(required=True, metadata={"description": "the rules the next shoe opens "
                                                                              "under"})
    waiting = ma.fields.Nested(RulesChangeSchema, allow_none=True, required=True,
                               metadata={"description": "the change proposed, or approved and waiting for the "
                                                        "next shoe"})
    changes = ma.fields.List(ma.fields.Nested(RulesChangeSchema), required=True)
    choices = ma.fields.List(ma.fields.String(), required=True,
                             metadata={"description": "the rules files of the table's game it may change to"})

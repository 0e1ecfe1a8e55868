"""/v1/rounds: a round's state and transcript, and the cards and decisions that drive it."""
from __future__ import annotations

from flask.views import MethodView

from ...rounds import handlers, queries
from ...rounds.commands import PostAction, PostCard
from ...store.repositories.rounds import TABLE_OF_ROUND
from ...web.access import Task, roles_for
from ..auth import TableOf, access, principal, require
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, IF_MATCH, documented
from ..if_match import expected_revision
from ..schemas.rounds import ActionSchema, CardSchema, RoundStateSchema, TranscriptSchema
from ..transactions import command, request_uow

blp = Blueprint("rounds", __name__, url_prefix="/v1/rounds", description="Rounds: state, cards, decisions")
round_table = TableOf("round_id", TABLE_OF_ROUND)


@blp.route("/<uuid:round_id>")
class Round(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=round_table)
    @blp.response(200, RoundStateSchema)
    @documented(blp, "getRound", 404)
    def get(self, round_id):
        """Read a round.

        The whole state: status, revision, what is awaited (a card, a decision, or nothing once
        complete), the hand in turn and its legal decisions, every hand, the dealer, and each
        seat's settlement once a worker has settled it."""
        return queries.round_state(request_uow(), round_id)


@blp.route("/<uuid:round_id>/transcript")
class Transcript(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=round_table)
    @blp.response(200, TranscriptSchema)
    @documented(blp, "getTranscript", 404)
    def get(self, round_id):
        """Read a round's transcript.

        Its rules, paytable, seats, cards and decisions in order: `pontoon replay` plays a
        complete one to the same money (docs/transcript-format.md)."""
        return queries.round_transcript(request_uow(), round_id)


@blp.route("/<uuid:round_id>/cards")
class Cards(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=round_table))
    @blp.arguments(CardSchema())
    @blp.response(200, RoundStateSchema)
    @documented(blp, "reportCard", 404, 409, headers=(IDEMPOTENCY_KEY, IF_MATCH))
    def post(self, body, round_id):
        """Report the next card out of a physical shoe.

        The engine gives it to whoever is owed one (`card_to` in the round's state). A card the
        shoe cannot hold is refused (409 card_refused) and audited; a round awaiting a decision
        refuses a card (409)."""
        return handlers.post_card(PostCard(round_id, body["card"], principal().actor, expected_revision()),
                                  request_uow())


@blp.route("/<uuid:round_id>/actions")
class Actions(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=round_table))
    @blp.arguments(ActionSchema())
    @blp.response(200, RoundStateSchema)
    @documented(blp, "postDecision", 404, 409, headers=(IDEMPOTENCY_KEY, IF_MATCH))
    def post(self, body, round_id):
        """Post a player's decision.

        One of the decisions the round's state lists as legal now (insurance included); the
        answer is the round's new state. One the rules do not allow now is refused (409
        decision_refused) with the legal ones listed in `legal_actions`."""
        return handlers.post_action(
            PostAction(round_id, body["seat"], body["action"], body["hand"], body["amount"], principal().actor,
                       expected_revision()), request_uow())

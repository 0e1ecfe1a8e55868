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
    @documented(blp, 404)
    def get(self, round_id):
        """The whole state: status, what is awaited, the hand in turn and its legal decisions,
        every hand, the dealer, and the settlement once settled."""
        return queries.round_state(request_uow(), round_id)


@blp.route("/<uuid:round_id>/transcript")
class Transcript(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=round_table)
    @blp.response(200, TranscriptSchema)
    @documented(blp, 404)
    def get(self, round_id):
        """The round's transcript: `pontoon replay` plays a complete one to the same money."""
        return queries.round_transcript(request_uow(), round_id)


@blp.route("/<uuid:round_id>/cards")
class Cards(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=round_table))
    @blp.arguments(CardSchema())
    @blp.response(200, RoundStateSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY, IF_MATCH))
    def post(self, body, round_id):
        """The next card out of a physical shoe; the engine gives it to whoever is owed one.
        A card the shoe cannot hold is refused (409 card_refused) and audited."""
        return handlers.post_card(PostCard(round_id, body["card"], principal().actor, expected_revision()),
                                  request_uow())


@blp.route("/<uuid:round_id>/actions")
class Actions(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=round_table))
    @blp.arguments(ActionSchema())
    @blp.response(200, RoundStateSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY, IF_MATCH))
    def post(self, body, round_id):
        """A player's decision (insurance included). One the rules do not allow now is refused
        (409 decision_refused) with the legal ones listed."""
        return handlers.post_action(
            PostAction(round_id, body["seat"], body["action"], body["hand"], body["amount"], principal().actor,
                       expected_revision()), request_uow())

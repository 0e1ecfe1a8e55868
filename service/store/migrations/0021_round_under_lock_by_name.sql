-- pontoon_round_under_lock() (migration 0011) gives what it read as a JSON object whose members are
-- named, as the client reads them, instead of arrays read by position:
-- {"limits", "events": [{"seq", "kind", "payload"}], "shoe": {its columns}, "head": {"seq", "hash", "now"}}.
-- What it reads, under which locks and in which order, is as before.
CREATE OR REPLACE FUNCTION pontoon_round_under_lock(locked_round uuid, games text[]) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    limits json;
    events json;
    shoe json;
    head json;
BEGIN
    SELECT t.limits,
           (SELECT json_agg(json_build_object('seq', e.seq, 'kind', e.kind, 'payload', e.payload) ORDER BY e.seq)
              FROM round_events e WHERE e.round_id = r.round_id),
           CASE WHEN s.shoe_id IS NOT NULL THEN json_build_object(
               'shoe_id', s.shoe_id, 'table_id', s.table_id, 'mode', s.mode, 'commitment', s.commitment,
               'card_order', s.card_order, 'salt', s.salt, 'position', s.position, 'dealt', s.dealt,
               'opened_at', s.opened_at, 'closed_at', s.closed_at) END
      INTO limits, events, shoe
      FROM rounds r
      JOIN tables t ON t.table_id = r.table_id
      LEFT JOIN LATERAL (
          SELECT * FROM shoes
           WHERE shoe_id = r.shoe_id AND mode = 'virtual' AND t.game = ANY (games)
             FOR UPDATE) s ON true
     WHERE r.round_id = locked_round;
    IF cardinality(games) > 0 THEN
        SELECT json_build_object('seq', h.seq, 'hash', h.hash, 'now', now())
          INTO head
          FROM audit_chain_heads h
         WHERE h.chain = (SELECT 'table:' || r.table_id
                            FROM rounds r JOIN tables t ON t.table_id = r.table_id
                           WHERE r.round_id = locked_round AND t.game = ANY (games))
           FOR UPDATE;
    END IF;
    RETURN json_build_object('limits', limits, 'events', events, 'shoe', shoe, 'head', head);
END
$$;

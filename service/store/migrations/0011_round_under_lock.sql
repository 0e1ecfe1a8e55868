-- What a change to a round reads once the round's row is locked: its table's limits, its events
-- in order, its virtual shoe (locked) and its table's audit chain head (locked, with the
-- transaction's time), for a table playing one of `games`. The caller locks the round in the
-- statement that calls this, so one statement does what took three.
--
-- VOLATILE: each query here takes its snapshot when it starts, after the round's lock is granted
-- (and the shoe's before the head's), so the events are whatever the round's previous holder
-- committed, and the shoe and the head are read as they stand once their own locks are granted.
-- The order of the locks (round, shoe, head) is the one every writer takes them in. json_agg
-- writes the events as text as it goes, where jsonb_agg would build JSONB first (slower).
CREATE FUNCTION pontoon_round_under_lock(locked_round uuid, games text[]) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found json;
    head json;
BEGIN
    SELECT json_build_array(
               t.limits,
               (SELECT json_agg(json_build_array(e.seq, e.kind, e.payload) ORDER BY e.seq)
                  FROM round_events e WHERE e.round_id = r.round_id),
               CASE WHEN s.shoe_id IS NOT NULL THEN json_build_array(
                   s.shoe_id, s.table_id, s.mode, s.commitment, s.card_order, s.salt, s.position, s.dealt,
                   s.opened_at, s.closed_at) END)
      INTO found
      FROM rounds r
      JOIN tables t ON t.table_id = r.table_id
      LEFT JOIN LATERAL (
          SELECT * FROM shoes
           WHERE shoe_id = r.shoe_id AND mode = 'virtual' AND t.game = ANY (games)
             FOR UPDATE) s ON true
     WHERE r.round_id = locked_round;
    IF cardinality(games) > 0 THEN
        SELECT json_build_array(h.seq, h.hash, now())
          INTO head
          FROM audit_chain_heads h
         WHERE h.chain = (SELECT 'table:' || r.table_id
                            FROM rounds r JOIN tables t ON t.table_id = r.table_id
                           WHERE r.round_id = locked_round AND t.game = ANY (games))
           FOR UPDATE;
    END IF;
    RETURN json_build_array(found, head);
END
$$;

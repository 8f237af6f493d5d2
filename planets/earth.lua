-- Earth (R9.2): the player has revived six pawns this game (R8.4).
-- The Revive card raises the counter; revived pawns keep counting after they
-- leave the board, so the board itself is not read.
function check(ctx, player)
  return ctx:counter(player, "pawns_revived") >= 6
end

-- For the computer players: revivals so far, out of six.
function progress(ctx, player)
  return math.min(ctx:counter(player, "pawns_revived") / 6, 1)
end

-- Earth (R9.2): the player has revived six pawns this game (R8.4).
-- The Revive card raises the counter; revived pawns keep counting after they
-- leave the board, so the board itself is not read.
function check(ctx, player)
  return ctx:counter(player, "pawns_revived") >= 6
end

-- Pluto (R9.9): the player has checkers on both squares of one pair of
-- diagonally opposite corners (a1 + h8, or a8 + h1).
local function holds_corner(ctx, sq, player)
  local c = ctx:checker(sq)
  return c ~= nil and c.owner == player
end

function check(ctx, player)
  return (holds_corner(ctx, "a1", player) and holds_corner(ctx, "h8", player))
    or (holds_corner(ctx, "a8", player) and holds_corner(ctx, "h1", player))
end

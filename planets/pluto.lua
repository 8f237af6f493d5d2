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

-- For the computer players: the better pair of opposite corners, by how many
-- of its two squares the player holds (one is worth a third: the far corner is
-- the hard part).
function progress(ctx, player)
  local function held(sq) return holds_corner(ctx, sq, player) and 1 or 0 end
  local best = math.max(held("a1") + held("h8"), held("a8") + held("h1"))
  return ({ 0, 1 / 3, 1 })[best + 1]
end

-- For the end of the game: the two opposite corners held.
function squares(ctx, player)
  if holds_corner(ctx, "a1", player) and holds_corner(ctx, "h8", player) then return { "a1", "h8" } end
  if holds_corner(ctx, "a8", player) and holds_corner(ctx, "h1", player) then return { "a8", "h1" } end
  return {}
end

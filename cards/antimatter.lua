-- Antimatter (R8.19): empty a 2×2 block holding checkers of both players.
-- Playable only if such a block exists; the kernel finds the blocks.

local function spots(ctx)
  return ctx:blocks{ owners = { "dark", "light" } }
end

function can_play(ctx)
  return #spots(ctx) > 0
end

function play(ctx)
  local choices = spots(ctx)
  if #choices == 0 then
    error("Antimatter: no 2×2 block holds checkers of both players, so the card cannot be used (R8.19)")
  end
  local anchor = ctx:ask_block("Antimatter: which 2×2 block?", choices)
  for _, sq in ipairs(ctx:block_squares(anchor)) do
    if ctx:checker(sq) then ctx:remove_checker(sq) end
    if ctx:terrain(sq) then ctx:remove_terrain(sq) end
  end
end

-- Antimatter (R8.19): empty a 2×2 block holding checkers of both players.
-- Playable only if such a block exists; the kernel finds the blocks.

-- The blocks holding checkers of both players.
local MIXED = { owners = { "dark", "light" } }

function can_play(ctx)
  return ctx:count_blocks(MIXED) > 0
end

function play(ctx)
  local choices = ctx:blocks(MIXED)
  if #choices == 0 then
    error("Antimatter: no 2×2 block holds checkers of both players, so the card cannot be used (R8.19)")
  end
  local anchor = ctx:ask_block("Antimatter: which 2×2 block?", choices)
  for _, sq in ipairs(ctx:block_squares(anchor)) do
    if ctx:checker(sq) then ctx:remove_checker(sq) end
    if ctx:terrain(sq) then ctx:remove_terrain(sq) end
  end
end

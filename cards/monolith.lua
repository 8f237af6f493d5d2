-- Monolith (R8.5): put the monolith on an empty 2×2 block if it is off the board,
-- otherwise move it one square (R7). The kernel applies R7.1-R7.6: it lists the
-- empty blocks and the allowed directions, and pushes, removes and clears.
function play(ctx)
  if ctx:monolith() == nil then
    local spots = ctx:monolith_spots()
    if ctx:supply("monolith") == 0 or #spots == 0 then
      ctx:log("Monolith: no empty 2×2 block to put it on; nothing happens")
      return
    end
    ctx:place_monolith(ctx:ask_block("Monolith: on which empty 2×2 block?", spots))
    return
  end
  local dirs = ctx:monolith_directions()
  if #dirs == 0 then
    ctx:monolith_blocked() -- R7.6: nothing happens, and the game says so
    return
  end
  ctx:move_monolith(ctx:ask_direction("Monolith: which direction?", dirs))
end

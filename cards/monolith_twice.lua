-- Monolith twice (R8.6): if the monolith is on the board, move it twice (R7).
-- Each move is asked for separately, from the position the previous one left.
function play(ctx)
  if ctx:monolith() == nil then
    ctx:log("Monolith twice: the monolith is not on the board; nothing happens")
    return
  end
  for move = 1, 2 do
    local dirs = ctx:monolith_directions()
    if #dirs == 0 then
      ctx:monolith_blocked() -- R7.6: it stops here
      return
    end
    local prompt = "Monolith twice: which direction for move " .. move .. " of 2?"
    ctx:move_monolith(ctx:ask_direction(prompt, dirs))
  end
end

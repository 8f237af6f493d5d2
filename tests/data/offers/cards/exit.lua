-- Exit: checkers on the far row may leave the board (a8-off).
function play(ctx)
  ctx:add_effect{ lasts = 1 }
end

function extra_moves(ctx, effect)
  local me = ctx:player()
  local far = me == "dark" and "8" or "1"
  local moves = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = me, hippo = false }) do
    if sq:sub(2) == far then
      moves[#moves + 1] = { path = { sq }, off = true }
    end
  end
  return moves
end

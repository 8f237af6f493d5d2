-- Wrap: a3 steps to h4 for Dark, h6 to a5 for Light, and so on.
function play(ctx)
  ctx:add_effect{ lasts = 1 }
end

function extra_moves(ctx, effect)
  local me = ctx:player()
  local step = me == "dark" and 1 or -1
  local moves = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = me, hippo = false }) do
    local file, rank = sq:sub(1, 1), tonumber(sq:sub(2))
    local across = ({ a = "h", h = "a" })[file]
    local to = across and rank + step >= 1 and rank + step <= 8 and (across .. (rank + step))
    if to and ctx:is_empty(to) then
      moves[#moves + 1] = sq .. "-" .. to
    end
  end
  return moves
end

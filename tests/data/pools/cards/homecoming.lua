-- Homecoming: a king on its owner's home row may leave the board (a1-off); the
-- deck's pieces_go sends it to its owner's rescued area.
function extra_moves(ctx, effect)
  local me = ctx:to_move()
  local home = me == "dark" and "1" or "8"
  local moves = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = me, kind = "king" }) do
    if sq:sub(2) == home then
      moves[#moves + 1] = { path = { sq }, off = true }
    end
  end
  return moves
end

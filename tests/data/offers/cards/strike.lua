-- Strike: take an opposing checker diagonally ahead without moving; offered as
-- a chain that ends on its start square.
function extra_moves(ctx, effect)
  local me = ctx:player()
  local ahead = me == "dark" and { "ne", "nw" } or { "se", "sw" }
  local moves = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = me, hippo = false }) do
    for _, way in ipairs(ahead) do
      local target = ctx:neighbour(sq, way)
      local there = target and ctx:checker(target)
      if there and there.owner ~= me then
        moves[#moves + 1] = { path = { sq, target, sq }, takes = { target } }
      end
    end
  end
  return moves
end

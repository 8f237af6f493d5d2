-- Sanctuary: patterns by square, where a move ends (to) and where it starts (from).
function forbid_moves(ctx, effect)
  local forbidden = {}
  for _, sq in ipairs({ "d4", "e5" }) do
    forbidden[#forbidden + 1] = { to = sq }
    forbidden[#forbidden + 1] = { from = sq }
  end
  return forbidden
end

-- Ballot: one move, written as players write it, barred on the first turn.
function forbid_moves(ctx, effect)
  if ctx:turn() == 1 then
    return { "c3-d4" }
  end
  return {}
end

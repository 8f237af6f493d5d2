-- Evacuate (R8.12): next turn the opponent must, if able, move one of their
-- checkers off their back row (a constraint, R4.8).
function play(ctx)
  local opponent = ctx:opponent()
  local row = {}
  for _, sq in ipairs(ctx:squares{ back_row = opponent }) do row[sq] = true end
  local movers = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = opponent }) do
    if row[sq] then movers[#movers + 1] = sq end
  end
  if #movers == 0 then
    ctx:log("Evacuate: {opponent} has no checker on their back row")
    return
  end
  ctx:set_constraint(movers)
end

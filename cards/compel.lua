-- Compel (R8.15): choose an opposing checker; the opponent must move it next
-- turn if able (a constraint, R4.8).
function play(ctx)
  local theirs = { owner = ctx:opponent() }
  if ctx:count(theirs) == 0 then
    ctx:log("Compel: {opponent} has no checker")
    return
  end
  local sq = ctx:ask_checker_where("Compel: which opposing checker must move on their next turn?", theirs)
  ctx:set_constraint({ sq })
end

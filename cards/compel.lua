-- Compel (R8.15): choose an opposing checker; the opponent must move it next
-- turn if able (a constraint, R4.8).
function play(ctx)
  local theirs = {}
  for _, c in ipairs(ctx:checkers{ owner = ctx:opponent() }) do theirs[#theirs + 1] = c.square end
  if #theirs == 0 then
    ctx:log("Compel: the opponent has no checker")
    return
  end
  local sq = ctx:ask_checker("Compel: which opposing checker must move on their next turn?", theirs)
  ctx:set_constraint({ sq })
end

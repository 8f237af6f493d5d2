-- Tithe: the opponent chooses which of their own checkers to lose (opts.to),
-- so the computer answering it must weigh the answer for the opponent.
function can_play(ctx)
  return ctx:count{ owner = ctx:opponent() } > 0
end

function play(ctx)
  local sq = ctx:ask_checker_where("Tithe: which of your checkers do you give up?", { owner = ctx:opponent() },
    { to = ctx:opponent() })
  ctx:remove_checker(sq)
end

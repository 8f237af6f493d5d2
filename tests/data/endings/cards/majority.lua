-- The Endings deck's rule: its verdict scores the ends the deck's rules say
-- are scored, and a crowning ends the game at once.

function verdict(ctx, why, who)
  local dark, light = ctx:count{ owner = "dark" }, ctx:count{ owner = "light" }
  if dark == light then
    return { reason = "even" }
  end
  return { winner = dark > light and "dark" or "light", reason = "majority" }
end

function on_crowned(ctx, event)
  ctx:end_game{ winner = event.owner, reason = "coronation" }
  error("not reached: end_game stops the run")
end

-- Dare: a card's question put to the opponent (opts.to).
function play(ctx)
  local answer = ctx:ask_option("Do you take the dare?", { "yes", "no" }, { to = ctx:opponent() })
  ctx:log("{opponent} says " .. answer .. " to {user}'s dare")
end

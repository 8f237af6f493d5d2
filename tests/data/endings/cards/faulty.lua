-- The Faulty deck's rule: its verdict gives a reason the deck does not
-- declare, or fails outright, and its handler ends the game with one.

function verdict(ctx, why, who)
  if why == "move_limit" then
    error("no count at the move limit")
  end
  return { winner = "dark", reason = "checkmate" }
end

function on_crowned(ctx, event)
  ctx:end_game{ winner = event.owner, reason = "checkmate" }
end

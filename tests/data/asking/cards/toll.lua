-- Toll: acts for the mover (the deck lists it with acts_for: mover), so
-- ctx:player() is the player who just moved and the question is theirs.
function on_moved(ctx, event)
  if event.cause.by ~= "turn" then return end
  local words = ctx:checker(event.to).kind == "king" and { "quiet" } or { "quiet", "boast" }
  local word = ctx:ask_option("Toll: a word for the record?", words, { secret = true })
  ctx:tell(ctx:opponent(), "{user} paid the toll")
  ctx:tell(ctx:player(), "Your word for the record: " .. word)
end

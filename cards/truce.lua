-- Truce (a nightmare card): capture is optional for both players until the end
-- of the user's next turn (R4.3 lifted, as plain data the move generator reads).
function play(ctx)
  ctx:add_effect{ lasts = 1, affects = "both", moves = { capture_optional = true } }
end

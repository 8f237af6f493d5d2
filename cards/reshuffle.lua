-- Reshuffle (R8.18): discards, face-up cards and draw pile become one shuffled
-- draw pile (the game's seeded generator, R2.4), and its top card is turned up.
function play(ctx)
  if ctx:count_cards("draw") + ctx:count_cards("face_up") + ctx:count_cards("discard") == 0 then
    ctx:log("Reshuffle: there are no cards to shuffle")
    return
  end
  ctx:reshuffle()
end

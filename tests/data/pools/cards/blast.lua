-- Blast: a checker leaves the board by a card (the deck's `removed` route).
function play(ctx)
  ctx:remove_checker(ctx:ask_checker_where("Which checker is blown up?", {}))
end

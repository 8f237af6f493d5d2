-- Curse: puts in force an effect whose handler fails when the turn ends, so
-- the use that made it is refused, and the same use would make it again.
function play(ctx)
  ctx:add_effect{ lasts = 1 }
end

function on_turn_ended(ctx, event, effect)
  error("the curse breaks")
end

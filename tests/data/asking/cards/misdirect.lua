-- Misdirect: `to` names no player, so the card fails at this line.
function play(ctx)
  ctx:ask_option("Which way?", { "left", "right" }, { to = "purple" })
end

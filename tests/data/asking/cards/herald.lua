-- Herald: acts for the mover, but its question is put to the other player
-- (opts.to), whose checker was captured.
function game_begins(ctx)
  ctx:log("{user} holds the herald at the deal")
end

function on_captured(ctx, event)
  local owner = event.checker.owner
  local answer = ctx:ask_option("Herald: mourn or curse?", { "mourn", "curse" }, { to = owner })
  ctx:log(owner .. " chose to " .. answer .. " in " .. ctx:player() .. "'s turn")
end

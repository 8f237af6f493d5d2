-- Dusk: a turn of yours ends with your checker on the far corner. The handler
-- keeps the fact in the planet's data; check only reads it.
local CORNER = { dark = "h8", light = "a1" }

function on_turn_ended(ctx, event, player)
  local there = ctx:checker(CORNER[player])
  if event.player == player and there and there.owner == player then
    ctx:set_planet_data{ held = true }
  end
end

function check(ctx, player)
  return ctx:planet_data().held == true
end

function progress(ctx, player)
  return ctx:planet_data().held and 1 or 0
end
